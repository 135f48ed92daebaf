// What a host draws, per pstate: the multicore linear power model (thesis 002 §8.2, Eq. 8.3) in
// SimGrid 3.32's own parameterisation. Pure C++: no SimGrid include.
//
//   P = P_off                                   host off
//   P = idle                                    on, no computation running (C-states)
//   P = epsilon + u * (all_cores - epsilon)     on, u = min(cores, busy cores) / cores > 0
//
// epsilon is P_static (0 busy cores but not idle), all_cores - epsilon is P_dynamic.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace haec::power {

struct PstatePower {
  double idle      = 0;
  double epsilon   = 0; // P_static
  double all_cores = 0;
  double slope     = 0; // all_cores - epsilon, kept as SimGrid keeps it (same rounding)
};

// Builds a pstate from SimGrid's three values (idle:epsilon:all_cores).
PstatePower from_simgrid(double idle, double epsilon, double all_cores);
// Builds a pstate from the thesis's calibration runs (idle:one_core:all_cores) on `cores` cores:
// P_dynamic = (PN - P1) * n / (n - 1), epsilon = PN - P_dynamic (so P(1/n) = P1, P(1) = PN).
PstatePower from_calibration(double idle, double one_core, double all_cores, int cores);

class HostPowerProfile {
public:
  HostPowerProfile() = default;
  HostPowerProfile(std::vector<PstatePower> pstates, double off_watts, int cores);

  // False when the host carries no power property: it then draws 0 W, as in SimGrid.
  bool has_profile() const { return !pstates_.empty(); }
  int cores() const { return cores_; }
  double off_watts() const { return off_; }
  const std::vector<PstatePower>& pstates() const { return pstates_; }

  // Power at `pstate` with `busy_cores` computations' worth of CPU demand (each computation
  // counts its core share, 1 for an ordinary one). Host on; see off_watts() for off.
  double watts(int pstate, double busy_cores) const;

private:
  std::vector<PstatePower> pstates_;
  double off_ = 0;
  int cores_  = 1;
};

// A host's property, or nullptr when it has none.
using PropertyLookup = std::function<const char*(const std::string& name)>;

// Reads the host's power properties:
//   wattage_per_state   SimGrid 3.32: "idle:epsilon:all_cores" (or "idle:all_cores", epsilon = idle)
//                       per pstate, comma separated
//   haec:wattage_calibration  the thesis form "idle:one_core:all_cores" per pstate
//   wattage_off         watts when off (default 0)
// Throws haec::InputError naming the host and the property for: the old names watt_per_state /
// watt_off (SimGrid 3.32 ignores them silently), both forms given, a count that differs from
// `pstate_count`, a non-numeric or negative value, all_cores below idle or epsilon, and a
// calibration on a single core. Without any property: an empty profile (0 W).
HostPowerProfile parse_host_power(const std::string& host, const PropertyLookup& property, size_t pstate_count,
                                  int cores);

} // namespace haec::power
