// Counter-based node power (docs/MODELS.md §9), per pstate p:
//
//   P = P_static[p] + sum_k c_k[p] * rate_k
//
// with rate_k the node's rate of hardware event k (events per second), summed over the
// computations running on its cores at that moment. A computation carries its counts over the
// burst (PAPI); its rate of event k is count_k / duration. Its duration is the simulated one, so
// the rate is taken per flop and scaled by the speed the computation gets now:
//
//   rate_k(computation) = count_k / flops * speed[p] * min(1, cores / running)
//
// which equals count_k / duration for a computation running alone on its core at one pstate, and
// follows pstate changes and oversubscribed cores without knowing the duration in advance.
// Pure C++: no SimGrid include.
#pragma once
#include <cstdint>
#include <string>
#include <map>
#include <vector>

namespace haec::power {

// The coefficients file (JSON, written by `haec calibrate power --counters`):
//   {"events": ["PAPI_TOT_INS", "PAPI_L3_TCM"],
//    "pstates": [{"p_static": 92.75, "coefficients": [2.1e-9, 3.0e-7]}, ...],
//    "fit": {...}}                        optional, what the fit measured (not read)
// coefficients[k] is W per (event k per second), in the order of "events"; pstates fastest first.
struct CounterPstate {
  double p_static = 0;
  std::vector<double> coefficients;
};

class CounterCoefficients {
public:
  CounterCoefficients() = default;
  CounterCoefficients(std::vector<std::string> events, std::vector<CounterPstate> pstates);

  // Throws haec::InputError naming `file`: invalid JSON, unknown keys, no or repeated events, a
  // coefficient list of the wrong length, a negative or non-finite value, no pstates.
  static CounterCoefficients parse(const std::string& json_text, const std::string& file);
  // The file's text; `fit_json` (a JSON object's text, or "") goes under "fit".
  std::string to_json(const std::string& fit_json = "") const;

  const std::vector<std::string>& events() const { return events_; }
  const std::vector<CounterPstate>& pstates() const { return pstates_; }
  int index_of(const std::string& event) const; // -1 when not an event of the file

  // P_static + sum_k c_k * rates[k] at `pstate` (rates in the order of events()).
  double watts(size_t pstate, const std::vector<double>& rates) const;

private:
  std::vector<std::string> events_;
  std::vector<CounterPstate> pstates_;
};

// For each event the run's computations count (run_events[i]), its index in `coefficients`. Every
// event must be priced and every coefficient must have its event: a missing one would silently
// drop its share of the power. Throws haec::InputError naming `file` otherwise.
std::vector<size_t> match_events(const CounterCoefficients& coefficients, const std::vector<std::string>& run_events,
                                 const std::string& file);

// The computations running on one node and the power they draw under the counter model.
class CounterNodePower {
public:
  // speed_per_pstate: the node's flop/s per core at each pstate; cores > 0.
  CounterNodePower(CounterCoefficients coefficients, std::vector<double> speed_per_pstate, int cores);

  // counts_per_flop[k]: the computation's count of event k (in the coefficients' order) / its flops.
  void start(uint64_t id, std::vector<double> counts_per_flop);
  void end(uint64_t id); // ignored for an id not running
  size_t running() const { return running_.size(); }

  std::vector<double> rates(size_t pstate) const; // the node's rate of each event now
  double watts(size_t pstate) const;              // the model's power now
  const CounterCoefficients& coefficients() const { return coefficients_; }

private:
  CounterCoefficients coefficients_;
  std::vector<double> speed_;
  int cores_;
  std::map<uint64_t, std::vector<double>> running_; // ordered: the sums' order does not depend on hashing
};

} // namespace haec::power
