#include "offline_optimum.hpp"
#include "input_error.hpp"
#include "window_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace haec::dvfs {
namespace {

// A computation of `race` seconds at the fastest pstate, run at `p` inside a window, then idle
// until the iteration ends. Infinite if it does not fit the window.
double single_energy(const PstateTable& t, int p, double race, double window, double duration)
{
  const double busy = race * t.fastest_speed() / t.speed(p);
  if (busy > window * (1 + 1e-12))
    return std::numeric_limits<double>::infinity();
  return busy * t.busy_watts(p) + std::max(0.0, duration - busy) * t.idle_watts(p);
}

} // namespace

OfflineResult offline_optimum(const std::vector<PstateTable>& hosts,
                              const std::vector<std::vector<OfflineIteration>>& iterations)
{
  if (hosts.size() != iterations.size())
    throw InputError("offline optimum", "hosts and iteration tables differ in count", "give one table per host");
  OfflineResult r;
  r.single_pstate.resize(hosts.size());
  for (size_t h = 0; h < hosts.size(); ++h) {
    const PstateTable& t = hosts[h];
    if (!t.has_power())
      throw InputError("offline optimum", "host " + std::to_string(h) + " has no power profile",
                       "give the host wattage_per_state");
    const int fast = t.fastest();
    std::vector<double> static_sum(static_cast<size_t>(t.levels()), 0.0);
    for (auto const& it : iterations[h]) {
      if (!(it.compute_s >= 0) || !(it.duration >= 0) || !(it.slack >= 0))
        throw InputError("offline optimum", "negative compute, duration or slack", "give measured values");
      const double c = it.compute_s;
      const double d = std::max(it.duration, c);
      const double window = c + std::min(it.slack, d - c);
      r.performance_j += single_energy(t, fast, c, window, d);
      double best = std::numeric_limits<double>::infinity();
      int best_p  = fast;
      for (int l = 0; l < t.levels(); ++l) {
        const int p = t.pstate(l);
        const double e = single_energy(t, p, c, window, d);
        static_sum[static_cast<size_t>(l)] += e;
        if (e < best) {
          best   = e;
          best_p = p;
        }
      }
      r.single_j += best;
      r.single_pstate[h].push_back(best_p);
      const WindowPlan w = cheapest_plan(t, c * t.fastest_speed(), window);
      const int last = w.second >= 0 ? w.second : w.first;
      r.mix_j += std::min(best, w.energy + (d - window) * t.idle_watts(last));
    }
    const auto smin = std::min_element(static_sum.begin(), static_sum.end());
    r.static_j += *smin;
    r.static_pstate.push_back(t.pstate(static_cast<int>(smin - static_sum.begin())));
  }
  return r;
}

} // namespace haec::dvfs
