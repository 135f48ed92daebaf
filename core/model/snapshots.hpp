// Periodic snapshots over simulated time (MARS, seed 003 §2.8-2.9): per period of `period`
// seconds, the application's traffic matrix and what each link carried. Attribution, chosen so
// that the periods add up exactly to the whole-run tables:
// - an application message counts in the period in which its sender posted it;
// - a transfer's payload bytes and its count go to the period in which it completed;
// - its flow bytes (utilisation) are shared over the periods its bandwidth phase overlaps, in
//   proportion to the overlap (a constant rate assumed within the phase);
// - busy time is the link's busy union (link_usage.hpp) cut at the period boundaries.
// Period k covers [k*period, (k+1)*period); the last one ends at the makespan. Only non-zero
// rows are written (sparse: large runs stay small). Pure C++.
#pragma once
#include "link_usage.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace haec::core {

class Snapshots {
public:
  explicit Snapshots(double period) : period_(period) {}
  double period() const { return period_; }
  // ceil(makespan / period), at least 1.
  uint64_t periods(double makespan) const;

  void add_app_message(int src_rank, int dst_rank, uint64_t bytes, double time);
  void add_transfer(const RouteTransfer& t);

  // snapshot_traffic.csv and snapshot_links.csv (links listed in `order`, usually by name).
  std::string traffic_csv(double makespan) const;
  std::string links_csv(const LinkUsage& usage, const std::vector<uint32_t>& order, double makespan) const;

private:
  struct LinkCell {
    uint64_t transfers = 0, payload = 0;
    double occupied = 0, busy = 0;
  };
  uint64_t index(double time) const; // unbounded period index of an instant
  std::map<std::tuple<uint64_t, int, int>, std::pair<uint64_t, uint64_t>> traffic_; // (period, src, dst)
  std::map<std::pair<uint64_t, uint32_t>, LinkCell> links_;                         // (period, link id)
  double period_;
};

} // namespace haec::core
