// What a node can do and how long a plan keeps it busy (MODELS.md §6, "capacity"). Pure C++.
//
// A node has `cores` cores, each computing `speed` flop/s at its current pstate. Its ranks share
// min(ranks, cores) cores, and no rank runs faster than one core, so the node needs
//     T = max( sum of its ranks' loads / (min(ranks, cores) x speed),  heaviest load / speed ).
// With more cores than ranks every rank has a core of its own: T is its heaviest rank's time and
// moving ranks between equal nodes gains nothing. On a single core T = sum / speed (as before).
#pragma once
#include "balance_strategies.hpp"

#include <vector>

namespace haec::balance {

// Seconds node `n` needs for `work` flops of `ranks` ranks, the heaviest `heaviest` flops.
double node_time(double work, double heaviest, int ranks, const NodeCapacity& node);

// Predicted time of every node under `assignment` (node of each rank, same order as `ranks`).
std::vector<double> node_times(const std::vector<RankLoad>& ranks, const std::vector<int>& assignment,
                               const std::vector<NodeCapacity>& nodes);

// The slowest node's time: what the next window would take if the loads repeat.
double predicted_makespan(const std::vector<RankLoad>& ranks, const std::vector<int>& assignment,
                          const std::vector<NodeCapacity>& nodes);

// Whether a plan is worth its migrations.
struct PlanVerdict {
  double makespan_before = 0; // predicted, current assignment (s)
  double makespan_after  = 0; // predicted, planned assignment (s)
  double migration_cost  = 0; // s, see migration_cost()
  int moves              = 0;
  bool execute           = false; // makespan_before - makespan_after > migration_cost
};

// Migrations run concurrently, but those leaving or entering the same node share its link: the
// plan's cost is the busiest node's sum of its moves' costs (move_cost[i] for rank i; 0 if it
// stays).
double migration_cost(const std::vector<RankLoad>& ranks, const std::vector<int>& plan,
                      const std::vector<double>& move_cost, int nodes);

PlanVerdict judge_plan(const std::vector<RankLoad>& ranks, const std::vector<int>& plan,
                       const std::vector<NodeCapacity>& nodes, const std::vector<double>& move_cost);

} // namespace haec::balance
