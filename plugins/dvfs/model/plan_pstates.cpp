#include "plan_pstates.hpp"

namespace haec::dvfs {

std::vector<PlanLevel> plan_levels(const PstateTable& table)
{
  std::vector<PlanLevel> levels;
  for (int l = 0; l < table.levels(); ++l) {
    const int p = table.pstate(l);
    levels.push_back(PlanLevel{table.fastest_speed() / table.speed(p), table.busy_watts(p) - table.idle_watts(table.fastest())});
  }
  return levels;
}

Plan as_plan(const WindowPlan& w)
{
  return Plan{w.first, w.second >= 0 ? w.first_seconds : 0, w.second};
}

Plan stretched_plan(const PstateTable& table, double flops, double stretch)
{
  if (!(stretch > 1) || !(flops > 0))
    return Plan{table.fastest(), 0, -1};
  return as_plan(cheapest_plan(table, flops, stretch * flops / table.fastest_speed()));
}

} // namespace haec::dvfs
