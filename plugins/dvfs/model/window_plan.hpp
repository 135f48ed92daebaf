// The cheapest way to run a computation within a time window on one host: one pstate then idle
// until the window ends, or two pstates that together end exactly with the window (the "mix" of
// docs/MODELS.md §5 that the thesis never reached, 002 §9.5.1). Shared by the mix governor and the
// offline optimum. Exhaustive over the allowed pstates (a dozen: 144 pairs), so it is exact for
// any table, convex or not.
#pragma once
#include "pstate_table.hpp"

namespace haec::dvfs {

struct WindowPlan {
  int first            = -1; // pstate the computation starts at (the slower one of a mix)
  double first_seconds = 0;
  int second           = -1; // -1: no second part; else the faster pstate after first_seconds
  double second_seconds = 0;
  double energy        = 0;    // joules over the window: busy parts, then idle at the last pstate
  bool fits            = true; // false: even the fastest pstate overruns the window (energy: busy only)
  double busy_seconds() const { return first_seconds + second_seconds; }
};

struct WindowOptions {
  bool allow_mix       = true;
  double switch_energy = 0; // joules charged to a mix for its extra switch
  double min_segment   = 0; // seconds: a mix whose shorter part is shorter is not considered
};

// `flops` of work in `window` seconds. Ties go to the single pstate, then to the faster one (fewer
// switches, earlier finish). Power comes from the table's profile at its busy_cores.
WindowPlan cheapest_plan(const PstateTable& table, double flops, double window, const WindowOptions& options = {});

} // namespace haec::dvfs
