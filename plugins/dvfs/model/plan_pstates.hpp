// Between the coordinated plan (plan_lp.hpp, plan_horizon.hpp) and a host's pstates: the levels
// the plan prices, and the pstates that run a computation for the seconds the plan gave it. Pure C++.
#pragma once
#include "governor.hpp"
#include "plan_lp.hpp"
#include "pstate_table.hpp"
#include "window_plan.hpp"

#include <vector>

namespace haec::dvfs {

// Each allowed level, fastest first: seconds per second of work at the fastest, and busy watts
// beyond the idle watts the host pays anyway at its fastest pstate.
std::vector<PlanLevel> plan_levels(const PstateTable& table);

// A window plan as the governor interface's Plan (its first part timed only when a second follows).
Plan as_plan(const WindowPlan& w);

// `flops` run for `stretch` times their racing seconds, at the cheapest one- or two-pstate plan of
// that length; the fastest pstate when stretch <= 1 or there is no work.
Plan stretched_plan(const PstateTable& table, double flops, double stretch);

} // namespace haec::dvfs
