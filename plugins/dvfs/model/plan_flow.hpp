// The coordinated plan's program (plan_lp.hpp) solved exactly through its dual, a minimum-cost
// circulation (LEMON's network simplex; lagrange_plan_solver=flow, the default). Pure C++.
//
// The program is a project schedule with convex time-cost curves: times p(v) of events (S, the
// origin; a_k and b_k, the start and end of task k) and, for every task, a cost of its duration
// t_k = p(b_k) - p(a_k) that is the least busy energy of its work w_k run in t_k seconds:
//   c_k(t) = w_k g(t / w_k),  g the lower convex hull of the levels' (seconds per work,
//   energy per work), down to its least (the cheapest stretch: slower costs more, never used).
// With the hull's points sigma_0 = 1 < ... < sigma_m and slopes s_1 < ... < s_m < 0 (watts),
//   c_k(t) = c_k(w_k sigma_m) + sum_i beta_i max(0, w_k sigma_i - t),
//   beta_i = s_{i+1} - s_i (i < m), beta_m = -s_m.
// A minimum-cost flow (costs c, capacities U, no supplies) has as its dual
//   min over p of  sum_arcs U_uv max(0, p(v) - p(u) - c_uv),
// so each term of the program is an arc (an infinite capacity is a hard constraint p(v) - p(u) <= c):
//   t_k >= w_k:            b_k -> a_k, cost -w_k, capacity infinite (fixed: -fixed; and
//   t_k <= w_k sigma_m:    a_k -> b_k, cost w_k sigma_m           ... +fixed)
//   beta_i max(0, w_k sigma_i - t_k): b_k -> a_k, cost -w_k sigma_i, capacity beta_i
//   message or the rank's next computation, p(a_to) - p(b_from) >= delay: a_to -> b_from, cost -delay
//   p(a_k) - p(S) >= earliest: a_k -> S, cost -earliest;  p(b_k) - p(S) <= due: S -> b_k, cost due.
// The node potentials of the optimal circulation are the optimal times (LEMON's reduced cost is
// c_uv + p(u) - p(v)); a negative cycle of infinite capacity (UNBOUNDED) is a due that cannot be met.
// LEMON wants integers: times are counted in quanta of the horizon's span / 1e9 from its earliest
// start, watts in quanta of the largest slope / 1e4 (see plan_flow.cpp for the bound on the sums).
#pragma once
#include "plan_lp.hpp"

#include <optional>
#include <vector>

namespace haec::dvfs {

// A point of the energy curve of a second of work: seconds it takes, joules it costs (beyond idle).
struct CurvePoint {
  double stretch, energy;
};

// The lower convex hull of the levels' (seconds per work, energy per second of work), from the
// fastest level to the cheapest one (decreasing energy); one point when no slower level is cheaper.
std::vector<CurvePoint> energy_curve(const std::vector<PlanLevel>& levels);

// Seconds every task takes (its `fixed` seconds when fixed), or nothing when a due cannot be met
// even with every computation racing.
std::optional<std::vector<double>> flow_plan(const PlanProblem& problem);

// The energy beyond idle of `work` seconds of work run in `seconds` on the curve (the program's
// price); `seconds` below the work or beyond the curve's last point are priced at its ends.
double curve_energy(const std::vector<CurvePoint>& curve, double work, double seconds);

} // namespace haec::dvfs
