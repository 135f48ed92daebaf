// What one simulated run produced: its network transfers, the application's logical
// point-to-point messages (sent, and in replay received), and the tables derived from them. Pure
// C++: the core feeds it, results.cpp turns it into files, checks.cpp verifies it.
#pragma once
#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace haec::core {

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
  void add_logical_message(int src_rank, int dst_rank, uint64_t bytes);
  // A receive posted for `bytes` from src_rank (trace replay: the receiving side of a message).
  void add_logical_receive(int src_rank, int dst_rank, uint64_t bytes);

  uint64_t transfers() const { return transfers_; }
  uint64_t bytes() const { return bytes_; }
  uint64_t transfer_hops() const { return transfer_hops_; } // links crossed, summed over network transfers
  uint64_t logical_messages() const { return logical_messages_; }
  const std::map<uint64_t, SizeStats>& by_size() const { return by_size_; }
  // (src, dst) -> (messages, bytes): sent, and received (replay only), in (src, dst) order.
  using PairCounts = std::map<std::pair<int, int>, std::pair<uint64_t, uint64_t>>;
  PairCounts traffic() const { return sorted(traffic_); }
  // (src node, dst node) -> (network transfers, payload bytes), over the transfers added.
  PairCounts transfers_by_node_pair() const { return sorted(node_pairs_); }
  PairCounts received() const { return sorted(received_); }

  // CSV renderings (deterministic: fixed column order, %.17g-exact numbers, sorted keys).
  std::string messages_csv() const;
  std::string msg_sizes_csv() const;
  std::string hops_csv() const;
  std::string traffic_matrix_csv() const;

private:
  bool keep_transfers_;
  std::vector<std::string> node_names_;
  std::map<std::string, uint32_t> node_ids_;
  std::vector<Transfer> kept_;
  uint64_t transfers_ = 0, bytes_ = 0, transfer_hops_ = 0, logical_messages_ = 0;
  std::map<uint64_t, SizeStats> by_size_;
  std::map<int, uint64_t> hop_histogram_;
  // Counted once per message: hashed by (src << 32 | dst), sorted only when read.
  using HashedCounts = absl::flat_hash_map<uint64_t, std::pair<uint64_t, uint64_t>>; // flat: once per message
  static PairCounts sorted(const HashedCounts& counts);
  static void count(HashedCounts& counts, int src_rank, int dst_rank, uint64_t bytes);
  HashedCounts traffic_, received_, node_pairs_;
};

} // namespace haec::core
