// "mix", our governor (plugins/dvfs/README.md): per task (rank, key), learn from its last
// occurrence how much later than racing it could have ended without anyone waiting for it (its
// slack), keep a margin, and run the next occurrence at the cheapest plan for that window: one
// pstate then idle, or two pstates switched mid-computation so that it ends exactly at the
// target (window_plan.hpp). Unlike Adagio it plans from the work and the speeds, not from the
// rate measured at the current pstate, so it speeds up as soon as the slack shrinks.
//
// Per occurrence, with race = I / fastest speed and stretch = t_comp - race (time given up):
//   margin = max(mix_margin_s, mix_margin * (t_comp + t_lib)), avail = stretch + t_lib - margin
//   1. stretched more than last time but t_lib did not shrink by half of that step: the step
//      ate MPI time that was not slack (transfers longer than the margin) or the others slowed
//      down: undo it (next = min(avail, last stretch)) and hold until t_lib grows by a margin or
//      `probe_after` occurrences have passed;
//   2. t_lib < margin / 2: hardly any wait, maybe the others wait for us by an unseen amount:
//      next = min(avail, stretch / 2) (multiplicative decrease);
//   3. avail <= stretch: next = avail (speed up at once);
//   4. otherwise next = stretch + step * (avail - stretch) (approach new slack gradually).
//   5. per rank, over a cycle of its tasks (from one key until it repeats, at least two tasks):
//      the stretches grew by D in total but the MPI times did not shrink by D/2: the delay came
//      back as a wait after another task (a pipeline: AdagioImproved's rule 4). Every task of
//      the cycle halves its stretch and holds as in 1.
// At the next start, own extra work eats the budget first: stretch = next - max(0, race - last race).
#pragma once
#include "governor.hpp"
#include "window_plan.hpp"

#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace haec::dvfs {

class MixGovernor : public Governor {
public:
  MixGovernor(PstateTable table, const GovernorParams& params);
  Plan on_task_start(uint64_t key, double flops, int rank = 0) override;
  void on_task_end(const TaskObservation& observation) override;

  struct Task {
    bool seen          = false;
    double last_race   = 0; // s at the fastest pstate, last occurrence
    double last_stretch = 0;
    double last_tlib   = 0;
    double next_stretch = 0; // s the next occurrence may end later than racing
    int blocked        = 0;  // occurrences left without growth after an unabsorbed step
    double block_lib   = 0;  // t_lib then
  };
  const Task* task(uint64_t key, int rank = 0) const;
  // The plan for `flops` given a budget of `stretch` seconds beyond racing (no learning).
  WindowPlan plan(double flops, double stretch) const;

  static constexpr int probe_after = 16;

private:
  // One cycle of a rank's tasks: the net growth of their stretches against their previous
  // occurrences and the net change of their MPI times (rule 5).
  struct Cycle {
    std::unordered_set<uint64_t> keys;
    double grew = 0, lib_change = 0, window = 0;
    std::vector<uint64_t> tasks; // ids, in the order they ended
  };
  struct Change { // one occurrence against the previous one of its task
    bool seen;
    double grew, lib_change, window;
  };
  void note_in_cycle(int rank, uint64_t key, uint64_t id, const Change& change);
  void close_cycle(Cycle& cycle);

  double margin_, margin_s_, step_;
  std::unordered_map<int, Cycle> cycles_; // by rank
  WindowOptions window_;
  std::unordered_map<uint64_t, Task> tasks_;
};

} // namespace haec::dvfs
