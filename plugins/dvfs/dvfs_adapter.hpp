// The DVFS adapter's state and its class, shared by the adapter's files: dvfs_plugin.cpp (observing
// the ranks and setting the pstates), dvfs_plan.cpp (Lagrange's coordinated plan) and
// dvfs_results.cpp (iterations.csv, dvfs.csv, the offline optimum). Internal to the plugin.
#pragma once
#include "dvfs_observer.hpp"
#include "dvfs_settings.hpp"
#include "governor.hpp"
#include "input_error.hpp"
#include "offline_optimum.hpp"
#include "peer_slack.hpp"
#include "plan_horizon.hpp"
#include "plan_pstates.hpp"
#include "power_profile.hpp"
#include "run.hpp"
#include "units.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace haec::dvfs::adapter {

namespace sg4   = simgrid::s4u;
namespace timer = simgrid::kernel::timer;

constexpr double kNever = -1;

struct HostDvfs;

struct RankTrack {
  HostDvfs* host = nullptr;
  int rank       = -1;
  int local      = 0; // index of the rank among its host's ranks
  // current computation
  double comp_start = 0, comp_flops = 0;
  HostDvfs* comp_host = nullptr; // where the running computation runs (its rank may migrate later)
  uint64_t comp_key = 0;
  // the last ended one, waiting for its MPI time
  bool pending      = false;
  TaskRecord last;
  double last_end = kNever;
  double idle_mark = 0; // its host's idle_accum when the last computation ended
  // iterations
  bool tracked = false;
  TaskKeys keys;
  IterationRecord iter;
  double t_lib_floor = -1;  // the rank's smallest MPI time after a computation (-1: none yet)
  double slack_ratio = -1;  // IterationStats::slack_ratio of the current iteration (-1: none yet)
  size_t position = 0;      // computations started in the current iteration (lagrange_plan)
  size_t comp_iteration = 0, comp_position = 0; // of the current computation
};

struct HostDvfs {
  static simgrid::xbt::Extension<sg4::Host, HostDvfs> EXTENSION_ID;
  sg4::Host* host = nullptr;
  std::unique_ptr<Governor> governor;
  HostModel model;                    // for the offline optimum
  size_t index = 0;                   // in hosts_
  int local_ranks = 0;                // ranks seen on this host (task keys are per rank)
  int min_pstate = 0, max_pstate = 0;
  double delay_watts = 0;             // the other hosts' least idle power (IterationStats::delay_watts)
  // load accounting for sampling: busy core-seconds since the last sample
  int running        = 0;
  double busy_since  = 0; // last change of `running`
  double busy_accum  = 0;
  double idle_accum  = 0; // seconds with nothing running, since the start
  double last_sample = 0;
  timer::Timer* sample_timer = nullptr;
  timer::Timer* plan_timer   = nullptr; // second part of a two-pstate plan, or a delayed switch
  long switches              = 0;
};

class DvfsPlugin {
public:
  void start();

private:
  sg4::Host* govern(sg4::Host* h, const std::string& name);
  void subscribe();
  void on_computation_started(const core::ComputationStarted& e);
  void on_computation_ended(const core::ComputationEnded& e);
  void on_boundary(const core::IterationBoundary& b);
  void on_actor_end(const sg4::Actor& actor);
  void contribute(core::Results& results);
  void add_optimum(core::Results& results, const std::vector<IterationRecord>& rows);
  void add_free_float_bound(core::Results& results, const std::vector<PstateTable>& tables);
  std::string float_graph_json(const FloatGraph& g, const std::vector<PstateTable>& tables) const;
  RankTrack& track(long pid);
  void apply(HostDvfs& hd, const Plan& d);
  void set_pstate(HostDvfs& hd, int pstate);
  void sample(HostDvfs& hd);
  void arm_sampling(HostDvfs& hd);
  void set_delay_watts();
  void note_slack(RankTrack& rt, double now);
  void on_transfer(const core::TransferCompleted& t);
  void close_iteration(RankTrack& rt, double now);
  void busy_change(HostDvfs& hd, int delta, double now);
  bool planning() const { return planner_.has_value() && !planner_->refused() && !plan_off_; }
  const char* plan_refusal() const;
  // A plan would be too large to solve at every iteration: race rather than fall back on the local
  // rules, which lengthened a 64-rank stencil by half (plugins/dvfs/README.md).
  bool racing_instead() const { return planner_.has_value() && planner_->too_large(); }
  void set_plan_levels(const RankTrack& rt);
  void feed_messages();
  Plan planned(const RankTrack& rt, const HostDvfs& hd) const;
  void iteration_completed(int iteration);

  DvfsConfig config_;
  std::vector<sg4::Host*> hosts_;
  std::vector<RankTrack> ranks_; // by pid
  // exec -> its rank's pid + 1 (0: not followed), in an extension slot of the execution (no
  // deleter: a number, not owned): an array read instead of a hash node per computation.
  const size_t exec_pid_slot_ = sg4::Activity::extension_create(nullptr);
  std::vector<IterationRecord> iterations_;
  std::map<int, HostDvfs*> host_of_rank_;
  std::optional<PeerLedger> peers_; // peer_slack, peer_float or peer_chain: whom each rank waited for
  std::optional<HorizonPlanner> planner_; // lagrange_plan: the coordinated plan (plan_horizon.hpp)
  size_t messages_fed_ = 0;               // the ledger's messages given to the planner
  std::map<int, int> completed_;          // iteration -> ranks that completed it (lagrange_plan)
  int ranks_seen_ = 0;
  bool plan_off_  = false; // a host holds several ranks: no plan, Lagrange's own rules
  int live_ranks_ = 0;
  bool finished_  = false;
  double switch_energy_j_ = 0;
};

DvfsPlugin& plugin();

} // namespace haec::dvfs::adapter
