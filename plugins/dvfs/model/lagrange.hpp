// Lagrange (002 §9.3.2, docs/MODELS.md §5): per node and iteration, one step of ADMM on
//   min sum_i g_i(f_i)  s.t.  f_i W_i = t_i,  t_i <= s,
// f the inverse speed, W the iteration's work, s = overlay * the node's iteration duration, at
// most the iteration's computation stretched by the slack of its tightest computation (window()).
//   (1) f = argmin over the allowed pstates of g(f) + rho/2 (f W - t - lambda)^2
//   (2) t = min(f W - lambda, s)
//   (3) lambda -= f W - t
// with g(f) = f W P_busy(f) + (s - min(s, f W)) P_idle(f) + max(0, f W - s) P_others: the node's
// energy over the window s (computing, then idle until s), plus what the other nodes burn idling
// while a computation beyond s lengthens the iteration (P_others = IterationStats::delay_watts).
// Four departures from the thesis text, all kept switchable
// (GovernorParams::lagrange_thesis) and explained in plugins/dvfs/README.md:
//  - the thesis prints min(s, fW) * P_idle, which grows with fW and so never favours slowing
//    down; the window energy above is what its objective (9.4) sums;
//  - the thesis's local g drops (9.4)'s max term: a node computing beyond s pays nothing for
//    delaying everyone, so the critical node (f W > s at every pstate, s = 0.95 x its own
//    duration) slows down for busy energy alone and drags the run by ~50 % (README);
//  - the thesis's s = overlay x the node's own duration grows with the delay the node's own
//    slowing causes in a phase of the iteration where it had no slack: window();
//  - the thesis adds (f W - t) to lambda; with (2) that doubles lambda every iteration once it
//    is positive and drives the busiest node to the slowest pstate. Boyd's scaled ADMM (u = -lambda)
//    subtracts it: lambda returns to 0 whenever t <= s, and goes negative (pushing f W down,
//    i.e. faster) while the node's computation exceeds s.
// The first iteration seen only initialises t to its compute time (lambda = 0). Not in the
// thesis either: W in (1) is the next iteration's expected work (the last one's plus its growth,
// expected_work()), not the last one's.
//
// Pipeline fallback (`pipeline`, GovernorParams::lagrange_pipeline, on by default; never with
// lagrange_thesis): in an iteration whose tightest slack ratio is 0 on a rank whose floor is 0
// (some computation is followed by the next one with no MPI time, as in bt_like and lu_like),
// one pstate per iteration cannot slow anything. Then each task with a proven
// float (the time it had, t_comp + wait beyond the rank's floor, at both its last occurrences)
// runs at the pstate step (1)'s objective picks over that task alone (W its flops, s that time,
// t = s, lambda = 0), at most one level slower per occurrence than its last, and never faster
// than the iteration's pstate; the other tasks run at the iteration's pstate. The slack premise
// is checked over the rank's iteration (a pipeline's delay comes back as a wait after another
// task): if the fallback's tasks slowed by d more than in the previous iteration and the rank's
// waits did not shrink by d/2, or they slowed by d in all and the waits are not d/2 shorter than
// in an iteration it slowed nothing in, those tasks' waits are structural: never slowed again.
// The iteration's window (step (1) for the next iteration) leaves out the slowing the fallback
// planned, else the iteration's pstate would slow into it.
#pragma once
#include "governor.hpp"

#include <deque>
#include <map>

namespace haec::dvfs {

class LagrangeGovernor : public Governor {
public:
  LagrangeGovernor(PstateTable table, double rho, double overlay, bool thesis_literal, bool premise = false,
                   bool growth = true, int memory = 1, bool pipeline = false);
  Plan on_iteration(const IterationStats& stats) override;
  Plan on_task_start(uint64_t key, double flops, int rank) override;
  void on_task_end(const TaskObservation& observation) override;

  // Pipeline fallback, per task of a rank.
  struct TaskSlack {
    std::deque<double> available; // t_comp + wait beyond the floor, its last two occurrences
    int level       = 0;          // the level it last ran at (0: fastest allowed)
    bool structural = false;      // its slowing came back as a wait: never slowed again
  };

  struct State {
    bool started = false;
    double t = 0, lambda = 0;
    // The slack premise (not in lagrange_thesis): slowing the computation by d shrinks the wait
    // by d. Previous iteration's wait (s) and seconds per flop; the wait found not to be slack.
    double last_wait = -1, last_spf = 0, structural = 0;
    double last_work = 0; // the previous iteration's flops (the work's trend)
    std::deque<double> available; // the last `memory` iterations' t_comp (1 + r), newest last
    // Pipeline fallback: on for the iteration that runs when the last one's slack ratio was 0.
    bool fallback = false;
    int iteration_pstate = -1;
    double delay_watts = 0, t_lib_floor = -1;
    double slowed = 0, waited = 0;            // this iteration's: seconds the fallback slowed, waits
    double last_slowed = 0, last_waited = -1; // the previous iteration's
    double planned_slowing = 0;               // seconds the fallback's pstates add to this iteration's computing
    double paced_waited = -1;                 // the least waits of an iteration the fallback slowed nothing in
    std::vector<uint64_t> slowed_keys;        // tasks the fallback slowed this iteration
    std::map<uint64_t, TaskSlack> tasks;
  };
  const State& state(int rank = 0) const { return states_.at(rank); }
  // Step (1)'s objective at a pstate, for tests and traces.
  double objective(int pstate, double work, double s, const State& st, double delay_watts = 0) const;

  // s: overlay x the iteration's duration, at most its computation stretched by its tightest
  // computation's slack (IterationStats::slack_ratio); the thesis's overlay x duration alone
  // with lagrange_thesis.
  double window(const IterationStats& it) const;
  // With `premise` (lagrange_premise=1): window() less the wait that proved structural. When the
  // node slowed by d and its wait did not shrink by d/2, the delay came back (slow neighbours
  // waiting for each other in turn stretch the iteration for all of them): that wait is not
  // slack any more, and the window is at most the computation at the previous speed.
  // With `memory` K > 1 (lagrange_memory): the computation's available time t_comp (1 + r) is
  // the least of the last K iterations', so a wait must have been there K iterations before it
  // counts as slack. A wait that grows because a slowed neighbour is late is not slack; taken
  // for slack, it slows the node, which makes its own neighbours late in turn, and the lateness
  // travels to the critical rank (README, "Lagrange on the 300-iteration scenario").
  double window(const IterationStats& it, State& st) const;
  // The work the next iteration is expected to have: W, plus its growth since the previous
  // iteration when it grew (W + (W - W_prev)); W alone with lagrange_thesis or lagrange_growth=0. One pstate is chosen
  // per iteration before its work is known: on a moving hotspot a node's work grows 4-8 % per
  // iteration as the hot region arrives, and a pstate fitted to the last iteration's work falls
  // behind by that much every iteration (README, "Lagrange on the moving hotspot").
  double expected_work(const IterationStats& it, const State& st) const;

  // Pipeline fallback: the pstate of task `key` with `flops` to compute (the iteration's when the
  // task has no proven float).
  int task_pstate(State& st, uint64_t key, double flops) const;

private:
  double least_available(const IterationStats& it, State& st) const;
  void check_pipeline_premise(State& st, double t_comp) const;

  double rho_, overlay_;
  bool thesis_, premise_, growth_, pipeline_;
  size_t memory_;
  std::map<int, State> states_; // by rank
};

} // namespace haec::dvfs
