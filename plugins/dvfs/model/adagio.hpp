// Adagio (Rountree et al. 2009, as 002 Listing 4 and docs/MODELS.md §5) and AdagioImproved (002
// Listing 5). Per task (rank, key): work I, measured rate at the pstate it ran, t_comp, t_lib.
#pragma once
#include "governor.hpp"

#include <limits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace haec::dvfs {

class AdagioGovernor : public Governor {
public:
  AdagioGovernor(PstateTable table, double t_copy, std::string name = "adagio");
  // PreTask: a new task runs at the fastest pstate, a known one at its schedule.
  Plan on_task_start(uint64_t key, double flops, int rank = 0) override;
  // PostTask: measure the rate, then schedule the slowest pstate whose predicted time I/rate
  // fits t_target = t_comp + t_lib - t_copy. The rate at the pstate it ran is the measured one,
  // so that pstate always fits again: Adagio never speeds up (002 §9.3, reproduced on purpose).
  void on_task_end(const TaskObservation& observation) override;
  // The level (0 = fastest) scheduled for a task, -1 if unknown (tests, traces).
  int scheduled_level(uint64_t key, int rank = 0) const;

protected:
  struct Task {
    bool measured = false;
    int ran_level = 0;      // level the last occurrence started at
    int sched_level = 0;    // level for the next occurrence
    double target = 0;      // t_target of the last schedule (s)
    std::vector<double> rate; // flop/s by level
    double t_min = std::numeric_limits<double>::infinity(); // AdagioImproved as printed
    double last_wait = -1; // AdagioImproved: the wait after the previous occurrence (-1: none)
    double last_spf  = 0;  // AdagioImproved: seconds per flop of the previous occurrence
    double last_raw_wait = -1; // AdagioImproved: t_lib beyond the communication floor, previous occurrence
    bool ended = false;    // AdagioImproved: an occurrence ended before (last_raw_wait may be < 0)
    double structural = 0; // AdagioImproved: wait that slowing down did not shrink (not slack)
  };
  Task& task(uint64_t key, int rank);
  // Lines 18-41 of Listing 4 on a task: record the rate, set its schedule; `not_slack` seconds
  // of t_lib are communication, not waiting (Adagio's t_copy).
  void adagio_schedule(Task& t, const TaskObservation& o, double not_slack);

  double t_copy_;
  std::unordered_map<uint64_t, Task> tasks_; // by (rank, key) mixed into one word
};

// Listing 5: t_lib > t_min * factor: we wait for others, run Adagio (slow down); otherwise
// others wait for us: go half-way (by level) to the fastest pstate. As the thesis's text says
// (not its listing), t_min is the node's (here: the rank's) smallest communication time, over
// all its tasks: the cost of communicating without waiting. Only the wait beyond t_min * factor
// is slack for Adagio, and only as much of it as the previous occurrence also had: a wait that
// a neighbour's one-off lateness caused is not there next time. `thesis_literal` restores the listing as printed: t_min per task, set to
// the last t_lib that did not grow, and all of t_lib taken as slack (README: why that slows the
// critical path by half). A task slows down by at most `max_step` levels per occurrence: a slowdown
// into a wait that was not slack delays a pipeline for good, and the premise checks catch it
// only one occurrence (rule 1) or one cycle (rule 4) later; one level at a time bounds that
// delay (README, "Pipelines").
class AdagioImprovedGovernor : public AdagioGovernor {
public:
  // `max_step`: levels a task may slow down per occurrence (0: no limit; adagio_step).
  AdagioImprovedGovernor(PstateTable table, double t_copy, double factor, bool thesis_literal = false,
                         int max_step = 1);
  void on_task_end(const TaskObservation& observation) override;
  // The schedule, or faster: the slowest level at which this occurrence's known flops fit the
  // last t_target. A task whose work grew (lu's heavier iterations) would otherwise run its
  // extra work slowly too and overrun the slack measured on the lighter occurrence.
  Plan on_task_start(uint64_t key, double flops, int rank = 0) override;
  // The rank's t_min (+inf before its first task ended).
  double t_min(int rank = 0) const;

private:
  // One cycle of a rank's tasks (until a key repeats): the net slowdown of its tasks against
  // their previous occurrences and the net change of their waits. Adagio's premise for the
  // rank as a whole: the waits shrink by what the tasks slowed down. In a pipeline the delay a
  // stage causes downstream comes back as a longer wait after *another* task of the rank, so
  // the per-task check cannot see it.
  struct Cycle {
    std::unordered_set<uint64_t> keys;
    double slowed = 0, wait_change = 0, t_comp = 0;
    std::vector<uint64_t> tasks; // ids, in the order they ended
  };
  void on_task_end_thesis(const TaskObservation& observation);
  // Premise failed over the cycle: the waits its tasks slowed into were not slack.
  void close_cycle(Cycle& cycle);

  double factor_;
  bool thesis_;
  int max_step_;
  std::unordered_map<int, double> t_min_; // by rank
  std::unordered_map<int, Cycle> cycles_; // by rank
};

} // namespace haec::dvfs
