#include "node_capacity.hpp"

#include <algorithm>

namespace haec::balance {

double node_time(double work, double heaviest, int ranks, const NodeCapacity& node)
{
  if (ranks <= 0 || !(work > 0))
    return 0;
  const int busy_cores = std::min(ranks, node.cores);
  return std::max(work / (busy_cores * node.speed), heaviest / node.speed);
}

std::vector<double> node_times(const std::vector<RankLoad>& ranks, const std::vector<int>& assignment,
                               const std::vector<NodeCapacity>& nodes)
{
  const size_t n = nodes.size();
  std::vector<double> work(n, 0.0), heaviest(n, 0.0);
  std::vector<int> count(n, 0);
  for (size_t i = 0; i < ranks.size(); ++i) {
    const auto at = static_cast<size_t>(assignment.at(i));
    work.at(at) += ranks[i].load;
    heaviest[at] = std::max(heaviest[at], ranks[i].load);
    ++count[at];
  }
  std::vector<double> t(n);
  for (size_t k = 0; k < n; ++k)
    t[k] = node_time(work[k], heaviest[k], count[k], nodes[k]);
  return t;
}

double predicted_makespan(const std::vector<RankLoad>& ranks, const std::vector<int>& assignment,
                          const std::vector<NodeCapacity>& nodes)
{
  const auto t = node_times(ranks, assignment, nodes);
  return t.empty() ? 0 : *std::max_element(t.begin(), t.end());
}

double migration_cost(const std::vector<RankLoad>& ranks, const std::vector<int>& plan,
                      const std::vector<double>& move_cost, int nodes)
{
  std::vector<double> busy(static_cast<size_t>(nodes), 0.0);
  for (size_t i = 0; i < ranks.size(); ++i)
    if (plan.at(i) != ranks[i].node) {
      busy.at(static_cast<size_t>(ranks[i].node)) += move_cost.at(i);
      busy.at(static_cast<size_t>(plan[i])) += move_cost[i];
    }
  return busy.empty() ? 0 : *std::max_element(busy.begin(), busy.end());
}

PlanVerdict judge_plan(const std::vector<RankLoad>& ranks, const std::vector<int>& plan,
                       const std::vector<NodeCapacity>& nodes, const std::vector<double>& move_cost)
{
  PlanVerdict v;
  std::vector<int> now(ranks.size());
  for (size_t i = 0; i < ranks.size(); ++i) {
    now[i] = ranks[i].node;
    v.moves += plan.at(i) != now[i];
  }
  v.makespan_before = predicted_makespan(ranks, now, nodes);
  v.makespan_after  = predicted_makespan(ranks, plan, nodes);
  v.migration_cost  = migration_cost(ranks, plan, move_cost, static_cast<int>(nodes.size()));
  v.execute         = v.moves > 0 && v.makespan_before - v.makespan_after > v.migration_cost;
  return v;
}

} // namespace haec::balance
