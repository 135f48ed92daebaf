// A host as the governors see it: its pstates' speeds and power, restricted to the allowed index
// range and ordered by speed (level 0 = fastest). SimGrid lists pstate 0 as the fastest, but
// nothing here relies on it: the order comes from the speeds. Pure C++.
#pragma once
#include "power_profile.hpp"

#include <string>
#include <vector>

namespace haec::dvfs {

struct HostModel {
  std::vector<double> speeds;     // flop/s of each pstate, by pstate index, any order
  power::HostPowerProfile power;  // may be empty (no wattage): the energy-aware governors refuse it
  int min_pstate = 0;             // allowed pstate indices: min_pstate..max_pstate (inclusive)
  int max_pstate = -1;            // -1: the last pstate
  double busy_cores = 1;          // CPU demand of one running computation, to price busy time
};

class PstateTable {
public:
  // Throws haec::InputError naming `what`: no speeds, a speed <= 0, a range outside the table, a
  // power profile with another pstate count, busy_cores <= 0.
  PstateTable(const HostModel& host, const std::string& what);

  int levels() const { return static_cast<int>(order_.size()); }
  int pstate(int level) const { return order_[static_cast<size_t>(level)]; } // level 0: fastest allowed
  int level(int pstate) const;                                              // -1: not allowed
  int fastest() const { return order_.front(); }
  int slowest() const { return order_.back(); }
  bool allowed(int pstate) const { return level(pstate) >= 0; }
  double speed(int pstate) const { return host_.speeds[static_cast<size_t>(pstate)]; }
  double fastest_speed() const { return speed(fastest()); }
  // The allowed pstate closest to `pstate` in speed (an outside index is clamped to the range).
  int nearest_allowed(int pstate) const;

  bool has_power() const { return host_.power.has_profile(); }
  double busy_watts(int pstate) const { return host_.power.watts(pstate, host_.busy_cores); }
  double idle_watts(int pstate) const { return host_.power.watts(pstate, 0); }
  const HostModel& host() const { return host_; }

private:
  HostModel host_;
  std::vector<int> order_;     // allowed pstates, fastest first (ties: lower index first)
  std::vector<int> level_of_;  // by pstate index, -1 outside the range
};

} // namespace haec::dvfs
