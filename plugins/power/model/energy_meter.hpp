// Exact energy of one host: power is constant between change points (a computation starts or
// ends, the pstate changes, the host is switched on or off), so the meter integrates
// P * (t1 - t0) at each change point, with the state that held before it. No sampling.
// Pure C++: the adapter feeds it the simulated clock.
#pragma once
#include "counter_model.hpp"
#include "power_profile.hpp"

#include <boost/container/flat_map.hpp>

#include <map>
#include <optional>
#include <vector>

namespace haec::power {

class HostEnergyMeter {
public:
  HostEnergyMeter(HostPowerProfile profile, size_t pstate_count, double start_time = 0);

  // A workload phase with its own P_dynamic: its linear slope per pstate (workloads.hpp).
  // Returns its id for start/end_computation; workload 0 is the host's own model.
  int add_workload(std::vector<double> slope_per_pstate);

  // Each call integrates up to `now` with the previous state, then applies the change.
  // A computation's `share` is the fraction of one core it uses (1 for an ordinary one).
  void start_computation(double share, double now, int workload = 0);
  void end_computation(double share, double now, int workload = 0); // ignored if no such computation runs
  // Counter-based power (counter_model.hpp): from now on the host draws P_static + sum_k c_k rate_k
  // while on, the linear profile giving only its off power. Computations priced by their counters
  // start and end with start_counted / end_counted (each also counts one busy core).
  void use_counter_model(CounterNodePower node) { counters_.emplace(std::move(node)); }
  void start_counted(uint64_t id, std::vector<double> counts_per_flop, double now);
  void end_counted(uint64_t id, double now);
  void set_pstate(int pstate, double now);
  void set_on(bool on, double now);
  void advance(double now); // integrate up to now, nothing changes

  double energy_j() const { return energy_; }
  double busy_s() const { return busy_; }  // on, with a non-zero CPU demand
  double idle_s() const { return idle_; }  // on, no CPU demand (idle power)
  double off_s() const { return off_; }
  const std::vector<double>& pstate_s() const { return pstate_s_; } // time on, per pstate
  double now() const { return last_; }
  double watts() const;        // power in the current state
  double busy_cores() const;   // sum of the running computations' shares
  int pstate() const { return pstate_; }
  bool on() const { return on_; }
  const HostPowerProfile& profile() const { return profile_; }

private:
  double slope_now() const; // the running computations' slope: one workload's own, or the share-weighted mean

  HostPowerProfile profile_;
  std::optional<CounterNodePower> counters_;
  // (workload, share) -> count: sums are exact again once they end. Ordered, and flat: a host runs
  // one or two kinds at a time, and a node-based map allocated a node per computation.
  boost::container::flat_map<std::pair<int, double>, long> running_;
  std::vector<std::vector<double>> workload_slopes_; // [workload - 1][pstate]
  int pstate_ = 0;
  bool on_    = true;
  double last_;
  double energy_ = 0, busy_ = 0, idle_ = 0, off_ = 0;
  std::vector<double> pstate_s_;
};

} // namespace haec::power
