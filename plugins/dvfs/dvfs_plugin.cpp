// SimGrid adapter of the DVFS governors (MODELS.md §5): one governor per host, kept in a host
// extension, fed with what the host's ranks do and obeyed by setting the host's pstate.
//
// What it observes (no actor of its own, so rank numbering never shifts, in emulation or replay):
//   - computations (the core's ComputationStarted/Ended events) of single-host executions
//     (SMPI's measured bursts, smpi_execute_flops, replayed compute actions; not SMPI's iprobe
//     polling); each is a task keyed by its code region (core::current_region) and occurrence
//     in the iteration; the time from its end to the next computation is its MPI time t_lib;
//   - MPI calls and the iteration boundaries the core finds in them (haec/iterations: repeating
//     call sites, or user-given markers), from our PMPI layer or the replayed actions;
//   - the host's load, sampled every haec/dvfs/period by kernel timers (ondemand, conservative).
// Pstate changes: immediately, or haec/dvfs/switch-latency later (the host keeps its old
// frequency meanwhile), each charged haec/dvfs/switch-energy joules; a two-pstate plan ("mix")
// switches again after its first part with a kernel timer. Timers are removed when the last rank
// ends, so they never stretch the simulated time.
// Lagrange's coordinated plan (lagrange_plan, plan_horizon.hpp): the ledger's computations and
// messages go to the planner, which plans when every rank has completed an iteration; each
// computation then runs at the cheapest plan of its planned length (window_plan.hpp).
#include "dvfs_adapter.hpp"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(haec_dvfs, smpi, "HAEC DVFS governors");

namespace haec::dvfs::adapter {

simgrid::xbt::Extension<sg4::Host, HostDvfs> HostDvfs::EXTENSION_ID;

DvfsPlugin& plugin()
{
  static DvfsPlugin instance;
  return instance;
}

// Host creation fires twice for XML platforms (measured): one governor per host, created once
// the platform exists, never from host signals.
void DvfsPlugin::start()
{
  config_ = core::configure(dvfs_config);
  for (auto* h : sg4::Engine::get_instance()->get_all_hosts()) {
    if (dynamic_cast<sg4::VirtualMachine*>(h))
      continue;
    const char* own        = h->get_property("haec:governor");
    const std::string name = own ? own : config_.governor;
    if (!name.empty())
      hosts_.push_back(govern(h, name));
  }
  if (hosts_.empty())
    return;
  set_delay_watts();
  for (auto* h : hosts_)
    arm_sampling(*h->extension<HostDvfs>());
  subscribe();
  XBT_INFO("DVFS: %zu hosts governed", hosts_.size());
}

sg4::Host* DvfsPlugin::govern(sg4::Host* h, const std::string& name)
{
  const int count = static_cast<int>(h->get_pstate_count());
  std::vector<double> speeds;
  for (int p = 0; p < count; ++p)
    speeds.push_back(h->get_pstate_speed(p));
  std::optional<power::HostPowerProfile> power;
  try { // the platform's power properties
    power = power::parse_host_power(
        h->get_name(), [h](const std::string& k) { return h->get_property(k); }, h->get_pstate_count(),
        h->get_core_count());
  } catch (const haec::InputError& e) { // the platform's power properties: bad input (exit 2)
    core::reject_setting(e.what());
  } catch (const std::exception& e) {
    core::fail_run(e.what());
  }
  auto* hd  = new HostDvfs;
  hd->host  = h;
  hd->index = hosts_.size();
  // A computation occupies one core: the governors price busy time at one busy core (one rank
  // per node, as in the thesis's experiments).
  hd->model = HostModel{speeds, *power, 0, count - 1, 1.0};
  try { // the settings against this host (its pstates, its power profile)
    hd->governor = make_governor(name, config_.params, hd->model, "host " + h->get_name() + " governor");
  } catch (const std::exception& e) {
    core::reject_setting(e.what());
  }
  hd->min_pstate = std::min(hd->governor->table().fastest(), hd->governor->table().slowest());
  hd->max_pstate = std::max(hd->governor->table().fastest(), hd->governor->table().slowest());
  h->extension_set(hd);
  if (auto first = hd->governor->initial_pstate(); first >= 0)
    set_pstate(*hd, first);
  else
    hd->governor->on_pstate_changed(static_cast<int>(h->get_pstate()));
  return h;
}

// What lengthening an iteration by one second costs the rest of the run: every other governed
// host idles meanwhile, at least at its least idle power (the max term of the thesis's (9.4)).
void DvfsPlugin::set_delay_watts()
{
  auto least_idle = [](const HostDvfs& hd) {
    if (!hd.model.power.has_profile())
      return 0.0;
    double w = hd.model.power.watts(hd.min_pstate, 0);
    for (int p = hd.min_pstate + 1; p <= hd.max_pstate; ++p)
      w = std::min(w, hd.model.power.watts(p, 0));
    return w;
  };
  double total = 0;
  for (auto* h : hosts_)
    total += least_idle(*h->extension<HostDvfs>());
  for (auto* h : hosts_) {
    auto* hd        = h->extension<HostDvfs>();
    hd->delay_watts = total - least_idle(*hd);
  }
}

void DvfsPlugin::subscribe()
{
  auto& bus = core::bus();
  // The thesis's literal formulas are the thesis's governor: no plan.
  const bool plan = config_.governor == "lagrange" && config_.params.lagrange_plan > 0 && !config_.params.lagrange_thesis;
  if (plan)
    planner_.emplace(config_.params.lagrange_plan, config_.params.lagrange_plan_cap,
                     config_.params.lagrange_plan_max > 0 ? static_cast<size_t>(config_.params.lagrange_plan_max)
                                                          : std::numeric_limits<size_t>::max(),
                     HorizonPlanner::solver(config_.params.lagrange_plan_solver), static_cast<size_t>(config_.params.lagrange_plan_lookahead),
                     static_cast<size_t>(config_.params.lagrange_plan_scale_ranks));
  if (config_.params.peer_slack || config_.params.peer_float || config_.params.peer_chain > 0 || plan) {
    peers_.emplace(config_.params.peer_slack, config_.params.peer_float,
                   config_.governor == "performance" || plan, config_.params.peer_chain > 0);
    bus.transfer_completed.subscribe([this](const core::TransferCompleted& t) { on_transfer(t); });
  }
  bus.computation_started.subscribe([this](const core::ComputationStarted& e) { on_computation_started(e); });
  bus.computation_ended.subscribe([this](const core::ComputationEnded& e) { on_computation_ended(e); });
  bus.iteration_boundaries.subscribe([this](const core::IterationBoundary& b) { on_boundary(b); });
  bus.mpi_calls.subscribe([this](const core::MpiCall& c) { // a rank's iteration 0 starts at its first call
    if (c.enter)
      track(c.pid);
  });
  sg4::Actor::on_termination_cb([this](sg4::Actor const& a) { on_actor_end(a); });
  core::add_results_writer([this](core::Results& r) { contribute(r); });
}

RankTrack& DvfsPlugin::track(long pid)
{
  if (pid >= static_cast<long>(ranks_.size()))
    ranks_.resize(static_cast<size_t>(pid) + 1);
  RankTrack& rt = ranks_[static_cast<size_t>(pid)];
  if (!rt.tracked) {
    auto* actor   = sg4::Actor::self();
    rt.tracked    = true;
    rt.host       = actor ? actor->get_host()->extension<HostDvfs>() : nullptr;
    rt.rank       = core::rank_of(pid);
    rt.iter.rank  = rt.rank;
    rt.iter.start = sg4::Engine::get_clock();
    if (rt.host) {
      rt.local               = rt.host->local_ranks++;
      host_of_rank_[rt.rank] = rt.host;
      set_plan_levels(rt);
    }
    ++live_ranks_;
    ++ranks_seen_;
  }
  return rt;
}

void DvfsPlugin::busy_change(HostDvfs& hd, int delta, double now)
{
  if (hd.running > 0)
    hd.busy_accum += hd.running * (now - hd.busy_since);
  else
    hd.idle_accum += now - hd.busy_since;
  hd.running += delta;
  hd.busy_since = now;
}

void DvfsPlugin::on_computation_started(const core::ComputationStarted& e)
{
  const sg4::Exec& exec = e.exec;
  if (e.host == nullptr || e.polling || e.pid < 0)
    return;
  HostDvfs* hd = e.host->extension<HostDvfs>();
  if (hd == nullptr)
    return;
  const double now = e.time;
  const long pid   = e.pid;
  RankTrack& rt    = track(pid);
  busy_change(*hd, +1, now);
  if (rt.host != hd) { // the rank migrated (load balancing): the new host's governor starts afresh with it
    rt.host                = hd;
    rt.local               = hd->local_ranks++;
    rt.pending             = false;
    host_of_rank_[rt.rank] = hd;
  }
  const uint32_t region = e.region;
  rt.comp_key = rt.keys.key(region == core::kNoRegion ? 0 : region + 1); // the ledger needs it (peer_chain)
  // The previous computation's MPI time ends here: the governor learns it.
  if (rt.pending) {
    // The slack this task left is the time its host stayed idle until the rank computes again:
    // with one rank per core that is the rank's MPI time; with several ranks sharing a core
    // (over-decomposition), the others' computations are not slack.
    rt.last.t_lib = std::min(now - rt.last_end, hd->idle_accum - rt.idle_mark);
    hd->governor->on_task_end(TaskObservation{rt.last.key, rt.last.flops, rt.last.t_comp, rt.last.t_lib, rt.local});
    XBT_DEBUG("task end: rank %d key %llx flops %g t_comp %.6f t_lib %.6f pstate %lu", rt.rank,
              static_cast<unsigned long long>(rt.last.key), rt.last.flops, rt.last.t_comp, rt.last.t_lib,
              hd->host->get_pstate());
    rt.pending = false;
    note_slack(rt, now);
  } else if (peers_) {
    peers_->computation_starts(rt.rank, now, 0, rt.comp_key);
  }
  rt.comp_start     = now;
  rt.comp_flops     = exec.get_cost();
  rt.comp_iteration = static_cast<size_t>(std::max(0, rt.iter.iteration));
  rt.comp_position  = rt.position++;
  rt.comp_host      = hd;
  const_cast<sg4::Exec&>(exec).extension_set(exec_pid_slot_, reinterpret_cast<void*>(pid + 1), false);
  Plan plan = hd->governor->on_task_start(rt.comp_key, rt.comp_flops, rt.local);
  if (planning()) {
    feed_messages();
    plan = planned(rt, *hd);
  } else if (racing_instead()) {
    plan = Plan{hd->governor->table().fastest(), 0, -1};
  }
  // Several ranks computing on the host at once (over-decomposition): one rank's slack is not
  // the others'. Its plan may speed the host up, never slow it down under them.
  if (hd->running > 1 && plan.pstate >= 0 &&
      hd->host->get_pstate_speed(plan.pstate) < hd->host->get_pstate_speed(hd->host->get_pstate()))
    plan = Plan{};
  apply(*hd, plan);
}

// The wait after the last computation, per second of computation, for Lagrange's window. With
// peer_slack, only the part of it that the peer's lateness does not explain (peer_slack.hpp).
void DvfsPlugin::note_slack(RankTrack& rt, double now)
{
  const bool timed = rt.last.t_comp > 0; // a computation that took no time tells nothing
  if (timed && (rt.t_lib_floor < 0 || rt.last.t_lib < rt.t_lib_floor))
    rt.t_lib_floor = rt.last.t_lib;
  double wait = rt.last.t_lib - rt.t_lib_floor;
  if (peers_)
    wait = peers_->computation_starts(rt.rank, now, wait, rt.comp_key);
  if (!timed)
    return;
  const double ratio = wait / rt.last.t_comp;
  rt.slack_ratio     = rt.slack_ratio < 0 ? ratio : std::min(rt.slack_ratio, ratio);
}

// A message between two nodes holding one rank each (else the transfer names no rank).
void DvfsPlugin::on_transfer(const core::TransferCompleted& t)
{
  const core::Transfer& x = t.transfer;
  if (x.src_rank >= 0 && x.dst_rank >= 0)
    peers_->message(x.src_rank, x.dst_rank, x.start, x.end);
}

void DvfsPlugin::on_computation_ended(const core::ComputationEnded& e)
{
  const auto pid_plus_one = reinterpret_cast<uintptr_t>(e.exec.extension(exec_pid_slot_));
  if (pid_plus_one == 0)
    return;
  const_cast<sg4::Activity&>(e.exec).extension_set(exec_pid_slot_, nullptr, false);
  RankTrack& rt    = ranks_[pid_plus_one - 1];
  HostDvfs* ran_on = rt.comp_host;
  const double end = e.end;
  busy_change(*ran_on, -1, end);
  rt.idle_mark  = ran_on->idle_accum;
  rt.last       = TaskRecord{rt.comp_key, rt.comp_flops, end - rt.comp_start, 0, rt.comp_start};
  rt.last_end   = end;
  const double race = rt.comp_flops / ran_on->governor->table().fastest_speed();
  if (peers_)
    peers_->computation_ended(rt.rank, end, rt.last.t_comp, race, rt.comp_key);
  if (planning() && rt.rank >= 0)
    planner_->computation(static_cast<size_t>(rt.rank), rt.comp_iteration, rt.comp_position, rt.comp_start, end, race);
  rt.pending    = true;
  rt.iter.flops += rt.comp_flops;
  rt.iter.t_comp += end - rt.comp_start;
  if (rt.host && rt.host->plan_timer && rt.host->running == 0) { // the planned computation is over
    rt.host->plan_timer->remove();
    rt.host->plan_timer = nullptr;
  }
}

void DvfsPlugin::on_boundary(const core::IterationBoundary& b)
{
  RankTrack& rt = track(b.pid);
  if (rt.host != nullptr)
    close_iteration(rt, b.time);
}

void DvfsPlugin::close_iteration(RankTrack& rt, double now)
{
  rt.iter.end = now;
  iterations_.push_back(rt.iter); // iteration 0: the prologue before the loop's first boundary
  const IterationRecord done = rt.iter;
  rt.iter           = IterationRecord{};
  rt.iter.rank      = rt.rank;
  rt.iter.iteration = done.iteration + 1;
  rt.iter.start     = now;
  rt.keys.new_iteration();
  rt.position = 0;
  const PeerLedger::Share peer = peers_ ? peers_->close_iteration(rt.rank) : PeerLedger::Share{};
  const double done_slack      = peer.capped(rt.slack_ratio, config_.params.peer_chain);
  rt.slack_ratio               = -1;
  if (done.iteration <= 0)
    return;
  const Plan own = rt.host->governor->on_iteration(IterationStats{
      rt.local, done.flops, done.t_comp, done.t_mpi(), done.duration(), rt.host->delay_watts, done_slack, peer.blame});
  if (planning())
    iteration_completed(done.iteration); // the plan sets the pstates, per computation
  else if (!racing_instead())
    apply(*rt.host, own);
}

void DvfsPlugin::set_pstate(HostDvfs& hd, int pstate)
{
  pstate = std::clamp(pstate, hd.min_pstate, hd.max_pstate);
  if (static_cast<unsigned long>(pstate) == hd.host->get_pstate())
    return;
  hd.host->set_pstate(pstate);
  hd.governor->on_pstate_changed(pstate);
  ++hd.switches;
  switch_energy_j_ += config_.params.switch_energy;
}

void DvfsPlugin::apply(HostDvfs& hd, const Plan& d)
{
  if (d.pstate < 0)
    return;
  if (hd.plan_timer) { // a newer decision replaces the pending part of the last one
    hd.plan_timer->remove();
    hd.plan_timer = nullptr;
  }
  const double now     = sg4::Engine::get_clock();
  const double latency = config_.params.switch_latency;
  HostDvfs* h          = &hd;
  if (latency > 0 && static_cast<unsigned long>(d.pstate) != hd.host->get_pstate()) {
    const Plan later{d.pstate, d.first_seconds > latency ? d.first_seconds - latency : 0, d.then_pstate};
    hd.plan_timer = timer::Timer::set(now + latency, [this, h, later] {
      h->plan_timer = nullptr;
      set_pstate(*h, later.pstate);
      if (later.then_pstate >= 0 && later.first_seconds > 0)
        apply(*h, Plan{later.then_pstate, 0, -1});
    });
    return;
  }
  set_pstate(hd, d.pstate);
  if (d.then_pstate >= 0 && d.then_pstate != d.pstate && d.first_seconds > 0) {
    const int then = d.then_pstate;
    hd.plan_timer  = timer::Timer::set(now + d.first_seconds, [this, h, then] {
      h->plan_timer = nullptr;
      set_pstate(*h, then);
    });
  }
}

void DvfsPlugin::arm_sampling(HostDvfs& hd)
{
  if (!hd.governor->samples_load())
    return;
  HostDvfs* h     = &hd;
  hd.sample_timer = timer::Timer::set(sg4::Engine::get_clock() + config_.params.period, [this, h] {
    h->sample_timer = nullptr;
    if (finished_)
      return;
    sample(*h);
    arm_sampling(*h);
  });
}

void DvfsPlugin::sample(HostDvfs& hd)
{
  const double now = sg4::Engine::get_clock();
  busy_change(hd, 0, now);
  const double span = now - hd.last_sample;
  // Busy fraction of the cores the host's ranks use (one rank on a 12-core node fully busy is
  // load 1, as the per-core load Linux's ondemand looks at).
  const int used    = std::clamp(hd.local_ranks, 1, static_cast<int>(hd.host->get_core_count()));
  double load       = span > 0 ? hd.busy_accum / (span * used) : 0;
  load              = std::clamp(load, 0.0, 1.0);
  hd.busy_accum     = 0;
  hd.last_sample    = now;
  apply(hd, hd.governor->on_sample(load));
}

// The last rank ended: drop every pending timer, or the clock would run on to them.
void DvfsPlugin::on_actor_end(const sg4::Actor& actor)
{
  if (finished_ || actor.get_pid() >= static_cast<long>(ranks_.size()) ||
      !ranks_[static_cast<size_t>(actor.get_pid())].tracked)
    return;
  if (--live_ranks_ > 0)
    return;
  finished_ = true;
  for (auto* h : hosts_) {
    auto* hd = h->extension<HostDvfs>();
    for (timer::Timer** t : {&hd->sample_timer, &hd->plan_timer})
      if (*t) {
        (*t)->remove();
        *t = nullptr;
      }
  }
}

struct Registration {
  Registration()
  {
    HostDvfs::EXTENSION_ID = sg4::Host::extension_create<HostDvfs>();
    core::register_plugin("dvfs", 30, [] { plugin().start(); });
  }
} registration;

} // namespace haec::dvfs::adapter
