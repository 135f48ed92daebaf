// The DVFS governors' decision logic (MODELS.md §5), pure: the adapter feeds each host's governor
// with what the host's ranks do and applies the plans it returns. No SimGrid include.
//
// Hooks (all optional for a governor; -1 in a Plan means "keep the pstate"):
//   on_sample(load)               every `period` seconds, load = busy fraction of the last period
//   on_task_start(key, flops)     a computation starts (key: its code position)
//   on_task_end(observation)      a computation's record, once the MPI time after it is known
//                                 (i.e. when the next computation starts)
//   on_iteration(stats)           a rank's iteration ended
//   on_pstate_changed(pstate)     the host's pstate really changed (the governor's view of it)
#pragma once
#include "pstate_table.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace haec::dvfs {

// Set `pstate` now (-1: keep); if then_pstate >= 0, switch to it after first_seconds.
struct Plan {
  int pstate           = -1;
  double first_seconds = 0;
  int then_pstate      = -1;
  bool keeps() const { return pstate < 0; }
};

// One ended computation of a rank and the MPI time that followed it.
struct TaskObservation {
  uint64_t key  = 0;
  double flops  = 0; // work I
  double t_comp = 0; // seconds computing
  double t_lib  = 0; // seconds in MPI after it, until the rank's next computation
  int rank      = 0; // local index of the rank on the host (task keys are per rank)
};

// One ended iteration of a rank.
struct IterationStats {
  int rank        = 0;
  double work     = 0; // flops computed in the iteration (W)
  double t_comp   = 0; // seconds computing
  double t_mpi    = 0; // seconds in MPI
  double duration = 0; // seconds, boundary to boundary
  // Watts the rest of the run burns per second this rank's iteration is lengthened: the other
  // hosts' idle power, all of them waiting (objective (9.4)'s max term); 0: unknown.
  double delay_watts = 0;
  // The smallest wait per second of computation among the rank's computations whose MPI time
  // ended in this iteration: (t_lib - the rank's smallest t_lib) / t_comp. One pstate for the
  // whole iteration can stretch every computation by this fraction without making anyone wait.
  // < 0: unknown.
  double slack_ratio = -1;
  // peer_slack: the longest wait, per second of the computation before the message, that this
  // rank's lateness caused a rank running at its fastest pstate (which cannot absorb it);
  // Lagrange's window shrinks by as much (0: none or unknown; peer_slack.hpp).
  double blame = 0;
};

struct GovernorParams {
  double period         = 0.01; // s, load sampling (ondemand, conservative), about Linux ondemand's rate
  double up_threshold   = 0.8; // load above: ondemand to the fastest, conservative one up
  double down_threshold = 0.2; // load below: conservative one down
  int min_pstate        = -1;  // allowed pstate index range; -1: the HostModel's
  int max_pstate        = -1;
  double t_copy         = 0;    // adagio: s of t_lib that are copies, never slack
  double adagio_factor  = 1.1;  // adagio-improved: t_lib > t_min * factor means "we wait"
  bool adagio_thesis    = false; // adagio-improved: Listing 5 as printed (per-task t_min, whole t_lib as slack)
  int adagio_step       = 1;     // adagio-improved: levels a task may slow down per occurrence (0: no limit)
  double rho            = 10;   // lagrange: ADMM penalty (J/s^2)
  double overlay        = 0.95; // lagrange: s = overlay * iteration duration
  bool lagrange_thesis  = false; // lagrange: the thesis's literal g and dual sign (README)
  bool lagrange_premise = false; // lagrange: waits that did not shrink when it slowed are not slack (README)
  bool lagrange_growth  = true;  // lagrange: fit the next iteration's expected work (last + its growth), not the last's
  int lagrange_memory   = 1;     // lagrange: iterations a wait must last before it is slack (1: the last one's; README)
  bool lagrange_pipeline = true;  // lagrange: per-task pstates where one pstate per iteration can slow nothing (README, "Pipeline fallback")
  bool peer_slack       = false; // lagrange: a wait for a peer's DVFS lateness is not slack; blame (peer_slack.hpp)
  bool peer_float       = false; // lagrange: slack at most the float of its messages at racing ranks (peer_slack.hpp)
  double peer_chain     = 0;     // lagrange: slack at most this share of its chain float (0: off; peer_slack.hpp)
  int lagrange_plan     = 3;     // lagrange: iterations of the coordinated plan (0: off, the local rules; plan_horizon.hpp)
  double lagrange_plan_cap = 0.4; // lagrange_plan: lateness inside the plan, in iterations (< 0: no cap)
  // lagrange_plan: the most computations one plan may hold (0: no limit); a larger run races
  // (dvfs_plugin.cpp). The default solver's time is linear in them (plan_fill.hpp).
  int lagrange_plan_max = 0;
  // lagrange_plan: how the plan's program is solved: "flow", exactly as a minimum-cost circulation
  // (plan_flow.hpp); "lp", exactly with GLPK's simplex (plan_lp.hpp; its time grows about as the
  // square of the computations: 0.27 s of CPU per plan of 512); "fill", progressive filling of a
  // common stretch (plan_fill.hpp; an approximation, a few per cent less saving).
  std::string lagrange_plan_solver = "flow";
  // lagrange_plan: iterations after the horizon whose racing schedule bounds the horizon's last
  // computations (their total float over them; 0: each due by its racing end).
  int lagrange_plan_lookahead = 4;
  // lagrange_plan: from this many ranks on, the plan covers one iteration more and its cap grows
  // as lagrange_plan_cap x ranks / lagrange_plan_scale_ranks (0: horizon and cap as given).
  int lagrange_plan_scale_ranks = 64;
  double mix_margin     = 0.03;  // mix: slack kept, fraction of the task's window (computation + MPI)
  double mix_margin_s   = 1e-4;  // mix: slack kept, at least this many seconds
  double mix_step       = 0.15;  // mix: fraction of newly found slack taken per occurrence (0,1]; 0.15: pipelines (README)
  double switch_latency = 0;     // s a switch takes (mix avoids parts shorter than this)
  double switch_energy  = 0;     // J per switch (mix mixes only when it pays for its extra switch)
};

// Applies "key=value,key=value" (keys as the fields above, '-' or '_'; booleans 0/1/true/false).
// Throws haec::InputError naming `what` for an unknown key or a non-numeric value.
void apply_params(GovernorParams& params, const std::string& text, const std::string& what);
// Throws haec::InputError naming `what` for a value outside its range (period <= 0, thresholds
// outside (0,1], negative delays...); the pstate range is checked against a host by make_governor.
void check_params(const GovernorParams& params, const std::string& what);

class Governor {
public:
  Governor(std::string name, PstateTable table);
  virtual ~Governor() = default;
  Governor(const Governor&) = delete;
  Governor& operator=(const Governor&) = delete;

  const std::string& name() const { return name_; }
  const PstateTable& table() const { return table_; }
  virtual int initial_pstate() const { return table_.fastest(); } // set once at start
  virtual bool samples_load() const { return false; }

  virtual Plan on_sample(double /*load*/) { return {}; }
  virtual Plan on_task_start(uint64_t /*key*/, double /*flops*/, int /*rank*/ = 0) { return {}; }
  virtual void on_task_end(const TaskObservation& /*observation*/) {}
  virtual Plan on_iteration(const IterationStats& /*stats*/) { return {}; }
  void on_pstate_changed(int pstate) { current_ = pstate; }

protected:
  static Plan set(int pstate) { return Plan{pstate, 0, -1}; }
  // The governor's view of the current pstate, as an allowed level (0 = fastest).
  int current_level() const { return table_.level(table_.nearest_allowed(current_)); }

  std::string name_;
  PstateTable table_;
  int current_;
};

// Names accepted by make_governor, in a stable order.
const std::vector<std::string>& governor_names();

// Throws haec::InputError naming `what`: unknown name (lists the valid ones), pstate range
// outside the host's table, period <= 0, thresholds outside (0,1], bad governor parameters, no
// power profile for the energy-aware governors (lagrange, mix).
std::unique_ptr<Governor> make_governor(const std::string& name, const GovernorParams& params, const HostModel& host,
                                        const std::string& what = "governor");

} // namespace haec::dvfs
