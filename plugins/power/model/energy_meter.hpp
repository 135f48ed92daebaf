// Exact energy of one host: power is constant between change points (a computation starts or
// ends, the pstate changes, the host is switched on or off), so the meter integrates
// P * (t1 - t0) at each change point, with the state that held before it. No sampling.
// Pure C++: the adapter feeds it the simulated clock.
#pragma once
#include "power_profile.hpp"

#include <map>
#include <vector>

namespace haec::power {

class HostEnergyMeter {
public:
  HostEnergyMeter(HostPowerProfile profile, size_t pstate_count, double start_time = 0);

  // Each call integrates up to `now` with the previous state, then applies the change.
  // A computation's `share` is the fraction of one core it uses (1 for an ordinary one).
  void start_computation(double share, double now);
  void end_computation(double share, double now); // ignored if no such computation runs
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
  HostPowerProfile profile_;
  std::map<double, long> running_; // share -> count: the sum is exact again once they end
  int pstate_ = 0;
  bool on_    = true;
  double last_;
  double energy_ = 0, busy_ = 0, idle_ = 0, off_ = 0;
  std::vector<double> pstate_s_;
};

} // namespace haec::power
