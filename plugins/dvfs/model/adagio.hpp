// Adagio (Rountree et al. 2009, as 002 Listing 4 and docs/MODELS.md §5) and AdagioImproved (002
// Listing 5). Per task (rank, key): work I, measured rate at the pstate it ran, t_comp, t_lib.
#pragma once
#include "governor.hpp"

#include <limits>
#include <unordered_map>
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
    std::vector<double> rate; // flop/s by level
    double t_min = std::numeric_limits<double>::infinity(); // AdagioImproved
  };
  Task& task(uint64_t key, int rank);
  // Lines 18-41 of Listing 4 on a task: record the rate, set its schedule.
  void adagio_schedule(Task& t, const TaskObservation& o);

  double t_copy_;
  std::unordered_map<uint64_t, Task> tasks_; // by (rank, key) mixed into one word
};

// Listing 5: t_lib > t_min * factor: we wait for others, run Adagio (slow down); otherwise
// others wait for us: go half-way (by level) to the fastest pstate and set t_min = t_lib.
class AdagioImprovedGovernor : public AdagioGovernor {
public:
  AdagioImprovedGovernor(PstateTable table, double t_copy, double factor);
  void on_task_end(const TaskObservation& observation) override;

private:
  double factor_;
};

} // namespace haec::dvfs
