#include "mix_governor.hpp"
#include "plan_pstates.hpp"

#include <algorithm>

namespace haec::dvfs {
namespace {
uint64_t task_id(uint64_t key, int rank)
{
  return key ^ (static_cast<uint64_t>(static_cast<uint32_t>(rank)) * 0x9E3779B97F4A7C15ull);
}
} // namespace

MixGovernor::MixGovernor(PstateTable table, const GovernorParams& p)
    : Governor("mix", std::move(table)), margin_(p.mix_margin), margin_s_(p.mix_margin_s), step_(p.mix_step)
{
  window_.allow_mix     = true;
  window_.switch_energy = p.switch_energy;
  // Parts shorter than a switch (or a microsecond) are not worth a timer.
  window_.min_segment = std::max(p.switch_latency, 1e-6);
}

const MixGovernor::Task* MixGovernor::task(uint64_t key, int rank) const
{
  auto it = tasks_.find(task_id(key, rank));
  return it == tasks_.end() ? nullptr : &it->second;
}

WindowPlan MixGovernor::plan(double flops, double stretch) const
{
  const double race = flops / table_.fastest_speed();
  return cheapest_plan(table_, flops, race + std::max(0.0, stretch), window_);
}

Plan MixGovernor::on_task_start(uint64_t key, double flops, int rank)
{
  if (!(flops > 0))
    return {};
  auto it = tasks_.find(task_id(key, rank));
  if (it == tasks_.end() || !it->second.seen)
    return set(table_.fastest()); // first occurrence: nothing known, race
  const Task& t = it->second;
  const double race   = flops / table_.fastest_speed();
  const double budget = t.next_stretch - std::max(0.0, race - t.last_race);
  if (!(budget > 0))
    return set(table_.fastest());
  return as_plan(plan(flops, budget));
}

void MixGovernor::on_task_end(const TaskObservation& o)
{
  if (!(o.flops > 0) || !(o.t_comp > 0))
    return;
  const uint64_t id = task_id(o.key, o.rank);
  Task& t            = tasks_[id];
  const double race    = o.flops / table_.fastest_speed();
  const double stretch = std::max(0.0, o.t_comp - race);
  const double margin  = std::max(margin_s_, margin_ * (o.t_comp + o.t_lib));
  const double avail   = stretch + o.t_lib - margin; // the slack seen, margin kept
  const double grew    = stretch - t.last_stretch;
  // Rule 5 first: a failed cycle halves its tasks' stretches; this task's own rules then decide
  // its next stretch from this occurrence (measured: halving it too loses saving on the stencil).
  note_in_cycle(o.rank, o.key, id, Change{t.seen, grew, o.t_lib - t.last_tlib, o.t_comp + o.t_lib});
  double next;
  if (t.seen && grew > 1e-9 * (o.t_comp + o.t_lib) && o.t_lib > t.last_tlib - 0.5 * grew) {
    // We stretched, and the MPI time did not shrink by half of it: that part of the MPI time
    // was not slack (transfers), or the others slowed down meanwhile. Undo the step; grow no
    // more until new slack shows up (or a while has passed).
    next        = std::min(avail, t.last_stretch);
    t.blocked   = probe_after;
    t.block_lib = o.t_lib;
  } else if (o.t_lib < 0.5 * margin) {
    // Almost no wait: perhaps the others wait for us, by an amount we cannot see. Halve the
    // stretch (multiplicative decrease; increases are gradual).
    next = std::min(avail, 0.5 * stretch);
  } else if (avail <= stretch) {
    next = avail; // less slack than used: speed up at once
  } else if (t.blocked > 0 && o.t_lib <= t.block_lib + margin) {
    next = stretch; // hold
    --t.blocked;
  } else {
    next      = stretch + step_ * (avail - stretch); // approach the new slack gradually
    t.blocked = 0;
  }
  t.seen         = true;
  t.last_race    = race;
  t.last_stretch = stretch;
  t.last_tlib    = o.t_lib;
  t.next_stretch = std::max(0.0, next);
}

void MixGovernor::note_in_cycle(int rank, uint64_t key, uint64_t id, const Change& change)
{
  Cycle& cycle = cycles_[rank];
  if (!cycle.keys.insert(key).second) {
    close_cycle(cycle);
    cycle.keys.insert(key);
  }
  if (change.seen) {
    cycle.grew += change.grew;
    cycle.lib_change += change.lib_change;
    cycle.window += change.window;
  }
  cycle.tasks.push_back(id);
}

// Rule 5: the cycle's tasks stretched by `grew` in total but their MPI times did not shrink by
// half of it. A single task is rule 1's business.
void MixGovernor::close_cycle(Cycle& c)
{
  if (c.tasks.size() >= 2 && c.grew > 1e-9 * c.window && c.lib_change > -0.5 * c.grew)
    for (uint64_t id : c.tasks) {
      Task& t        = tasks_[id];
      t.next_stretch = std::min(t.next_stretch, 0.5 * t.last_stretch);
      t.blocked      = probe_after;
      t.block_lib    = t.last_tlib;
    }
  c = Cycle{};
}

} // namespace haec::dvfs
