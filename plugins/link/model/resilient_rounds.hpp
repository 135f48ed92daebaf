// The round structure of one window (DOR_r) or generation (PNC_r, NCD_r) under packet loss, as a
// Markov chain solved exactly. Pure C++.
//
// Protocol rules (MODELS.md §3.2 leaves them open; plugins/link/model/RESILIENT.md explains them):
//  - A round sends k packets back to back. Packet j (0-based) reaches the receiver, if no hop drops
//    it, at a_j = base + j*M after the round starts; its end-to-end ack, if no hop drops it, is back
//    at a_j + A. So an ack for packet j arrives at t_ok(j+1) = base + j*M + A.
//  - The round ends when the sender knows the window is complete (DOR_r: every packet acked;
//    PNC_r/NCD_r: an ack reports full rank), or at the timer RTO(k) = t_ok(k) + margin; then a new
//    round sends what is missing.
//  - DOR_r resends the packets whose ack did not arrive (the receiver re-acks duplicates).
//  - PNC_r: forwarders do not recode. The first round is systematic (the g original packets, always
//    independent); repair combinations are uniformly random over GF(2^8), so one raises the rank r
//    with probability 1 - 256^(r - g). Each ack carries the receiver's rank; the sender keeps the
//    highest rank acked and sends g - known_rank repair combinations per round.
//  - NCD_r: as PNC_r, but each round sends the smallest n >= needed with
//    P(Binomial(n, q_data) >= needed) >= target (needed = g - known_rank; q_data the route's
//    delivery probability, the sender's estimate taken as converged), at most 64*needed + 64.
// The window's time is then linear in the route's timing:
//   E[T_window] = rounds * (base + A) + index_sum * M + (rounds - 1) * margin
// with `rounds` the expected number of rounds and `index_sum` the expected sum over rounds of the
// index j of the packet whose ack ended it (k - 1 for a timed-out round of k packets).
#pragma once
#include "resilient_params.hpp"

#include <cstdint>
#include <random>
#include <vector>

namespace haec::link::resilient {

struct RoundStats {
  double rounds    = 1; // expected rounds per window
  double index_sum = 0; // expected sum of the ending packet index over the rounds
};

// Exact expected values for a window of g packets (1 <= g) over a route that delivers a data
// packet with probability q_data and an ack with probability q_ack (both in (0,1]).
RoundStats expected_rounds(Protocol protocol, int g, double q_data, double q_ack, double ncd_target);

// One draw of (rounds, index_sum) of the same process; `next_unit` returns uniform doubles in [0,1).
struct RoundDraw {
  uint64_t rounds    = 0;
  uint64_t index_sum = 0;
};
// `sizes` is round_sizes(protocol, g, q_data, ncd_target) (computed once per route class).
RoundDraw sample_rounds(Protocol protocol, int g, double q_data, double q_ack, const std::vector<int>& sizes,
                        std::mt19937_64& rng);

// NCD_r's round size for `needed` missing combinations (exposed for tests).
int ncd_round_size(int needed, double q_data, double target);
// Packets a round sends when the sender knows rank k, for k = 0 .. g-1 (DOR_r: g - k outstanding
// at most; the chain tracks the exact count itself).
std::vector<int> round_sizes(Protocol protocol, int g, double q_data, double ncd_target);

// Uniform double in [0,1) from 53 random bits: the same stream on every platform.
inline double unit_draw(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

} // namespace haec::link::resilient
