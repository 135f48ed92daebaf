// The offline optimum (MODELS.md §5, "open for us"): the least energy the hosts could spend
// without lengthening any iteration, given what a performance run measured. Per host h and
// iteration i: c = compute seconds at the fastest pstate, D = iteration duration, slack = seconds
// the host waited for others. Any plan whose computation ends within c + slack delays no one;
// the rest of the iteration is idle (at the pstate last used). Three bounds, loosest last:
//   static     one pstate per host for the whole run (fits every iteration),
//   single     the best pstate per iteration,
//   mix        the best one- or two-pstate plan per iteration (window_plan.hpp).
// Energies are those of the computation windows and idle times: network and switches excluded.
#pragma once
#include "pstate_table.hpp"

#include <vector>

namespace haec::dvfs {

struct OfflineIteration {
  double compute_s = 0; // at the fastest allowed pstate
  double duration  = 0; // of the iteration in the performance run
  double slack     = 0; // seconds the host waited (may exceed duration - compute_s by rounding: clamped)
};

struct OfflineResult {
  double performance_j = 0; // every iteration at the fastest pstate
  double static_j      = 0;
  double single_j      = 0;
  double mix_j         = 0;
  std::vector<int> static_pstate;               // by host
  std::vector<std::vector<int>> single_pstate;  // [host][iteration]
  double saving(double energy) const { return performance_j > 0 ? 1 - energy / performance_j : 0; }
};

// hosts[h] prices host h (its profile, busy_cores and allowed range); iterations[h][i].
// Throws haec::InputError when a host has no power profile or an input is negative.
OfflineResult offline_optimum(const std::vector<PstateTable>& hosts,
                              const std::vector<std::vector<OfflineIteration>>& iterations);

} // namespace haec::dvfs
