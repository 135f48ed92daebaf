// Receding-horizon (model-predictive) plan of every rank's computations (
// `lagrange_plan`; README, "A coordinated plan"). Pure C++: the adapter reports each computation
// (rank, iteration, position in it, measured start and end, seconds at the fastest level) and each
// message between two computations; when every rank has completed iteration j, the planner
// solves the least-energy program (plan_lp.hpp) over the next iterations:
//   - predicted: each iteration after j repeats iteration j (the same computations, work and
//     messages: the last one every rank completed);
//   - iteration j+1 is under way with the plan it already got (fixed);
//   - iterations j+2 .. j+1+horizon are planned, starting from the measured state (the ends of
//     iteration j's computations);
//   - every rank's last planned computation is due by its racing end (the run's schedule with
//     every computation racing, anchored at the racing ends of iteration j, so that lateness never
//     accumulates) plus its total float there over `lookahead` more iterations (its latest end in
//     their racing schedule, each rank's last one due by its racing end), and every other planned
//     computation by its racing end plus `cap` iterations (scaled_cap: more on a larger run);
//     where the lateness already reached cannot be drained, by its end racing from that state.
// Planned only where the messages explain the schedule (refused()).
// Iterations j+2 .. j+1+horizon then run at the plan's time per second of work (stretch), until a
// newer plan replaces it; an iteration no plan covers races.
// The program is solved exactly as a minimum-cost circulation (plan_flow.hpp, the default), exactly
// with GLPK (plan_lp.hpp, time about the square of its computations), or approximately by
// progressive filling (plan_fill.hpp).
#pragma once
#include "plan_lp.hpp"

#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace haec::dvfs {

class HorizonPlanner {
public:
  enum class Solver { flow, lp, fill };
  static Solver solver(const std::string& name); // "flow", "lp" or "fill"
  // horizon: iterations planned (>= 1); cap: lateness allowed inside the horizon, in iterations
  // of racing time (< 0: none asked); max_tasks: the most computations one plan may hold;
  // lookahead: iterations after the horizon whose racing schedule bounds its last computations;
  // scale_ranks: from that many ranks on, horizon and cap grow (scaled_*; 0: as given).
  HorizonPlanner(int horizon, double cap, size_t max_tasks = std::numeric_limits<size_t>::max(),
                 Solver solver = Solver::flow, size_t lookahead = 0, size_t scale_ranks = 0);
  // What a run of `ranks` ranks gets (scale_ranks 0: as given). The horizon: one iteration more
  // from scale_ranks ranks on. The cap: cap x max(1, ranks / scale_ranks) (no cap, cap < 0, stays
  // none). On a larger grid a rank's float reaches the horizon's last iterations through more
  // neighbours, and a short horizon or a cap fixed in iterations cuts it off (PLAN.md, "Horizon
  // and cap by the run's size").
  static int scaled_horizon(int horizon, size_t scale_ranks, size_t ranks);
  static double scaled_cap(double cap, size_t scale_ranks, size_t ranks);
  // The rank's levels, fastest first (before its first computation is reported).
  void rank_levels(size_t rank, std::vector<PlanLevel> levels);

  // The rank's next computation (computations are reported in order, by rank).
  void computation(size_t rank, size_t iteration, size_t position, double start, double end, double race);
  // A message from the rank's from_index-th computation to to_rank's to_index-th (0-based),
  // delay seconds on the network; reported before the receiving computation ends.
  void message(size_t from_rank, size_t from_index, size_t to_rank, size_t to_index, double delay);
  // Every rank has completed `iteration`: plan the next ones (false: nothing planned).
  bool plan_after(size_t iteration);

  // Seconds per second of work planned for the rank's `position`-th computation of `iteration`
  // (1: race); < 0: no plan. Given its work (seconds at the fastest level) and more work than
  // predicted, the planned seconds are kept (the stretch shrinks, at least 1): the plan never makes
  // a computation that grew later than it planned.
  double stretch(size_t rank, size_t iteration, size_t position, double work = -1) const;
  size_t plans() const { return plans_; }
  // The messages did not explain the run's schedule when it was checked (before the first plan,
  // every computation racing: the last end against the racing one's, within 1e-4, as the float
  // bounds of a performance run): blocking sends or collectives it does not see. No plan then.
  bool refused() const { return refused_; }
  // A plan would hold more computations than max_tasks (refused() then too; the adapter then races).
  bool too_large() const { return too_large_; }

private:
  struct Pred {
    size_t rank, index; // the sending computation: the rank's index-th
    double delay;
  };
  struct Computation {
    size_t iteration, position;
    double start, end, race, race_end; // race_end: its end with every computation racing
    std::vector<Pred> preds;
  };
  using Pattern = std::vector<std::pair<size_t, const Computation*>>; // (rank, its computation of j)
  // The program over iterations j+1 .. j+1+horizon and each task's racing and measured-state ends;
  // task (iteration j+1+i, pattern entry e) is i x pattern size + e.
  struct Horizon {
    PlanProblem problem;
    std::vector<double> anchored, from_state;
  };
  const Computation* find(size_t rank, size_t iteration, size_t position) const;
  Pattern pattern(size_t j, double& period) const;
  Horizon build(size_t j, const Pattern& pattern) const;
  void set_dues(Horizon& h, const Pattern& pattern, double period, double cap) const;
  double run_lag(size_t j) const;
  bool explains(size_t j) const;
  std::optional<std::vector<double>> solve(const PlanProblem& problem) const;

  int given_horizon_, horizon_; // horizon_: scaled to the run at its first plan
  double cap_;
  size_t max_tasks_;
  Solver solver_;
  size_t lookahead_;
  size_t scale_ranks_;
  bool too_large_ = false;
  std::vector<std::vector<PlanLevel>> levels_;
  std::vector<std::vector<Computation>> ranks_;
  std::vector<std::vector<std::pair<size_t, Pred>>> pending_; // by rank: messages to computations not reported yet
  double gap_ = std::numeric_limits<double>::infinity(); // least time between two computations of any rank
  struct Planned {
    double stretch, work; // work: as predicted
  };
  // A planned iteration: its computations by rank, from first[rank] (positions in order).
  struct IterationPlan {
    std::vector<size_t> first; // by rank, size ranks + 1
    std::vector<Planned> planned;
  };
  std::map<size_t, IterationPlan> stretch_; // by iteration
  size_t plans_  = 0;
  bool checked_  = false, refused_ = false;
  double last_lag_ = -1; // run_lag at the last plan (-1: none yet)
};

} // namespace haec::dvfs
