// Fast runtime model of the resilient link protocols DOR_r, PNC_r and NCD_r (MODELS.md §3.2):
// the time of one m-byte MPI message over a route of h links, each with its own latency,
// bandwidth and loss probabilities. Pure C++: no SimGrid include.
//
// A message is n_p = max(1, ceil(m / L_p)) packets in n_w full windows of s_w and one partial of
// n_r = n_p - s_w n_w (if n_r > 0), sent one window after the other. For a route:
//   base = d_s + sum_i d_h,p,i + (h - 1) d_i + d_r     M = max_i d_h,p,i     A = sum_i (d_h,a,i + d_a)
// A window of g packets takes rounds * (base + A) + index_sum * M + (rounds - 1) * rto_margin,
// with (rounds, index_sum) from resilient_rounds.hpp: their expectation (expected mode) or one draw
// (sampled mode). At zero loss rounds = 1 and index_sum = g - 1, so a window costs tt(g) + A and the
// message Eq. (1)-(2) with the resilient layout (no partial window when n_r = 0). Every message
// adds the injection latency d_mpi. Same node (h = 0): (d_s + d_r) / 2 + d_mpi, no loss.
//
// The expected round statistics are cached per (window fill, route delivery probabilities), so a
// route class is solved once. Not thread-safe (SimGrid calls the network model from one thread).
#pragma once
#include "resilient_params.hpp"
#include "resilient_rounds.hpp"

#include <cstddef>
#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

namespace haec::link::resilient {

// One link of a route.
struct Hop {
  double latency   = 0; // s
  double bandwidth = 0; // bytes/s
  double loss_data = 0; // probability that this link drops a data packet
  double loss_ack  = 0; // probability that this link drops an acknowledgment
};

class Model {
public:
  Model(Protocol protocol, Params params); // throws haec::InputError on bad parameters

  Protocol protocol() const { return protocol_; }
  const Params& params() const { return params_; }
  double payload() const { return layout_.payload; }   // L_p, bytes
  double ack_size() const { return layout_.ack_size; } // s_a, bytes
  double d_s() const { return layout_.d_s; }
  double d_r() const { return layout_.d_r; }
  double d_a() const { return layout_.d_a; } // = d_i
  double packet_hop_delay(const Hop& hop) const; // d_h,p,i
  double ack_hop_delay(const Hop& hop) const;    // d_h,a,i
  uint64_t packets(uint64_t message_bytes) const; // n_p

  // What a route contributes, reduced once (the link plugin keeps one per host pair): then a
  // message costs a few operations whatever the hop count.
  struct RouteSummary {
    size_t hops = 0;
    double base = 0, M = 0, A = 0, q_data = 1, q_ack = 1;
    double max_serialisation = 0;
    mutable const RoundStats* full = nullptr; // stats of a full window on this route, once known
  };
  // Throws haec::InputError for a route that loses (nearly) everything: more than
  // kMaxRoundsPerWindow expected rounds per window (sampling it would never end).
  RouteSummary summarize(const Hop* hops, size_t h) const;
  static constexpr double kMaxRoundsPerWindow = 1e6;
  double expected_time(uint64_t message_bytes, const RouteSummary& route) const;
  double sampled_time(uint64_t message_bytes, const RouteSummary& route, std::mt19937_64& rng) const;
  double bottleneck_serialisation(uint64_t message_bytes, const RouteSummary& route) const;

  // Seconds, each including d_mpi.
  double loss_free_time(uint64_t message_bytes, const Hop* hops, size_t h) const;
  double expected_time(uint64_t message_bytes, const Hop* hops, size_t h) const;
  double sampled_time(uint64_t message_bytes, const Hop* hops, size_t h, std::mt19937_64& rng) const;
  // n_p * max_i serialisation of a packet on hop i (0 when h == 0): the part of the time the
  // packets occupy the slowest link, never more than loss_free_time.
  double bottleneck_serialisation(uint64_t message_bytes, const Hop* hops, size_t h) const;

  // Expected round statistics of a window of g packets (cached); exposed for tests and benchmarks.
  const RoundStats& window_stats(int g, double q_data, double q_ack) const;
  size_t cached_classes() const { return stats_.size(); }

private:
  double window_time(const RouteSummary& r, double rounds, double index_sum) const;
  const std::vector<int>& sizes(int g, double q_data) const;

  struct Key {
    int g;
    double q_data, q_ack;
    bool operator==(const Key& o) const { return g == o.g && q_data == o.q_data && q_ack == o.q_ack; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };

  Protocol protocol_;
  Params params_;
  Layout layout_;
  mutable std::unordered_map<Key, RoundStats, KeyHash> stats_;
  mutable std::unordered_map<Key, std::vector<int>, KeyHash> sizes_;
};

} // namespace haec::link::resilient
