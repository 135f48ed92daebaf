#include "lagrange.hpp"

#include <algorithm>

namespace haec::dvfs {

LagrangeGovernor::LagrangeGovernor(PstateTable table, double rho, double overlay, bool thesis_literal, bool premise,
                                   bool growth, int memory)
    : Governor("lagrange", std::move(table)), rho_(rho), overlay_(overlay), thesis_(thesis_literal), premise_(premise),
      growth_(growth), memory_(static_cast<size_t>(std::max(1, memory)))
{
}

double LagrangeGovernor::objective(int pstate, double work, double s, const State& st, double delay_watts) const
{
  const double tau  = work / table_.speed(pstate); // f W
  const double idle = thesis_ ? std::min(s, tau) : s - std::min(s, tau);
  // Computing beyond the window lengthens the iteration for every other node (the max term of
  // (9.4)): they idle meanwhile. Without it, a node whose computation already exceeds s at every
  // pstate (the critical one) sees no idle term at all and slows down for busy energy alone.
  const double delay = thesis_ ? 0 : std::max(0.0, tau - s) * delay_watts;
  const double g     = tau * table_.busy_watts(pstate) + idle * table_.idle_watts(pstate) + delay;
  const double r    = tau - st.t - st.lambda;
  return g + rho_ / 2 * r * r;
}

// The thesis's local stand-in for max_j t_j is overlay x the node's own duration. That duration
// includes the delay the node's own slowing causes in a phase where it had no slack (an
// iteration of several computations and exchanges), so the window grows with the node's
// slowness. One pstate per iteration can only use the slack of its tightest computation.
double LagrangeGovernor::window(const IterationStats& it) const
{
  const double s = overlay_ * it.duration;
  if (thesis_ || !(it.slack_ratio >= 0))
    return s;
  return std::min(s, it.t_comp * (1 + it.slack_ratio - it.blame));
}

// t_comp (1 + r) is invariant to the node's own speed and work when the premise holds (slowing
// by d shrinks the wait by d); it grows when the others are later.
double LagrangeGovernor::least_available(const IterationStats& it, State& st) const
{
  st.available.push_back(it.t_comp * (1 + it.slack_ratio - it.blame));
  while (st.available.size() > memory_)
    st.available.pop_front();
  return *std::min_element(st.available.begin(), st.available.end());
}

double LagrangeGovernor::window(const IterationStats& it, State& st) const
{
  if (thesis_ || !(it.slack_ratio >= 0))
    return window(it);
  const double available = least_available(it, st);
  if (!premise_)
    return std::min(overlay_ * it.duration, available);
  const double wait    = it.slack_ratio * it.t_comp;
  const double slowed  = st.last_spf > 0 ? it.t_comp - it.work * st.last_spf : 0;
  const bool not_slack = slowed > 1e-6 * it.t_comp && st.last_wait >= 0 && st.last_wait - wait < slowed / 2;
  if (not_slack)
    st.structural = std::max(st.structural, st.last_wait);
  st.last_wait  = wait;
  st.last_spf   = it.t_comp / it.work;
  double s      = std::min({overlay_ * it.duration, available, it.t_comp + std::max(0.0, wait - st.structural)});
  return not_slack ? std::min(s, it.t_comp - slowed) : s;
}

double LagrangeGovernor::expected_work(const IterationStats& it, const State& st) const
{
  if (thesis_ || !growth_ || !(st.last_work > 0) || it.work <= st.last_work)
    return it.work;
  return it.work + (it.work - st.last_work);
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
  const double s    = window(it, st);
  const double work = expected_work(it, st);
  st.last_work      = it.work;
  int best = table_.fastest();
  double best_v = objective(best, work, s, st, it.delay_watts);
  for (int l = 1; l < table_.levels(); ++l) { // ties keep the faster pstate
    const int p = table_.pstate(l);
    const double v = objective(p, work, s, st, it.delay_watts);
    if (v < best_v) {
      best   = p;
      best_v = v;
    }
  }
  const double tau = work / table_.speed(best);
  st.t             = std::min(tau - st.lambda, s);
  if (thesis_)
    st.lambda += tau - st.t;
  else
    st.lambda -= tau - st.t;
  return set(best);
}

} // namespace haec::dvfs
