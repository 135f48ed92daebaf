#include "lagrange.hpp"

#include <algorithm>

namespace haec::dvfs {

LagrangeGovernor::LagrangeGovernor(PstateTable table, double rho, double overlay, bool thesis_literal, bool premise,
                                   bool growth, int memory, bool pipeline)
    : Governor("lagrange", std::move(table)), rho_(rho), overlay_(overlay), thesis_(thesis_literal), premise_(premise),
      growth_(growth), pipeline_(pipeline && !thesis_literal), memory_(static_cast<size_t>(std::max(1, memory)))
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

Plan LagrangeGovernor::on_iteration(const IterationStats& measured)
{
  if (!(measured.work > 0) || !(measured.duration > 0))
    return {};
  State& st = states_[measured.rank];
  // The fallback's own slowing is not time the iteration's pstate had: a window t_comp (1 + r)
  // that counted it would let the next iteration's pstate slow into it (bt_like: pstate 1 with
  // r = 0 in 24 rank-iterations, +0.28 ms per iteration).
  IterationStats it = measured;
  if (pipeline_ && st.planned_slowing > 0)
    it.t_comp = std::max(it.t_comp - st.planned_slowing, 0.0);
  st.planned_slowing = 0;
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
  if (pipeline_) {
    check_pipeline_premise(st, it.t_comp);
    // Only where one pstate per iteration can slow nothing: the tightest computation had no wait,
    // and the rank's floor is 0 (some computation is followed by the next one with no MPI time:
    // a pipeline's stage split in pieces). A stencil's every computation ends in an exchange
    // (floor > 0): its ranks with r = 0 are the critical ones, whose waits are the neighbours'
    // lateness; there every figure stays as it was.
    st.fallback         = it.slack_ratio >= 0 && it.slack_ratio <= 0 && st.t_lib_floor == 0;
    st.iteration_pstate = best;
    st.delay_watts      = it.delay_watts;
  }
  return set(best);
}

// A pipeline stage that slows delays its successor, whose wait comes back upstream after another
// task of the rank: per task the wait shrank, over the rank's iteration it did not. Checked
// twice: against the previous iteration (a new slowing d must shrink the waits by d/2 at once)
// and against the least waits of an iteration the fallback slowed nothing in (a slowing that
// is not absorbed lengthens every iteration while the waits stay where they were, which the
// first check, seeing no change, misses). The least, because a rare long message makes one
// iteration's waits longer. The second check is a guard: on bt_like it changes nothing, on
// lu_like it costs 0.015 % of saving at the same makespan (README, "Lagrange on pipelines").
void LagrangeGovernor::check_pipeline_premise(State& st, double t_comp) const
{
  const double eps         = 1e-6 * t_comp;
  const double more_slowed = st.slowed - st.last_slowed;
  const bool new_delay     = more_slowed > eps && st.last_waited >= 0 && st.last_waited - st.waited < more_slowed / 2;
  const bool kept_delay    = st.slowed > eps && st.paced_waited >= 0 && st.paced_waited - st.waited < st.slowed / 2;
  if (new_delay || kept_delay)
    for (uint64_t key : st.slowed_keys)
      st.tasks[key].structural = true;
  if (!(st.slowed > eps) && (st.paced_waited < 0 || st.waited < st.paced_waited))
    st.paced_waited = st.waited;
  st.last_slowed = st.slowed;
  st.last_waited = st.waited;
  st.slowed = st.waited = 0;
  st.slowed_keys.clear();
}

int LagrangeGovernor::task_pstate(State& st, uint64_t key, double flops) const
{
  const int base = st.iteration_pstate >= 0 ? st.iteration_pstate : table_.fastest();
  auto found     = st.tasks.find(key);
  if (found == st.tasks.end())
    return base;
  TaskSlack& task = found->second;
  if (task.structural || task.available.size() < 2 || !(flops > 0))
    return base;
  const double s = std::min(task.available.front(), task.available.back());
  State one_task; // step (1) over this task alone: its window is the time it had, t = s
  one_task.t = s;
  const int base_level = table_.level(base);
  const int last_level = std::max(base_level, task.level + 1); // one level slower per occurrence
  int best             = base;
  double best_v        = objective(best, flops, s, one_task, st.delay_watts);
  for (int l = base_level + 1; l <= std::min(last_level, table_.levels() - 1); ++l) {
    const int p    = table_.pstate(l);
    const double v = objective(p, flops, s, one_task, st.delay_watts);
    if (v < best_v && flops / table_.speed(p) <= s) { // never beyond its float; ties keep the faster
      best   = p;
      best_v = v;
    }
  }
  task.level = table_.level(best);
  // Counted at the start: the adapter adds a computation to the iteration it starts in.
  st.planned_slowing += flops / table_.speed(best) - flops / table_.speed(base);
  return best;
}

Plan LagrangeGovernor::on_task_start(uint64_t key, double flops, int rank)
{
  if (!pipeline_)
    return {};
  auto found = states_.find(rank);
  if (found == states_.end() || !found->second.fallback)
    return {};
  return set(task_pstate(found->second, key, flops));
}

void LagrangeGovernor::on_task_end(const TaskObservation& o)
{
  if (!pipeline_ || !(o.t_comp > 0))
    return;
  State& st = states_[o.rank];
  if (st.t_lib_floor < 0 || o.t_lib < st.t_lib_floor)
    st.t_lib_floor = o.t_lib;
  const double wait = o.t_lib - st.t_lib_floor;
  TaskSlack& task   = st.tasks[o.key];
  task.available.push_back(o.t_comp + wait);
  while (task.available.size() > 2)
    task.available.pop_front();
  st.waited += wait;
  const int base = st.iteration_pstate >= 0 ? st.iteration_pstate : table_.fastest();
  const double slowed = o.t_comp - o.flops / table_.speed(base);
  if (st.fallback && table_.level(base) < task.level && slowed > 0) {
    st.slowed += slowed;
    st.slowed_keys.push_back(o.key);
  }
}

} // namespace haec::dvfs
