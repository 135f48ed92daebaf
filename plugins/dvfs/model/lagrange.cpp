#include "lagrange.hpp"

#include <algorithm>

namespace haec::dvfs {

LagrangeGovernor::LagrangeGovernor(PstateTable table, double rho, double overlay, bool thesis_literal)
    : Governor("lagrange", std::move(table)), rho_(rho), overlay_(overlay), thesis_(thesis_literal)
{
}

double LagrangeGovernor::objective(int pstate, double work, double s, const State& st) const
{
  const double tau = work / table_.speed(pstate); // f W
  const double idle = thesis_ ? std::min(s, tau) : s - std::min(s, tau);
  const double g    = tau * table_.busy_watts(pstate) + idle * table_.idle_watts(pstate);
  const double r    = tau - st.t - st.lambda;
  return g + rho_ / 2 * r * r;
}

Plan LagrangeGovernor::on_iteration(const IterationStats& it)
{
  if (!(it.work > 0) || !(it.duration > 0))
    return {};
  State& st = states_[it.rank];
  if (!st.started) {
    st.started = true;
    st.t       = it.t_comp;
    st.lambda  = 0;
  }
  const double s = overlay_ * it.duration;
  int best = table_.fastest();
  double best_v = objective(best, it.work, s, st);
  for (int l = 1; l < table_.levels(); ++l) { // ties keep the faster pstate
    const int p = table_.pstate(l);
    const double v = objective(p, it.work, s, st);
    if (v < best_v) {
      best   = p;
      best_v = v;
    }
  }
  const double tau = it.work / table_.speed(best);
  st.t             = std::min(tau - st.lambda, s);
  if (thesis_)
    st.lambda += tau - st.t;
  else
    st.lambda -= tau - st.t;
  return set(best);
}

} // namespace haec::dvfs
