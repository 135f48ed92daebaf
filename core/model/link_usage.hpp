// What each link carried in a run: payload and flow bytes, utilisation and how long it was busy.
// A link is busy while at least one transfer crossing it is in its bandwidth phase (SimGrid's
// flow model shares a link's bandwidth only between flows past their latency phase); busy time is
// the union of those phases, kept as merged intervals. Pure C++: fed by core/traffic_stats.cpp.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace haec::core {

// A union of closed time intervals, merged as they are added (O(1) when intervals arrive in
// order of their ends, as transfers complete).
class BusyIntervals {
public:
  struct Interval {
    double begin, end;
  };
  void add(double begin, double end);
  double total() const; // length of the union
  // Folds the intervals that end before `horizon` into the total, when no interval still to come
  // can begin before it (so none can merge with them): the memory stays that of the recent ones.
  // The lengths are summed in the same order as total() would, so the total is the same double.
  void close_before(double horizon);
  // The intervals not closed (all of them when close_before was never called).
  const std::vector<Interval>& intervals() const { return merged_; }

private:
  std::vector<Interval> merged_; // disjoint, sorted
  double closed_ = 0;            // the summed lengths of the closed intervals, in order
};

struct LinkInfo {
  std::string name, type; // type: the haec:type property ("" when absent)
  double bandwidth = 0;   // bytes/s
};

struct LinkUse {
  uint64_t transfers = 0;
  uint64_t payload   = 0; // MPI payload bytes of the transfers crossing it (exact)
  double occupied    = 0; // their flow bytes: network size over the bandwidth factor
  double flow_s      = 0; // summed bandwidth-phase durations (for the mean number of flows)
  BusyIntervals busy;
};

// One transfer as the link statistics see it.
struct RouteTransfer {
  const std::vector<uint32_t>* route; // link ids
  uint64_t payload = 0;
  double occupied  = 0;
  double bw_begin = 0, end = 0; // its bandwidth phase
};

class LinkUsage {
public:
  uint32_t add_link(LinkInfo info); // returns the link's id
  void add_transfer(const RouteTransfer& t);
  const LinkInfo& info(uint32_t id) const { return infos_[id]; }
  const LinkUse& use(uint32_t id) const { return uses_[id]; }
  // BusyIntervals::close_before(horizon) of every link a transfer crossed since the last call
  // (a 4096-node torus has some 25,000 links; a batch of transfers crosses a few of them).
  void close_before(double horizon);
  size_t size() const { return infos_.size(); }
  // link_stats.csv: one row per id of `order`; utilisation and busy fraction over `makespan`.
  std::string csv(const std::vector<uint32_t>& order, double makespan) const;

private:
  std::vector<LinkInfo> infos_;
  std::vector<LinkUse> uses_;
  std::vector<uint32_t> touched_;    // ids crossed since the last close_before
  std::vector<char> touched_flag_;   // by id
};

} // namespace haec::core
