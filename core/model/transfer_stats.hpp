// Per source/destination statistics of a run's network transfers and the message-size histogram
// in log-spaced bins (MARS, seed 003 §2.6 and §2.8). Pure C++: fed by core/traffic_stats.cpp.
#pragma once
#include "run_record.hpp"

#include <absl/container/flat_hash_map.h>
#include <boost/container_hash/hash.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace haec::core {

struct Durations {
  uint64_t count = 0;
  uint64_t bytes = 0;
  double sum = 0, min = 0, max = 0;
  void add(uint64_t payload, double seconds);
};

// transfer_pairs.csv: transfers keyed by (src_rank, dst_rank, src_node, dst_node); a rank is -1
// when its node holds several ranks (the transfer's rank is unknown there).
class PairStats {
public:
  void add(const Transfer& t) { pairs_[{t.src_rank, t.dst_rank, t.src_node, t.dst_node}].add(t.bytes, t.end - t.start); }
  std::string csv(const std::vector<std::string>& node_names) const; // rows in key order

private:
  using Key = std::tuple<int, int, uint32_t, uint32_t>;
  absl::flat_hash_map<Key, Durations, boost::hash<Key>> pairs_; // once per transfer: hashed, sorted when written
};

// Bin b holds sizes in [2^(b-1), 2^b) bytes; bin 0 holds empty messages: edges 0, 1, 2, 4, 8, ...
int size_bin(uint64_t bytes);
uint64_t bin_lower(int bin);
uint64_t bin_max(int bin); // inclusive

// msg_size_hist.csv: per bin the application's messages (when observed) and the network
// transfers with their mean time.
class SizeHistogram {
public:
  void add_app_message(uint64_t bytes);
  void add_transfer(const Transfer& t);
  std::string csv(bool app_observed) const;

private:
  std::map<int, std::pair<uint64_t, uint64_t>> app_; // bin -> (messages, bytes)
  std::map<int, Durations> transfers_;
};

} // namespace haec::core
