#include "adagio.hpp"

#include <algorithm>

namespace haec::dvfs {
namespace {
uint64_t task_id(uint64_t key, int rank)
{
  // Keys are per rank; ranks sharing a host must not share tasks.
  return key ^ (static_cast<uint64_t>(static_cast<uint32_t>(rank)) * 0x9E3779B97F4A7C15ull);
}
} // namespace

AdagioGovernor::AdagioGovernor(PstateTable table, double t_copy, std::string name)
    : Governor(std::move(name), std::move(table)), t_copy_(t_copy)
{
}

AdagioGovernor::Task& AdagioGovernor::task(uint64_t key, int rank)
{
  return tasks_[task_id(key, rank)];
}

int AdagioGovernor::scheduled_level(uint64_t key, int rank) const
{
  auto it = tasks_.find(task_id(key, rank));
  return it == tasks_.end() || !it->second.measured ? -1 : it->second.sched_level;
}

Plan AdagioGovernor::on_task_start(uint64_t key, double /*flops*/, int rank)
{
  Task& t = task(key, rank);
  t.ran_level = t.measured ? t.sched_level : 0;
  return set(table_.pstate(t.ran_level));
}

void AdagioGovernor::adagio_schedule(Task& t, const TaskObservation& o, double not_slack)
{
  const double I = o.flops;
  if (!(I > 0) || !(o.t_comp > 0)) // nothing measurable: keep the schedule
    return;
  const int levels = table_.levels();
  if (!t.measured) { // first instance: worst-case rates, rate(f) = rate(f_ran) * f / f_ran
    const double r = I / o.t_comp;
    const double f_ran = table_.speed(table_.pstate(t.ran_level));
    t.rate.resize(static_cast<size_t>(levels));
    for (int l = 0; l < levels; ++l)
      t.rate[static_cast<size_t>(l)] = r * table_.speed(table_.pstate(l)) / f_ran;
    t.measured = true;
  }
  t.rate[static_cast<size_t>(t.ran_level)] = I / o.t_comp;
  const double target = o.t_comp + o.t_lib - not_slack;
  t.target      = target;
  t.sched_level = 0;
  for (int l = levels - 1; l >= 0; --l) // slowest first
    if (I / t.rate[static_cast<size_t>(l)] <= target * (1 + 1e-12)) {
      t.sched_level = l;
      break;
    }
}

void AdagioGovernor::on_task_end(const TaskObservation& o)
{
  adagio_schedule(task(o.key, o.rank), o, t_copy_);
}

AdagioImprovedGovernor::AdagioImprovedGovernor(PstateTable table, double t_copy, double factor, bool thesis_literal,
                                               int max_step)
    : AdagioGovernor(std::move(table), t_copy, "adagio-improved"), factor_(factor), thesis_(thesis_literal),
      max_step_(max_step)
{
}

double AdagioImprovedGovernor::t_min(int rank) const
{
  auto it = t_min_.find(rank);
  return it == t_min_.end() ? std::numeric_limits<double>::infinity() : it->second;
}

void AdagioImprovedGovernor::on_task_end(const TaskObservation& o)
{
  if (thesis_)
    return on_task_end_thesis(o);
  Task& t       = task(o.key, o.rank);
  double& t_min = t_min_.try_emplace(o.rank, o.t_lib).first->second;
  t_min         = std::min(t_min, o.t_lib);
  const double communication = std::max(t_copy_, t_min * factor_); // the rest of t_lib is waiting
  double wait                = o.t_lib - communication;
  // Adagio's premise: running slower by d shrinks the wait after the task by d. When it did not
  // (by half), the wait was not slack: the task's result was awaited elsewhere (a pipeline
  // stage's send) and the wait is for data that does not depend on it. That much wait is
  // structural for this task from now on.
  const double slowed = t.last_spf > 0 ? o.t_comp - o.flops * t.last_spf : 0;
  const bool not_slack = slowed > 1e-6 * o.t_comp && t.last_raw_wait >= 0 && t.last_raw_wait - wait < slowed / 2;
  if (not_slack)
    t.structural = std::max(t.structural, t.last_raw_wait);
  Cycle& cycle = cycles_[o.rank];
  if (!cycle.keys.insert(o.key).second) {
    close_cycle(cycle);
    cycle.keys.insert(o.key);
  }
  if (t.ended) {
    cycle.slowed += slowed;
    cycle.wait_change += wait - t.last_raw_wait;
    cycle.t_comp += o.t_comp;
  }
  cycle.tasks.push_back(task_id(o.key, o.rank));
  if (o.flops > 0)
    t.last_spf = o.t_comp / o.flops;
  t.last_raw_wait = wait;
  t.ended         = true;
  wait -= t.structural;
  const double recurring = t.last_wait < 0 ? 0 : std::min(wait, t.last_wait);
  t.last_wait            = std::max(0.0, wait);
  if (wait > 0 && !not_slack) { // we wait for others: Adagio on the wait that recurs
    const int ran = t.ran_level;
    adagio_schedule(t, o, o.t_lib - std::max(0.0, recurring));
    if (max_step_ > 0) // one step at a time into the wait: a wrong step costs a pipeline one level
      t.sched_level = std::min(t.sched_level, ran + max_step_);
    return;
  }
  // No wait, or the last slowdown delayed others: move half-way to the fastest level.
  const int ran = t.ran_level;
  adagio_schedule(t, o, communication);
  t.sched_level = ran / 2;
}

// Over a whole cycle the rank slowed down by `slowed` seconds but its waits did not shrink by
// half of that: the slowdown came out of the critical path, not out of slack, and came back as
// waits after its tasks (a pipeline). Every wait of the cycle is structural, and every task
// goes half-way back to the fastest level.
void AdagioImprovedGovernor::close_cycle(Cycle& c)
{
  if (c.slowed > 1e-6 * c.t_comp && c.wait_change > -c.slowed / 2)
    for (uint64_t id : c.tasks) {
      Task& t       = tasks_[id];
      t.structural  = std::max(t.structural, t.last_raw_wait);
      t.sched_level = std::min(t.sched_level, t.ran_level / 2);
    }
  c = Cycle{};
}

Plan AdagioImprovedGovernor::on_task_start(uint64_t key, double flops, int rank)
{
  Task& t = task(key, rank);
  if (thesis_ || !t.measured || !(flops > 0))
    return AdagioGovernor::on_task_start(key, flops, rank);
  int fit = 0;
  for (int l = t.sched_level; l > 0; --l) // from the schedule towards the fastest
    if (flops / t.rate[static_cast<size_t>(l)] <= t.target * (1 + 1e-12)) {
      fit = l;
      break;
    }
  t.ran_level = fit;
  return set(table_.pstate(fit));
}

// Listing 5 as printed, per task.
void AdagioImprovedGovernor::on_task_end_thesis(const TaskObservation& o)
{
  Task& t = task(o.key, o.rank);
  if (o.t_lib > t.t_min * factor_) { // we wait for others: slow down
    adagio_schedule(t, o, t_copy_);
    return;
  }
  const int ran = t.ran_level;
  adagio_schedule(t, o, t_copy_);
  t.sched_level = ran / 2;
  t.t_min       = o.t_lib;
}

} // namespace haec::dvfs
