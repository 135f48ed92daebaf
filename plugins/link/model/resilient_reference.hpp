// Packet-level reference simulator of DOR_r, PNC_r and NCD_r, written apart from the fast model
// (resilient_model.hpp) to check it: it derives its own layout and delays from Params, moves every
// packet through every link (a FIFO link per hop, store-and-forward, a loss draw per hop), sends an
// acknowledgment per received packet back hop by hop (a loss draw per hop), decodes PNC_r/NCD_r
// generations by real Gaussian elimination over GF(2^8) on random coefficient vectors, and runs the
// sender's timer. The protocol rules are those of resilient_rounds.hpp (RESILIENT.md). Seeded and
// deterministic for a seed. Pure C++.
#pragma once
#include "resilient_model.hpp" // Hop, Params, Protocol (types only)

#include <cstdint>
#include <random>

namespace haec::link::resilient {

class Reference {
public:
  Reference(Protocol protocol, Params params); // throws haec::InputError on bad parameters

  // One message: its transfer time including d_mpi.
  double simulate_once(uint64_t message_bytes, const Hop* hops, size_t h, std::mt19937_64& rng) const;

  struct Estimate {
    double mean      = 0;
    double ci95_half = 0; // half-width of the 95 % confidence interval of the mean
    uint64_t reps    = 0;
  };
  // Repeats until the CI half-width is at most rel_ci * mean (after min_reps) or max_reps.
  Estimate estimate(uint64_t message_bytes, const Hop* hops, size_t h, uint64_t seed, double rel_ci,
                    uint64_t min_reps, uint64_t max_reps) const;

private:
  struct Route; // per-message constants: delays, delivery probability, timer values
  double window(int g, Route& route, std::mt19937_64& rng) const;
  double ncd_size(int needed, double q) const;
  double loss_free_last(Route& route, int k) const;    // the retransmission timer of k packets
  int coded_round_size(int needed, Route& route) const; // combinations a coded round sends

  Protocol protocol_;
  Params p_;
  double payload_, ack_, d_s_, d_r_, d_a_;
};

} // namespace haec::link::resilient
