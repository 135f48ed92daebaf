// The least-energy plan of a few iterations' computations (lagrange_plan): the linear
// program of scripts/dvfs_float_lp.py over a small graph, solved with GLPK. Pure C++.
//
//   minimise  sum_k sum_l y[k,l] extra_watts_l
//   s.t.      sum_l y[k,l] / seconds_per_work_l = work_k     (every computation does its work)
//             s_to >= s_from + sum_l y[from,l] + delay        (messages; a rank's next computation)
//             s_k >= earliest_k,  s_k + sum_l y[k,l] <= due_k,  y >= 0
//             sum_l y[k,l] = fixed_k                          (a computation already under way)
//
// y[k,l]: seconds computation k spends at level l (any mix: switches are free), s_k its start.
#pragma once
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

namespace haec::dvfs {

struct PlanLevel {
  double seconds_per_work; // seconds per second of work at the fastest level (fastest: 1)
  double extra_watts;      // busy power minus the idle power the rank pays anyway
};

struct PlanTask {
  size_t rank     = 0; // index into PlanProblem::levels
  double work     = 0; // seconds at the fastest level
  double earliest = 0;
  double due      = std::numeric_limits<double>::infinity();
  double fixed    = -1; // seconds it takes, when already decided (< 0: free)
  int stage       = 0;  // progressive filling (plan_fill.hpp): lower stages take their float first
};

struct PlanEdge {
  size_t from = 0, to = 0;
  double delay = 0;
};

struct PlanProblem {
  std::vector<std::vector<PlanLevel>> levels; // by rank, fastest first
  std::vector<PlanTask> tasks;
  std::vector<PlanEdge> edges;
};

// Seconds at each level of every task, or nothing when no plan meets the constraints.
std::optional<std::vector<std::vector<double>>> solve_plan(const PlanProblem& problem);

} // namespace haec::dvfs
