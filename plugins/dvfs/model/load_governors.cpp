#include "load_governors.hpp"

namespace haec::dvfs {

FixedGovernor::FixedGovernor(std::string name, PstateTable table, bool fastest)
    : Governor(std::move(name), std::move(table)), pstate_(fastest ? table_.fastest() : table_.slowest())
{
}

OndemandGovernor::OndemandGovernor(PstateTable table, double up_threshold)
    : Governor("ondemand", std::move(table)), up_(up_threshold)
{
}

int OndemandGovernor::target(double load) const
{
  if (load > up_)
    return table_.fastest();
  const double lo = table_.speed(table_.slowest());
  const double want = lo + load * (table_.fastest_speed() - lo);
  // Slowest allowed pstate whose speed reaches `want` (a hair of tolerance: 0.5 of a uniform
  // table must land on its pstate, not one above through rounding).
  for (int l = table_.levels() - 1; l >= 0; --l)
    if (table_.speed(table_.pstate(l)) >= want * (1 - 1e-12))
      return table_.pstate(l);
  return table_.fastest();
}

Plan OndemandGovernor::on_sample(double load)
{
  return set(target(load));
}

ConservativeGovernor::ConservativeGovernor(PstateTable table, double up_threshold, double down_threshold)
    : Governor("conservative", std::move(table)), up_(up_threshold), down_(down_threshold)
{
}

Plan ConservativeGovernor::on_sample(double load)
{
  const int l = current_level();
  if (load > up_)
    return set(table_.pstate(l > 0 ? l - 1 : 0));
  if (load < down_)
    return set(table_.pstate(l + 1 < table_.levels() ? l + 1 : l));
  return {};
}

} // namespace haec::dvfs
