#include "window_plan.hpp"

namespace haec::dvfs {

WindowPlan cheapest_plan(const PstateTable& table, double flops, double window, const WindowOptions& options)
{
  WindowPlan best;
  const int fast = table.fastest();
  const double race = flops / table.speed(fast);
  if (!(race <= window)) { // nothing fits: race, the least late
    best.first         = fast;
    best.first_seconds = race;
    best.energy        = race * table.busy_watts(fast);
    best.fits          = false;
    return best;
  }
  // Relative tolerance so that rounding never prefers a switch for nothing.
  auto better = [](double e, double than) { return e < than - 1e-12 * (than > 0 ? than : -than); };
  bool have = false;
  for (int l = 0; l < table.levels(); ++l) { // single pstate, then idle
    const int p   = table.pstate(l);
    const double t = flops / table.speed(p);
    if (t > window)
      continue;
    const double e = t * table.busy_watts(p) + (window - t) * table.idle_watts(p);
    if (!have || better(e, best.energy)) {
      best = WindowPlan{p, t, -1, 0, e, true};
      have = true;
    }
  }
  if (!options.allow_mix)
    return best;
  const double v = flops / window; // the average speed that ends exactly with the window
  for (int la = 0; la < table.levels(); ++la) {
    const int a = table.pstate(la);
    const double sa = table.speed(a);
    if (!(sa < v))
      continue;
    for (int lb = 0; lb < table.levels(); ++lb) {
      const int b = table.pstate(lb);
      const double sb = table.speed(b);
      if (!(sb > v))
        continue;
      // sa*ta + sb*tb = flops, ta + tb = window
      const double tb = (flops - sa * window) / (sb - sa);
      const double ta = window - tb;
      if (ta < options.min_segment || tb < options.min_segment || ta <= 0 || tb <= 0)
        continue;
      const double e = ta * table.busy_watts(a) + tb * table.busy_watts(b) + options.switch_energy;
      if (better(e, best.energy))
        best = WindowPlan{a, ta, b, tb, e, true};
    }
  }
  return best;
}

} // namespace haec::dvfs
