#include "pstate_table.hpp"
#include "input_error.hpp"

#include <algorithm>
#include <cmath>

namespace haec::dvfs {

PstateTable::PstateTable(const HostModel& host, const std::string& what) : host_(host)
{
  const int n = static_cast<int>(host_.speeds.size());
  if (n == 0)
    throw InputError(what, "the host has no pstate", "give the host at least one speed");
  for (double s : host_.speeds)
    if (!(s > 0) || !std::isfinite(s))
      throw InputError(what, "pstate speed " + std::to_string(s) + " is not positive", "give speeds > 0 flop/s");
  if (host_.max_pstate < 0)
    host_.max_pstate = n - 1;
  if (host_.min_pstate < 0 || host_.max_pstate >= n || host_.min_pstate > host_.max_pstate)
    throw InputError(what,
                     "allowed pstate range " + std::to_string(host_.min_pstate) + ".." +
                         std::to_string(host_.max_pstate) + " is outside the host's " + std::to_string(n) +
                         " pstates",
                     "give 0 <= min <= max < " + std::to_string(n));
  if (host_.power.has_profile() && static_cast<int>(host_.power.pstates().size()) != n)
    throw InputError(what,
                     "power profile has " + std::to_string(host_.power.pstates().size()) + " pstates, speeds have " +
                         std::to_string(n),
                     "give one wattage per pstate");
  if (!(host_.busy_cores > 0))
    throw InputError(what, "busy cores must be positive", "give the cores a computation keeps busy, e.g. 1");
  for (int p = host_.min_pstate; p <= host_.max_pstate; ++p)
    order_.push_back(p);
  std::stable_sort(order_.begin(), order_.end(), [this](int a, int b) { return speed(a) > speed(b); });
  level_of_.assign(static_cast<size_t>(n), -1);
  for (size_t l = 0; l < order_.size(); ++l)
    level_of_[static_cast<size_t>(order_[l])] = static_cast<int>(l);
}

int PstateTable::level(int pstate) const
{
  if (pstate < 0 || pstate >= static_cast<int>(level_of_.size()))
    return -1;
  return level_of_[static_cast<size_t>(pstate)];
}

int PstateTable::nearest_allowed(int pstate) const
{
  if (allowed(pstate))
    return pstate;
  const int n = static_cast<int>(level_of_.size());
  const double s = speed(std::clamp(pstate, 0, n - 1));
  int best = fastest();
  for (int p : order_)
    if (std::abs(speed(p) - s) < std::abs(speed(best) - s))
      best = p;
  return best;
}

} // namespace haec::dvfs
