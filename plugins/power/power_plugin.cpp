// SimGrid adapter of the power model (MODELS.md §4): one HostEnergyMeter per host, kept in a
// host extension as SimGrid's own host_energy plugin does, fed at every change point of a host's
// power: a computation starts or ends (the core's computation events), a rank polls (polling
// events), the pstate changes (Host::on_speed_change), the host goes on or off
// (Host::on_state_change), and the simulation ends. Links: static power for the whole run plus an
// energy per bit, the bytes of each transfer (the core's transfer events) being charged to every
// link of its route. Enabled by --cfg=haec/power:yes; contributes hosts.csv, links.csv (and
// power.csv with haec/power/series) and the energy figures of summary.json.
#include "energy_meter.hpp"
#include "input_error.hpp"
#include "link_energy.hpp"
#include "power_profile.hpp"
#include "power_settings.hpp"
#include "power_tables.hpp"
#include "run.hpp"
#include "simgrid_compat.hpp"
#include "checks.hpp"
#include "units.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include <boost/container_hash/hash.hpp>

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(haec_power, smpi, "HAEC power model: host and link energy");

namespace sg4 = simgrid::s4u;

namespace haec::power {
namespace {

// Per-host state, attached to the host as SimGrid's host_energy plugin does.
struct HostPower {
  static simgrid::xbt::Extension<sg4::Host, HostPower> EXTENSION_ID;
  HostPower(size_t i, HostEnergyMeter m, double polling) : index(i), meter(std::move(m)), polling_share(polling) {}
  size_t index; // row in hosts.csv and power.csv
  HostEnergyMeter meter;
  double polling_share; // of a core, while a rank polls (haec:polling, else haec/power/polling)
};
simgrid::xbt::Extension<sg4::Host, HostPower> HostPower::EXTENSION_ID;

struct LinkInfo {
  sg4::Link* link;
  std::string type;
  LinkWattage wattage;
  double bytes   = 0; // occupancy: the integral of the link's usage (bytes/s) over the run
  double payload = 0; // MPI payload of the transfers routed through it
  double off_s   = 0; // time switched off, up to off_since
  double off_since = -1; // when it went off, -1 while on
  double off_until(double now) const { return off_s + (off_since >= 0 ? now - off_since : 0); }
};

// Routes (as link indices) are cached per host pair; beyond this many pairs the cache restarts.
constexpr size_t kMaxCachedRoutes = 1 << 16;

struct Totals {
  std::vector<HostRow> hosts;
  std::vector<LinkRow> links;
  double host_j = 0, link_j = 0;
};

class PowerPlugin {
public:
  void start();

private:
  void setup_hosts(double now);
  void setup_links(double now);
  void subscribe();
  void on_computation_started(const core::ComputationStarted& e);
  void on_computation_ended(const core::ComputationEnded& e);
  void on_host_change(const sg4::Host& host);
  void on_link_state(const sg4::Link& link);
  void on_polling(const core::Polling& p);
  void on_transfer(const core::TransferCompleted& t);
  const std::vector<size_t>& route(const sg4::Host* src, const sg4::Host* dst);
  // The links a transfer took: its own route under haec/routing, else the pair's static one.
  const std::vector<size_t>& route_of(const std::vector<sg4::Link*>* taken, const sg4::Host* src,
                                      const sg4::Host* dst);
  std::vector<size_t> taken_ids_;
  Totals totals(); // integrates every host up to now (idempotent at one instant)
  void contribute(core::Results& results);
  void log_totals(const Totals& t);
  HostPower* of(const sg4::Host* host) const;
  void record(HostPower& hp);

  PowerConfig config_;
  double polling_share_ = 1;
  int envelope_         = 0;
  bool crosstraffic_    = false;
  std::vector<sg4::Host*> hosts_; // output order
  std::vector<std::string> host_names_;
  std::vector<LinkInfo> links_;
  std::unordered_map<const sg4::Link*, size_t> link_index_;
  // The core's link id -> index in links_ (kNotPowered: no power model; kUnknown: not looked up).
  static constexpr long kNotPowered = -1, kUnknown = -2;
  std::vector<long> index_of_core_link_;
  const std::vector<size_t>& crossed(const std::vector<uint32_t>& core_link_ids);
  // Looked up once per transfer: hashed
  using HostPair = std::pair<const sg4::Host*, const sg4::Host*>;
  std::unordered_map<HostPair, std::vector<size_t>, boost::hash<HostPair>> routes_;
  struct Running {
    HostPower* host;
    double share; // of a core
    int workload;
    uint64_t counted = 0; // the computation's id in the counter model, 0 when not priced by counters
  };
  // The computations being charged: each found from its activity (an extension slot pointing into
  // a pool whose entries never move), so that starting and ending one hashes and allocates nothing.
  std::deque<Running> running_pool_;
  std::vector<Running*> free_running_;
  const size_t running_slot_ = sg4::Activity::extension_create(nullptr); // no deleter: the pool owns
  void start_running(const sg4::Exec& exec, const Running& r);
  std::optional<Running> end_running(const sg4::Activity& exec);
  std::unordered_map<long, HostPower*> polling_; // actor pid -> its host, inside an MPI_Test*
  std::optional<PowerSeries> series_;
  bool warned_parallel_ = false, logged_ = false;
  unsigned long long change_points_ = 0; // computation starts and ends, pstate and state changes

  // Workload phases (haec/power/workloads): profile index p is meter workload p + 1 on every host.
  int workload_of(const sg4::Host* host, uint32_t region); // for a computation the calling actor starts now
  void load_workloads();
  void check_workloads_used(); // regions and ranks the file names must have occurred
  // Counter-based power (haec/power/model:counters): each computation priced by its counter rates.
  void setup_counter_model(sg4::Host* h, HostEnergyMeter& meter);
  uint64_t start_counted(const core::ComputationStarted& e, HostPower& hp);
  [[noreturn]] void refuse_uncounted(const core::ComputationStarted& e);
  std::vector<size_t> coefficient_of_event_; // the core's counter_events() -> coefficient index
  uint64_t counted_ = 0;                     // computations priced by counters so far (their ids)
  std::vector<int> profile_of_region_;  // core region id -> profile (-1: none, -2: not looked up)
  std::set<std::string> regions_seen_;
  int max_rank_seen_ = -1;
};

PowerPlugin& plugin()
{
  static PowerPlugin instance;
  return instance;
}

// Only physical hosts carry a HostPower: the slot first, the cast (a VM's host) only without one.
HostPower* PowerPlugin::of(const sg4::Host* host) const
{
  if (host == nullptr)
    return nullptr;
  if (HostPower* hp = host->extension<HostPower>())
    return hp;
  const auto* vm = dynamic_cast<const sg4::VirtualMachine*>(host);
  return vm != nullptr && vm->get_pm() != nullptr ? vm->get_pm()->extension<HostPower>() : nullptr;
}

void PowerPlugin::record(HostPower& hp)
{
  if (series_)
    series_->record(hp.index, sg4::Engine::get_clock(), hp.meter.watts());
}

// Hosts in node order when the platform numbers them (haec:node), else by name.
std::vector<sg4::Host*> ordered_hosts()
{
  auto hosts = sg4::Engine::get_instance()->get_all_hosts();
  hosts.erase(std::remove_if(hosts.begin(), hosts.end(),
                             [](sg4::Host* h) { return dynamic_cast<sg4::VirtualMachine*>(h) != nullptr; }),
              hosts.end());
  bool numbered = std::all_of(hosts.begin(), hosts.end(), [](sg4::Host* h) { return h->get_property("haec:node"); });
  std::sort(hosts.begin(), hosts.end(), [numbered](sg4::Host* a, sg4::Host* b) {
    if (numbered)
      return std::atol(a->get_property("haec:node")) < std::atol(b->get_property("haec:node"));
    return a->get_name() < b->get_name();
  });
  return hosts;
}

// A host without a power profile would report 0 J: refused before the run (exit 2), naming the
// first such host. Hosts with the old SimGrid names get parse_host_power's own message.
void refuse_hosts_without_power()
{
  for (sg4::Host* h : ordered_hosts()) {
    bool has = false;
    for (const char* name : {"wattage_per_state", "haec:wattage_calibration", "watt_per_state", "watt_off"})
      has = has || h->get_property(name) != nullptr;
    if (has)
      continue;
    const bool generated = h->get_property("haec:node") != nullptr; // built from a platform spec
    core::reject_setting(InputError("host " + h->get_name(), "has no power profile (no wattage_per_state property)",
                                    generated ? "add wattage=idle:epsilon:all_cores/... (one per pstate) to the "
                                                "platform spec, or run without energy"
                                              : "give every host wattage_per_state=\"idle:epsilon:all_cores,...\" "
                                                "(one per pstate), or run without energy")
                             .what());
  }
}

void PowerPlugin::start()
{
  config_ = core::configure(power_config);
  if (!config_.enabled)
    return;
  if (config_.workloads) // the ranks a workload file names must exist (smpirun's -np)
    if (const int ranks = simgrid::config::get_value<int>("smpi/np"); ranks > 0 && config_.workloads->max_rank() >= ranks)
      core::reject_setting(InputError(config_.workloads->file(),
                                      "names rank " + std::to_string(config_.workloads->max_rank()) +
                                          " but the highest rank is " + std::to_string(ranks - 1),
                                      "use ranks below -np")
                               .what());
  polling_share_ = config_.polling ? *config_.polling : simgrid::config::get_value<double>("smpi/iprobe-cpu-usage");
  envelope_      = core::smpi_envelope();
  crosstraffic_  = simgrid::config::get_value<bool>("network/crosstraffic");
  if (!config_.counters) // the counter model takes its power from its coefficients
    refuse_hosts_without_power();
  const double now = sg4::Engine::get_clock();
  try { // the platform's power properties: wrong ones make the run's energy wrong
    setup_hosts(now);
    setup_links(now);
    load_workloads();
  } catch (const InputError& e) { // the platform's or the workload file's fault: bad input (exit 2)
    core::reject_setting(e.what());
  } catch (const std::exception& e) {
    core::fail_run(e.what());
  }
  if (config_.series) {
    series_.emplace(hosts_.size());
    for (sg4::Host* h : hosts_)
      record(*h->extension<HostPower>());
  }
  subscribe();
}

void PowerPlugin::setup_hosts(double now)
{
  hosts_ = ordered_hosts();
  for (size_t i = 0; i < hosts_.size(); ++i) {
    sg4::Host* h = hosts_[i];
    auto profile = parse_host_power(
        h->get_name(), [h](const std::string& name) { return h->get_property(name); }, h->get_pstate_count(),
        h->get_core_count());
    HostEnergyMeter meter(std::move(profile), h->get_pstate_count(), now);
    if (config_.counters)
      setup_counter_model(h, meter);
    meter.set_pstate(static_cast<int>(h->get_pstate()), now);
    meter.set_on(h->is_on(), now);
    double polling = polling_share_;
    if (const char* text = h->get_property("haec:polling")) {
      const std::string what = "host " + h->get_name() + " property haec:polling";
      polling                = units::parse_number(text, what);
      if (!(polling >= 0 && polling <= 1))
        throw InputError(what, "must be in [0,1]", "give the share of a core a polling loop uses, e.g. 0.5");
    }
    h->extension_set(new HostPower(i, std::move(meter), polling));
    host_names_.push_back(h->get_name());
  }
}

// Every pstate of the host needs its coefficients; the rates follow the host's speed per pstate.
void PowerPlugin::setup_counter_model(sg4::Host* h, HostEnergyMeter& meter)
{
  const CounterCoefficients& c = *config_.counters;
  const size_t pstates         = h->get_pstate_count();
  if (c.pstates().size() < pstates)
    throw InputError(config_.counters_file,
                     "has coefficients for " + std::to_string(c.pstates().size()) + " pstates but host " +
                         h->get_name() + " has " + std::to_string(pstates),
                     "fit every pstate of the platform's hosts (haec calibrate power --counters)");
  std::vector<double> speeds;
  for (size_t p = 0; p < pstates; ++p)
    speeds.push_back(h->get_pstate_speed(static_cast<unsigned long>(p)));
  meter.use_counter_model(CounterNodePower(c, std::move(speeds), h->get_core_count()));
}

void PowerPlugin::setup_links(double now)
{
  auto links = sg4::Engine::get_instance()->get_all_links();
  std::sort(links.begin(), links.end(), [](sg4::Link* a, sg4::Link* b) { return a->get_name() < b->get_name(); });
  for (sg4::Link* l : links) {
    LinkInfo info{l, l->get_property("haec:type") ? l->get_property("haec:type") : "", {}};
    if (const char* range = l->get_property("wattage_range"))
      info.wattage = parse_wattage_range(l->get_name(), range, l->get_property("wattage_off"));
    else if (auto it = config_.link_wattage.find(info.type); it != config_.link_wattage.end())
      info.wattage = it->second;
    if (!l->is_on())
      info.off_since = now;
    link_index_[l] = links_.size();
    links_.push_back(info);
  }
}

void PowerPlugin::subscribe()
{
  auto& bus = core::bus();
  bus.computation_started.subscribe([this](const core::ComputationStarted& e) { on_computation_started(e); });
  bus.computation_ended.subscribe([this](const core::ComputationEnded& e) { on_computation_ended(e); });
  bus.polling.subscribe([this](const core::Polling& p) { on_polling(p); });
  if (core::recording())
    bus.transfer_completed.subscribe([this](const core::TransferCompleted& t) { on_transfer(t); });
  else
    XBT_INFO("no result directory (haec/out): link energy counts static power only");
  sg4::Host::on_speed_change_cb([this](sg4::Host const& h) { on_host_change(h); });
  haec::simgrid_compat::on_host_onoff([this](sg4::Host const& h) { on_host_change(h); });
  haec::simgrid_compat::on_link_onoff([this](sg4::Link const& l) { on_link_state(l); });
  sg4::Engine::on_simulation_end_cb([this] {
    if (!logged_) // a recording run logged them with its results
      log_totals(totals());
  });
  core::add_results_writer([this](core::Results& r) { contribute(r); });
}

void PowerPlugin::load_workloads()
{
  if (!config_.workloads)
    return;
  const WorkloadSet& w = *config_.workloads;
  for (auto const& [host, profile] : w.hosts())
    if (sg4::Host::by_name_or_null(host) == nullptr)
      throw InputError(w.file(), "hosts entry '" + host + "' is not a host of the platform",
                       "use host names from the platform (hosts.csv lists them)");
  for (sg4::Host* h : hosts_) {
    auto& meter = h->extension<HostPower>()->meter;
    if (!meter.profile().has_profile())
      continue;
    for (size_t p = 0; p < w.profiles().size(); ++p)
      meter.add_workload(w.slopes(p, meter.profile(), h->get_name()));
  }
  XBT_INFO("workload phases from %s: %zu profiles", w.file().c_str(), w.profiles().size());
}

int PowerPlugin::workload_of(const sg4::Host* host, uint32_t region)
{
  if (!config_.workloads || sg4::Actor::self() == nullptr)
    return 0;
  const WorkloadSet& w = *config_.workloads;
  int profile          = -1;
  // Region first: the core interns regions, so each is looked up in the file once.
  if (region != core::kNoRegion && !w.regions().empty()) {
    if (region >= profile_of_region_.size())
      profile_of_region_.resize(region + 1, -2);
    int& cached = profile_of_region_[region];
    if (cached == -2) {
      auto it = w.regions().find(core::region_text(region));
      cached  = it == w.regions().end() ? -1 : it->second;
      if (cached >= 0)
        regions_seen_.insert(it->first);
    }
    profile = cached;
  }
  if (profile < 0) {
    const int rank = core::rank_of(sg4::this_actor::get_pid());
    max_rank_seen_ = std::max(max_rank_seen_, rank);
    profile        = w.choose("", rank, host->get_name());
  }
  return profile + 1;
}

// Names the file gives that the run never met are errors (a typo would silently keep the plain
// model); checked before any result file is written.
void PowerPlugin::check_workloads_used()
{
  if (!config_.workloads)
    return;
  const WorkloadSet& w = *config_.workloads;
  for (auto const& [region, profile] : w.regions())
    if (!regions_seen_.count(region))
      core::reject_setting(InputError(w.file(), "region '" + region + "' never ran a computation",
                                core::calls_reported() ? "use a region key from regions.csv"
                                                       : "regions need the PMPI layer (haec cc) or a trace replay")
                         .what());
  if (w.max_rank() > max_rank_seen_ && max_rank_seen_ >= 0)
    core::reject_setting(InputError(w.file(),
                              "names rank " + std::to_string(w.max_rank()) + " but the highest rank is " +
                                  std::to_string(max_rank_seen_),
                              "use ranks below -np")
                       .what());
}

void PowerPlugin::on_computation_started(const core::ComputationStarted& e)
{
  const sg4::Exec& exec = e.exec;
  if (e.host == nullptr) {
    if (!warned_parallel_)
      XBT_WARN("parallel executions (on several hosts) are not charged by the power model");
    warned_parallel_ = true;
    return;
  }
  HostPower* hp = of(e.host);
  if (!hp)
    return;
  // SMPI's MPI_Iprobe spins as a computation named "iprobe" bounded to smpi/iprobe-cpu-usage of
  // a core; SimGrid's own energy plugin sees that share through the CPU load, we charge it here.
  const double share = e.polling ? hp->polling_share : 1.0;
  if (config_.counters && !e.polling) {
    start_running(exec, {hp, 1.0, 0, start_counted(e, *hp)});
  } else {
    const int workload = hp->meter.profile().has_profile() ? workload_of(e.host, e.region) : 0;
    hp->meter.start_computation(share, e.time, workload);
    start_running(exec, {hp, share, workload});
  }
  ++change_points_;
  record(*hp);
}

void PowerPlugin::start_running(const sg4::Exec& exec, const Running& r)
{
  Running* slot;
  if (free_running_.empty()) {
    slot = &running_pool_.emplace_back(r);
  } else {
    slot = free_running_.back();
    free_running_.pop_back();
    *slot = r;
  }
  const_cast<sg4::Exec&>(exec).extension_set(running_slot_, slot, false);
}

std::optional<PowerPlugin::Running> PowerPlugin::end_running(const sg4::Activity& exec)
{
  auto* slot = static_cast<Running*>(exec.extension(running_slot_));
  if (slot == nullptr)
    return std::nullopt;
  const_cast<sg4::Activity&>(exec).extension_set(running_slot_, nullptr, false);
  free_running_.push_back(slot);
  return *slot;
}

void PowerPlugin::on_computation_ended(const core::ComputationEnded& e)
{
  const std::optional<Running> running = end_running(e.exec);
  if (!running)
    return; // not an execution we charged (a parallel execution...)
  auto [hp, share, workload, counted] = *running;
  // An actor waiting later than the kernel's finish would be charged too long: the end is the
  // finish time, never later than now.
  const double now = sg4::Engine::get_clock();
  const double end = e.end <= now ? e.end : now;
  if (counted)
    hp->meter.end_counted(counted, end);
  else
    hp->meter.end_computation(share, end, workload); // applied at the host's last change point if later
  ++change_points_;
  if (series_)
    series_->record(hp->index, hp->meter.now(), hp->meter.watts());
}

void PowerPlugin::on_host_change(const sg4::Host& host)
{
  HostPower* hp = host.extension<HostPower>(); // physical hosts only: a VM has none
  if (!hp)
    return;
  const double now = sg4::Engine::get_clock();
  ++change_points_;
  hp->meter.set_on(host.is_on(), now); // integrates with the previous pstate first
  hp->meter.set_pstate(static_cast<int>(host.get_pstate()), now);
  if (!host.is_on()) { // its actors die inside MPI_Test* without ending their polling
    for (auto it = polling_.begin(); it != polling_.end();) {
      if (it->second == hp) {
        hp->meter.end_computation(hp->polling_share, now);
        it = polling_.erase(it);
      } else {
        ++it;
      }
    }
  }
  record(*hp);
}

// The computation's counts per flop, in the coefficients' order: its rates follow the speed it
// runs at (counter_model.hpp). A computation of no flops lasts no time and draws nothing.
uint64_t PowerPlugin::start_counted(const core::ComputationStarted& e, HostPower& hp)
{
  if (e.counters == nullptr)
    refuse_uncounted(e);
  if (coefficient_of_event_.empty()) // the run's events, known with its first counts
    try {
      coefficient_of_event_ = match_events(*config_.counters, core::counter_events(), config_.counters_file);
    } catch (const InputError& error) {
      core::reject_setting(error.what());
    }
  const double flops = e.exec.get_cost();
  std::vector<double> per_flop(config_.counters->events().size(), 0.0);
  for (size_t k = 0; k < e.counters->size() && flops > 0; ++k)
    per_flop[coefficient_of_event_[k]] = (*e.counters)[k] / flops;
  hp.meter.start_counted(++counted_, std::move(per_flop), e.time);
  return counted_;
}

// A computation without counts cannot be priced by the counter model: refused rather than charged
// P_static only (MPI_Iprobe's spins are not computations of the program and are not asked).
void PowerPlugin::refuse_uncounted(const core::ComputationStarted& e)
{
  const int rank          = e.pid >= 0 ? core::rank_of(e.pid) : -1;
  const uint32_t region   = e.region;
  const std::string which = (rank >= 0 ? "rank " + std::to_string(rank) + "'s computation" : "a computation") +
                            (region == core::kNoRegion ? "" : " in " + core::region_text(region));
  const std::string problem = counted_ > 0 ? "counters missing from part of the run: " + which + " has none"
                                           : "the computations carry no counters (" + which + " has none)";
  core::reject_setting(InputError(core::settings().what("haec/power/model"), problem,
                                  "annotate every burst (# RANK haec_counters ...) or use --power-model linear")
                           .what());
}

// A link switched off draws its off power (SimGrid's link_energy documents wattage_off but never
// charges it); idle and dynamic power only while on.
void PowerPlugin::on_link_state(const sg4::Link& link)
{
  auto it = link_index_.find(&link);
  if (it == link_index_.end())
    return;
  LinkInfo& l      = links_[it->second];
  const double now = sg4::Engine::get_clock();
  if (!link.is_on() && l.off_since < 0)
    l.off_since = now;
  else if (link.is_on() && l.off_since >= 0) {
    l.off_s += now - l.off_since;
    l.off_since = -1;
  }
  ++change_points_;
}

const std::vector<size_t>& PowerPlugin::route(const sg4::Host* src, const sg4::Host* dst)
{
  auto key = std::make_pair(src, dst);
  auto it  = routes_.find(key);
  if (it == routes_.end()) {
    if (routes_.size() >= kMaxCachedRoutes) // all-to-all on a large platform: stop caching
      routes_.clear();
    std::vector<size_t> ids;
    std::vector<sg4::Link*> links;
    src->route_to(dst, links, nullptr);
    for (const sg4::Link* l : links)
      if (auto li = link_index_.find(l); li != link_index_.end())
        ids.push_back(li->second);
    it = routes_.emplace(key, std::move(ids)).first;
  }
  return it->second;
}

const std::vector<size_t>& PowerPlugin::route_of(const std::vector<sg4::Link*>* taken, const sg4::Host* src,
                                                 const sg4::Host* dst)
{
  if (!taken)
    return route(src, dst);
  taken_ids_.clear();
  for (const sg4::Link* l : *taken)
    if (auto li = link_index_.find(l); li != link_index_.end())
      taken_ids_.push_back(li->second);
  return taken_ids_;
}

// Our PMPI layer brackets every MPI_Test* of the application (SMPI sleeps inside it, smpi/test):
// that time is charged as polling, like SMPI's MPI_Iprobe computations.
void PowerPlugin::on_polling(const core::Polling& p)
{
  const double now = sg4::Engine::get_clock();
  if (p.begin) {
    HostPower* hp = of(sg4::this_actor::get_host());
    if (!hp || polling_.count(p.pid))
      return;
    polling_[p.pid] = hp;
    hp->meter.start_computation(hp->polling_share, now);
    record(*hp);
  } else if (auto it = polling_.find(p.pid); it != polling_.end()) {
    HostPower* hp = it->second;
    polling_.erase(it);
    hp->meter.end_computation(hp->polling_share, now);
    record(*hp);
  }
}

// The links of ours among those the core names by id (an index per link, no route lookup).
const std::vector<size_t>& PowerPlugin::crossed(const std::vector<uint32_t>& core_link_ids)
{
  taken_ids_.clear();
  for (uint32_t core_id : core_link_ids) {
    if (core_id >= index_of_core_link_.size())
      index_of_core_link_.resize(core_id + 1, kUnknown);
    long& index = index_of_core_link_[core_id];
    if (index == kUnknown) {
      auto li = link_index_.find(core::link_of_id(core_id));
      index   = li == link_index_.end() ? kNotPowered : static_cast<long>(li->second);
    }
    if (index != kNotPowered)
      taken_ids_.push_back(static_cast<size_t>(index));
  }
  return taken_ids_;
}

void PowerPlugin::on_transfer(const core::TransferCompleted& e)
{
  const core::Transfer& t = e.transfer;
  // What the flow occupies on each link of its route: SimGrid moves `size` bytes at
  // value * bw_factor, so a link's usage integrates to size / bw_factor (link_bytes). Without
  // that figure: the payload plus SMPI's envelope.
  const double occupied = t.link_bytes >= 0 ? t.link_bytes : static_cast<double>(t.bytes) + envelope_;
  for (size_t id : e.link_ids ? crossed(*e.link_ids) : route_of(e.route, e.src, e.dst)) {
    links_[id].bytes += occupied;
    links_[id].payload += static_cast<double>(t.bytes);
  }
  // network/crosstraffic: CM02 also puts the flow on the reverse route with weight 0.05 (TCP
  // acks), loopbacks included; a link on both routes carries both weights.
  if (crosstraffic_)
    for (size_t id : route_of(e.back_route, e.dst, e.src))
      links_[id].bytes += 0.05 * occupied;
}

Totals PowerPlugin::totals()
{
  const double T = sg4::Engine::get_clock();
  Totals t;
  for (sg4::Host* h : hosts_) {
    auto& m = h->extension<HostPower>()->meter;
    m.advance(T);
    t.hosts.push_back({h->get_name(), m.energy_j(), m.busy_s(), m.idle_s(), m.off_s(), m.pstate_s()});
    t.host_j += m.energy_j();
  }
  for (auto const& l : links_) {
    const double off = l.off_until(T);
    const double e   = link_energy_j(l.wattage, l.link->get_bandwidth(), T - off, l.bytes, off);
    t.links.push_back({l.link->get_name(), l.type, l.bytes, e, l.payload, off});
    t.link_j += e;
  }
  return t;
}

void PowerPlugin::contribute(core::Results& r)
{
  check_workloads_used();
  const Totals t = totals();
  const double T = sg4::Engine::get_clock();
  r.add_file("hosts.csv", hosts_csv(t.hosts, T));
  r.add_file("links.csv", links_csv(t.links));
  if (series_)
    r.add_file("power.csv", series_->csv(host_names_));
  r.add_summary("energy_j", units::exact(t.host_j + t.link_j));
  r.add_summary("host_energy_j", units::exact(t.host_j));
  r.add_summary("link_energy_j", units::exact(t.link_j));
  r.add_summary("power_change_points", std::to_string(change_points_));
  r.add_check(core::column_sum("host_energy", *r.file("hosts.csv"), "energy_j", t.host_j, "host_energy_j"));
  if (config_.counters) // SimGrid's host_energy plugin prices busy cores, not counter rates
    r.add_check(core::not_checked("host_energy_vs_simgrid",
                                  "the counter model prices computations by their counter rates; SimGrid's "
                                  "host_energy plugin (linear in busy cores) cannot agree with it"));
  log_totals(t);
}

void PowerPlugin::log_totals(const Totals& t)
{
  logged_ = true;
  XBT_INFO("Energy: hosts %.17g J, links %.17g J, total %.17g J", t.host_j, t.link_j, t.host_j + t.link_j);
}

// Static registration (the suite is preloaded): the core starts the plugin once the platform
// exists; it does nothing unless haec/power is on.
struct Registration {
  Registration()
  {
    HostPower::EXTENSION_ID = sg4::Host::extension_create<HostPower>();
    core::register_plugin("power", 20, [] { plugin().start(); });
  }
} registration;

} // namespace
} // namespace haec::power
