// The state behind per-message routes: how many messages each node pair has sent and how many
// bytes are in flight on each link. The route a pair's next message takes is a function of that
// state, which only start() and end() change, so asking for it (SimGrid does, for the message and
// for its reverse flow; tools and plugins do) never draws a choice. Pure C++.
#pragma once
#include "route_candidates.hpp"
#include "route_policy.hpp"

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace haec::platform {

class MessageRouter {
public:
  // `topo` must be hierarchical and outlive the router.
  MessageRouter(const Topology& topo, RoutingPolicy policy, uint64_t seed);

  // The route the next message src -> dst takes (the same until start() or end()). Safe to call
  // from parallel actors (s4u::Host::route_to() needs no simcall): the candidates' cache is locked.
  const Path& next(uint32_t src, uint32_t dst);
  // A message of `bytes` leaves on next(src, dst): counts it, adds its bytes in flight on each of
  // its links. Returns the token that ends it.
  uint64_t start(uint32_t src, uint32_t dst, double bytes);
  void end(uint64_t token); // its bytes leave the links; unknown tokens are ignored

  double in_flight(uint32_t link) const { return in_flight_.at(link); }
  uint64_t messages(uint32_t src, uint32_t dst) const;
  RoutingPolicy policy() const { return policy_; }

private:
  size_t choose(uint32_t src, uint32_t dst, const std::vector<Path>& candidates) const;
  static uint64_t key(uint32_t src, uint32_t dst) { return (static_cast<uint64_t>(src) << 32) | dst; }

  RouteCandidates candidates_;
  std::mutex candidates_lock_;
  RoutingPolicy policy_;
  uint64_t seed_;
  std::vector<double> bandwidth_; // per link, bytes/s
  std::vector<double> in_flight_; // per link, bytes of started, unfinished messages
  std::unordered_map<uint64_t, uint64_t> sent_;
  struct Flight {
    const Path* path;
    double bytes;
  };
  std::unordered_map<uint64_t, Flight> flights_;
  uint64_t next_token_ = 1;
};

} // namespace haec::platform
