// What one simulated run produced: its network transfers, the application's logical
// point-to-point messages, and the tables derived from them. Pure C++: the SimGrid adapters
// feed it, results.cpp turns it into files.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace haec::suite {

// One transfer as the network model saw it.
struct Transfer {
  int src_rank = -1, dst_rank = -1; // -1 when the node holds several ranks (see README)
  uint32_t src_node = 0, dst_node = 0; // indices into RunRecord::node_names
  uint64_t bytes   = 0;               // MPI payload (network size minus SMPI's envelope)
  int hops         = 0;
  double start = 0, end = 0;          // network start and completion (s)
  double model_time = -1;             // HAEC model time (s); -1 without a link model
  double link_bytes = -1;             // bytes it occupies on each link of its route: network size over the
                                      // bandwidth factor (the integral of its flow); -1 unknown
};

struct SizeStats {
  uint64_t count = 0;
  double sum = 0, min = 0, max = 0;       // end - start
  double model_sum = 0;                   // model_time
};

class RunRecord {
public:
  explicit RunRecord(bool keep_transfers) : keep_transfers_(keep_transfers) {}

  uint32_t node_index(const std::string& host);          // interns host names
  const std::vector<std::string>& node_names() const { return node_names_; }

  void add_transfer(const Transfer& t);
  // Called with every transfer added (the power plugin charges each link of its route).
  void set_transfer_observer(std::function<void(const Transfer&)> observer) { observer_ = std::move(observer); }
  void add_logical_message(int src_rank, int dst_rank, uint64_t bytes);

  uint64_t transfers() const { return transfers_; }
  uint64_t bytes() const { return bytes_; }
  uint64_t total_hops() const { return total_hops_; }
  uint64_t logical_messages() const { return logical_messages_; }
  const std::vector<Transfer>& kept_transfers() const { return kept_; }
  const std::map<uint64_t, SizeStats>& by_size() const { return by_size_; }
  const std::map<int, uint64_t>& hop_histogram() const { return hop_histogram_; }
  const std::map<std::pair<int, int>, std::pair<uint64_t, uint64_t>>& traffic() const { return traffic_; }

  // CSV renderings (deterministic: fixed column order, %.17g-exact numbers, sorted keys).
  std::string messages_csv() const;
  std::string msg_sizes_csv() const;
  std::string hops_csv() const;
  std::string traffic_matrix_csv() const;

private:
  bool keep_transfers_;
  std::function<void(const Transfer&)> observer_;
  std::vector<std::string> node_names_;
  std::map<std::string, uint32_t> node_ids_;
  std::vector<Transfer> kept_;
  uint64_t transfers_ = 0, bytes_ = 0, total_hops_ = 0, logical_messages_ = 0;
  std::map<uint64_t, SizeStats> by_size_;
  std::map<int, uint64_t> hop_histogram_;
  std::map<std::pair<int, int>, std::pair<uint64_t, uint64_t>> traffic_; // (src,dst) -> (messages, bytes)
};

} // namespace haec::suite
