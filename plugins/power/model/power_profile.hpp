// What a host draws, per pstate: the multicore linear power model (thesis 002 §8.2, Eq. 8.3) in
// SimGrid 3.32's own parameterisation. Pure C++: no SimGrid include.
//
//   P = P_off                                   host off
//   P = idle                                    on, no computation running (C-states)
//   P = epsilon + u * (all_cores - epsilon)     on, u = min(cores, busy cores) / cores > 0
//
// epsilon is P_static (0 busy cores but not idle), all_cores - epsilon is P_dynamic.
//
// Sockets (optional, haec:sockets = S > 1): the cores form S equal sockets, filled one after
// the other; each socket awake beyond the first adds `socket` watts (the thesis's 6 -> 7 cores
// jump of about 5 W on taurus). The linear part gives way to the steps so the calibrated
// end points stay: P(all cores) = all_cores and, for the calibration form, P(1 core) = one_core:
//   P = epsilon + u * slope + (awake - 1) * socket,   slope = all_cores - epsilon - (S - 1) * socket,
//   awake = ceil(min(cores, busy) / (cores / S)).
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace haec::power {

struct PstatePower {
  double idle      = 0;
  double epsilon   = 0; // P_static
  double all_cores = 0;
  double slope     = 0; // all_cores - epsilon, kept as SimGrid keeps it (same rounding); less the socket steps
  double socket    = 0; // watts per socket awake beyond the first (0: no sockets)
};

// Builds a pstate from SimGrid's three values (idle:epsilon:all_cores).
PstatePower from_simgrid(double idle, double epsilon, double all_cores, int sockets = 1, double socket_w = 0);
// Builds a pstate from the thesis's calibration runs (idle:one_core:all_cores) on `cores` cores:
// P_dynamic = (PN - P1) * n / (n - 1), epsilon = PN - P_dynamic (so P(1/n) = P1, P(1) = PN).
// With S sockets: P_dynamic = (PN - P1 - (S - 1) * socket) * n / (n - 1).
PstatePower from_calibration(double idle, double one_core, double all_cores, int cores, int sockets = 1,
                             double socket_w = 0);

class HostPowerProfile {
public:
  HostPowerProfile() = default;
  HostPowerProfile(std::vector<PstatePower> pstates, double off_watts, int cores, int sockets = 1);

  // False when the host carries no power property: it then draws 0 W, as in SimGrid.
  bool has_profile() const { return !pstates_.empty(); }
  int cores() const { return cores_; }
  int sockets() const { return sockets_; }
  double off_watts() const { return off_; }
  const std::vector<PstatePower>& pstates() const { return pstates_; }

  // Power at `pstate` with `busy_cores` computations' worth of CPU demand (each computation
  // counts its core share, 1 for an ordinary one). Host on; see off_watts() for off.
  double watts(int pstate, double busy_cores) const;
  // The same with the linear slope of a workload (workloads.hpp) instead of the pstate's own.
  double watts(int pstate, double busy_cores, double slope) const;

private:
  std::vector<PstatePower> pstates_;
  double off_ = 0;
  int cores_  = 1;
  int sockets_ = 1;
};

// A host's property, or nullptr when it has none.
using PropertyLookup = std::function<const char*(const std::string& name)>;

// Reads the host's power properties:
//   wattage_per_state   SimGrid 3.32: "idle:epsilon:all_cores" (or "idle:all_cores", epsilon = idle)
//                       per pstate, comma separated
//   haec:wattage_calibration  the thesis form "idle:one_core:all_cores" per pstate
//   wattage_off         watts when off (default 0)
//   haec:sockets        number of sockets S (default 1); S > 1 needs haec:socket_wattage and
//                       must divide the core count
//   haec:socket_wattage watts per extra awake socket: one value, or one per pstate (comma separated)
// Throws haec::InputError naming the host and the property for: the old names watt_per_state /
// watt_off (SimGrid 3.32 ignores them silently), both forms given, a count that differs from
// `pstate_count`, a non-numeric or negative value, all_cores below idle or epsilon, a
// calibration on a single core, sockets that do not divide the cores, socket steps larger than
// the dynamic range. Without any property: an empty profile (0 W).
HostPowerProfile parse_host_power(const std::string& host, const PropertyLookup& property, size_t pstate_count,
                                  int cores);

} // namespace haec::power
