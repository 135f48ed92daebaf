// SimGrid adapter of the power model (MODELS.md §4): one HostEnergyMeter per host, kept in a
// host extension as SimGrid's own host_energy plugin does, fed at every change point of a host's
// power: a computation starts (Exec::on_start) or completes (Activity::on_completion), the pstate
// changes (Host::on_speed_change), the host goes on or off (Host::on_state_change), and the
// simulation ends. Links: static power for the whole run plus an energy per bit, the bytes of
// each transfer being charged to every link of its route (from the suite's run record).
// Enabled by --cfg=haec/power:yes; writes hosts.csv, links.csv (and power.csv with
// haec/power/series) into the result directory and energy figures into summary.json.
#include "atomic_file.hpp"
#include "energy_meter.hpp"
#include "input_error.hpp"
#include "link_energy.hpp"
#include "mpi_calls.hpp"
#include "power_profile.hpp"
#include "power_tables.hpp"
#include "run_context.hpp"
#include "units.hpp"
#include "workloads.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <optional>
#include <unordered_map>

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(haec_power, smpi, "HAEC power model: host and link energy");

namespace sg4 = simgrid::s4u;

namespace haec::power {
namespace {

simgrid::config::Flag<bool> cfg_power{"haec/power", "Compute host and link energy (hosts.csv, links.csv, summary)",
                                      false};
simgrid::config::Flag<bool> cfg_series{"haec/power/series",
                                       "Also write power.csv: each host's watts at every change point", false};
simgrid::config::Flag<double> cfg_polling{
    "haec/power/polling",
    "Share of a core charged while polling: SMPI's MPI_Iprobe computations and (with our PMPI layer) the time in "
    "MPI_Test*; default: smpi/iprobe-cpu-usage",
    1.0};
simgrid::config::Flag<std::string> cfg_link_wattage{
    "haec/power/link-wattage",
    "Link power per haec:type as type:idle_W:busy_W,... (busy = at full bandwidth; a link's wattage_range "
    "property overrides it)",
    "optical:2.1:24.3,wireless:0:2.124"};
simgrid::config::Flag<std::string> cfg_workloads{
    "haec/power/workloads",
    "Workload phases: a JSON file of power profiles chosen per code region, rank or host (plugins/power/README.md)",
    ""};

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

// Routes (as link indices) are cached per node pair; beyond this many pairs the cache restarts.
constexpr size_t kMaxCachedRoutes = 1 << 16;

class PowerPlugin {
public:
  void on_platform_created();
  void on_exec_start(const sg4::Exec& exec);
  void on_completion(const sg4::Activity& activity);
  void on_host_change(const sg4::Host& host);
  void on_link_state(const sg4::Link& link);
  void on_polling(bool begin);
  void on_transfer(const suite::Transfer& t);
  const std::vector<size_t>& route(uint32_t src_node, uint32_t dst_node);
  void finish(); // integrate every host up to now (idempotent at one instant)
  void write(const std::string& dir);
  void log_totals();

private:
  HostPower* of(const sg4::Host* host) const;
  void record(HostPower& hp);

  bool enabled_ = false;
  double polling_share_ = 1;
  int envelope_          = 0;
  std::vector<sg4::Host*> hosts_; // output order
  std::vector<std::string> host_names_;
  std::vector<LinkInfo> links_;
  std::unordered_map<const sg4::Link*, size_t> link_index_;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<size_t>> routes_; // run-record node ids -> links
  bool crosstraffic_ = false;
  struct Running {
    HostPower* host;
    double share; // of a core
    int workload;
  };
  std::unordered_map<const sg4::Activity*, Running> running_;
  std::unordered_map<long, HostPower*> polling_; // actor pid -> its host, inside an MPI_Test*
  std::optional<PowerSeries> series_;
  bool warned_parallel_ = false, logged_ = false;
  unsigned long long change_points_ = 0; // computation starts and ends, pstate and state changes

  // Workload phases (haec/power/workloads): profile index p is meter workload p + 1 on every host.
  int workload_of(const sg4::Host* host); // for a computation the calling actor starts now
  void load_workloads();
  void check_workloads_used(); // regions and ranks the file names must have occurred
  std::optional<WorkloadSet> workloads_;
  std::vector<int> profile_of_region_;  // suite region id -> profile (-1: none, -2: not looked up)
  std::set<std::string> regions_seen_;
  std::vector<int> rank_of_pid_;        // -2: not looked up
  int max_rank_seen_ = -1;
};

PowerPlugin& plugin()
{
  static PowerPlugin instance;
  return instance;
}

HostPower* PowerPlugin::of(const sg4::Host* host) const
{
  if (const auto* vm = dynamic_cast<const sg4::VirtualMachine*>(host))
    host = vm->get_pm();
  return host ? host->extension<HostPower>() : nullptr;
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

void PowerPlugin::on_platform_created()
{
  enabled_ = cfg_power;
  if (!enabled_)
    return;
  try {
    if (!(cfg_polling >= 0 && cfg_polling <= 1))
      throw InputError("haec/power/polling", "must be in [0,1]", "give the share of a core a polling loop uses, e.g. 0.5");
    polling_share_ = simgrid::config::is_default("haec/power/polling")
                         ? simgrid::config::get_value<double>("smpi/iprobe-cpu-usage")
                         : cfg_polling.get();
    envelope_     = simgrid::config::get_value<int>("haec/link/smpi-envelope");
    crosstraffic_ = simgrid::config::get_value<bool>("network/crosstraffic");
    const double now = sg4::Engine::get_clock();
    size_t without   = 0;
    hosts_           = ordered_hosts();
    for (size_t i = 0; i < hosts_.size(); ++i) {
      sg4::Host* h = hosts_[i];
      auto profile = parse_host_power(
          h->get_name(), [h](const std::string& name) { return h->get_property(name); }, h->get_pstate_count(),
          h->get_core_count());
      if (!profile.has_profile())
        ++without;
      HostEnergyMeter meter(std::move(profile), h->get_pstate_count(), now);
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
    if (without > 0)
      XBT_WARN("%zu of %zu hosts have no wattage_per_state or haec:wattage_calibration property: they draw 0 W",
               without, hosts_.size());

    auto table = parse_link_wattage_table(cfg_link_wattage.get(), "haec/power/link-wattage");
    auto links = sg4::Engine::get_instance()->get_all_links();
    std::sort(links.begin(), links.end(), [](sg4::Link* a, sg4::Link* b) { return a->get_name() < b->get_name(); });
    for (sg4::Link* l : links) {
      LinkInfo info{l, l->get_property("haec:type") ? l->get_property("haec:type") : "", {}};
      if (const char* range = l->get_property("wattage_range"))
        info.wattage = parse_wattage_range(l->get_name(), range, l->get_property("wattage_off"));
      else if (auto it = table.find(info.type); it != table.end())
        info.wattage = it->second;
      if (!l->is_on())
        info.off_since = now;
      link_index_[l] = links_.size();
      links_.push_back(info);
    }
    load_workloads();
  } catch (const std::exception& e) {
    suite::fail_run(e.what());
  }
  if (cfg_series) {
    series_.emplace(hosts_.size());
    for (sg4::Host* h : hosts_)
      record(*h->extension<HostPower>());
  }
  if (suite::recording())
    suite::run_record().set_transfer_observer([this](const suite::Transfer& t) { on_transfer(t); });
  else
    XBT_INFO("no result directory (haec/out): link energy counts static power only");
  suite::add_results_writer([this](const std::string& dir) { write(dir); });
}

void PowerPlugin::load_workloads()
{
  const std::string file = cfg_workloads.get();
  if (file.empty())
    return;
  std::ifstream in(file);
  if (!in)
    throw InputError(file, "cannot be read (haec/power/workloads)", "give the path of a workload JSON file");
  std::ostringstream text;
  text << in.rdbuf();
  workloads_.emplace(WorkloadSet::parse(text.str(), file));
  for (auto const& [host, profile] : workloads_->hosts())
    if (sg4::Host::by_name_or_null(host) == nullptr)
      throw InputError(file, "hosts entry '" + host + "' is not a host of the platform",
                       "use host names from the platform (hosts.csv lists them)");
  for (sg4::Host* h : hosts_) {
    auto& meter = h->extension<HostPower>()->meter;
    if (!meter.profile().has_profile())
      continue;
    for (size_t p = 0; p < workloads_->profiles().size(); ++p)
      meter.add_workload(workloads_->slopes(p, meter.profile(), h->get_name()));
  }
  XBT_INFO("workload phases from %s: %zu profiles", file.c_str(), workloads_->profiles().size());
}

int PowerPlugin::workload_of(const sg4::Host* host)
{
  if (!workloads_ || sg4::Actor::self() == nullptr)
    return 0;
  int profile = -1;
  // Region first: the suite interns regions, so each is looked up in the file once.
  const uint32_t region = suite::current_region();
  if (region != suite::kNoRegion && !workloads_->regions().empty()) {
    if (region >= profile_of_region_.size())
      profile_of_region_.resize(region + 1, -2);
    int& cached = profile_of_region_[region];
    if (cached == -2) {
      auto it = workloads_->regions().find(suite::region_text(region));
      cached  = it == workloads_->regions().end() ? -1 : it->second;
      if (cached >= 0)
        regions_seen_.insert(it->first);
    }
    profile = cached;
  }
  if (profile < 0) {
    const long pid = sg4::this_actor::get_pid();
    if (pid >= static_cast<long>(rank_of_pid_.size()))
      rank_of_pid_.resize(static_cast<size_t>(pid) + 1, -2);
    int& rank = rank_of_pid_[static_cast<size_t>(pid)];
    if (rank == -2) {
      const char* text = sg4::Actor::self()->get_property("rank");
      rank             = text ? std::atoi(text) : -1;
      max_rank_seen_   = std::max(max_rank_seen_, rank);
    }
    profile = workloads_->choose("", rank, host->get_name());
  }
  return profile + 1;
}

// Names the file gives that the run never met are errors (a typo would silently keep the plain
// model); checked before any result file is written.
void PowerPlugin::check_workloads_used()
{
  if (!workloads_)
    return;
  for (auto const& [region, profile] : workloads_->regions())
    if (!regions_seen_.count(region))
      suite::fail_run(InputError(workloads_->file(), "region '" + region + "' never ran a computation",
                                 suite::pmpi_reporting()
                                     ? "use a region key from regions.csv"
                                     : "regions need the PMPI layer (haec cc) or a trace replay")
                          .what());
  if (workloads_->max_rank() > max_rank_seen_ && max_rank_seen_ >= 0)
    suite::fail_run(InputError(workloads_->file(),
                               "names rank " + std::to_string(workloads_->max_rank()) + " but the highest rank is " +
                                   std::to_string(max_rank_seen_),
                               "use ranks below -np")
                        .what());
}

void PowerPlugin::on_exec_start(const sg4::Exec& exec)
{
  if (!enabled_)
    return;
  if (exec.get_host_number() != 1) {
    if (!warned_parallel_)
      XBT_WARN("parallel executions (on several hosts) are not charged by the power model");
    warned_parallel_ = true;
    return;
  }
  HostPower* hp = of(exec.get_host());
  if (!hp)
    return;
  // SMPI's MPI_Iprobe spins as a computation named "iprobe" bounded to smpi/iprobe-cpu-usage of
  // a core; SimGrid's own energy plugin sees that share through the CPU load, we charge it here.
  const double share = exec.get_name() == "iprobe" ? hp->polling_share : 1.0;
  const int workload = hp->meter.profile().has_profile() ? workload_of(exec.get_host()) : 0;
  hp->meter.start_computation(share, sg4::Engine::get_clock(), workload);
  ++change_points_;
  running_[&exec] = {hp, share, workload};
  record(*hp);
}

void PowerPlugin::on_completion(const sg4::Activity& activity)
{
  if (!enabled_)
    return;
  auto it = running_.find(&activity);
  if (it == running_.end())
    return; // not an execution we charged (a communication, a parallel execution...)
  auto [hp, share, workload] = it->second;
  running_.erase(it);
  // The signal comes when the actor sees the end (wait/test): right away under SMPI. An actor
  // waiting later would be charged too long; end at the kernel's finish time when we can.
  const double now = sg4::Engine::get_clock();
  double end       = activity.get_finish_time();
  if (!(end >= 0 && end <= now))
    end = now;
  hp->meter.end_computation(share, end, workload); // applied at the host's last change point if later
  ++change_points_;
  if (series_)
    series_->record(hp->index, hp->meter.now(), hp->meter.watts());
}

void PowerPlugin::on_host_change(const sg4::Host& host)
{
  if (!enabled_ || dynamic_cast<const sg4::VirtualMachine*>(&host))
    return;
  HostPower* hp = host.extension<HostPower>();
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

// A link switched off draws its off power (SimGrid's link_energy documents wattage_off but never
// charges it); idle and dynamic power only while on.
void PowerPlugin::on_link_state(const sg4::Link& link)
{
  if (!enabled_)
    return;
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

const std::vector<size_t>& PowerPlugin::route(uint32_t src_node, uint32_t dst_node)
{
  auto key = std::make_pair(src_node, dst_node);
  auto it  = routes_.find(key);
  if (it == routes_.end()) {
    if (routes_.size() >= kMaxCachedRoutes) // all-to-all on a large platform: stop caching
      routes_.clear();
    auto const& names    = suite::run_record().node_names();
    auto* engine         = sg4::Engine::get_instance();
    const sg4::Host* src = engine->host_by_name_or_null(names.at(src_node));
    const sg4::Host* dst = engine->host_by_name_or_null(names.at(dst_node));
    std::vector<size_t> ids;
    if (src && dst) {
      std::vector<sg4::Link*> links;
      src->route_to(dst, links, nullptr);
      for (const sg4::Link* l : links)
        if (auto li = link_index_.find(l); li != link_index_.end())
          ids.push_back(li->second);
    }
    it = routes_.emplace(key, std::move(ids)).first;
  }
  return it->second;
}

// Our PMPI layer brackets every MPI_Test* of the application (SMPI sleeps inside it, smpi/test):
// that time is charged as polling, like SMPI's MPI_Iprobe computations.
void PowerPlugin::on_polling(bool begin)
{
  if (!enabled_ || sg4::Actor::self() == nullptr)
    return;
  const long pid   = sg4::this_actor::get_pid();
  const double now = sg4::Engine::get_clock();
  if (begin) {
    HostPower* hp = of(sg4::this_actor::get_host());
    if (!hp || polling_.count(pid))
      return;
    polling_[pid] = hp;
    hp->meter.start_computation(hp->polling_share, now);
    record(*hp);
  } else if (auto it = polling_.find(pid); it != polling_.end()) {
    HostPower* hp = it->second;
    polling_.erase(it);
    hp->meter.end_computation(hp->polling_share, now);
    record(*hp);
  }
}

void PowerPlugin::on_transfer(const suite::Transfer& t)
{
  // What the flow occupies on each link of its route: SimGrid moves `size` bytes at
  // value * bw_factor, so a link's usage integrates to size / bw_factor (link_bytes). Without
  // that figure: the payload plus SMPI's envelope.
  const double occupied = t.link_bytes >= 0 ? t.link_bytes : static_cast<double>(t.bytes) + envelope_;
  for (size_t id : route(t.src_node, t.dst_node)) {
    links_[id].bytes += occupied;
    links_[id].payload += static_cast<double>(t.bytes);
  }
  // network/crosstraffic: CM02 also puts the flow on the reverse route with weight 0.05 (TCP
  // acks), loopbacks included; a link on both routes carries both weights.
  if (crosstraffic_)
    for (size_t id : route(t.dst_node, t.src_node))
      links_[id].bytes += 0.05 * occupied;
}

void PowerPlugin::finish()
{
  const double now = sg4::Engine::get_clock();
  for (sg4::Host* h : hosts_)
    h->extension<HostPower>()->meter.advance(now);
}

void PowerPlugin::write(const std::string& dir)
{
  check_workloads_used();
  finish();
  const double T = sg4::Engine::get_clock();
  std::vector<HostRow> hrows;
  double host_total = 0, link_total = 0;
  for (sg4::Host* h : hosts_) {
    const auto& m = h->extension<HostPower>()->meter;
    hrows.push_back({h->get_name(), m.energy_j(), m.busy_s(), m.idle_s(), m.off_s(), m.pstate_s()});
    host_total += m.energy_j();
  }
  std::vector<LinkRow> lrows;
  for (auto const& l : links_) {
    const double off = l.off_until(T);
    double e         = link_energy_j(l.wattage, l.link->get_bandwidth(), T - off, l.bytes, off);
    lrows.push_back({l.link->get_name(), l.type, l.bytes, e, l.payload, off});
    link_total += e;
  }
  write_file_atomic(dir + "/hosts.csv", hosts_csv(hrows, T));
  write_file_atomic(dir + "/links.csv", links_csv(lrows));
  if (series_)
    write_file_atomic(dir + "/power.csv", series_->csv(host_names_));
  suite::add_summary_entry("energy_j", units::exact(host_total + link_total));
  suite::add_summary_entry("host_energy_j", units::exact(host_total));
  suite::add_summary_entry("link_energy_j", units::exact(link_total));
  suite::add_summary_entry("power_change_points", std::to_string(change_points_));
  log_totals();
}

void PowerPlugin::log_totals()
{
  if (!enabled_ || logged_)
    return;
  logged_ = true;
  finish();
  const double T = sg4::Engine::get_clock();
  double hosts = 0, links = 0;
  for (sg4::Host* h : hosts_)
    hosts += h->extension<HostPower>()->meter.energy_j();
  for (auto const& l : links_)
    links += link_energy_j(l.wattage, l.link->get_bandwidth(), T - l.off_until(T), l.bytes, l.off_until(T));
  XBT_INFO("Energy: hosts %.17g J, links %.17g J, total %.17g J", hosts, links, hosts + links);
}

// Static registration (the suite is preloaded): flags are known before SimGrid parses --cfg;
// the handlers do nothing unless haec/power is on.
struct Registration {
  Registration()
  {
    HostPower::EXTENSION_ID = sg4::Host::extension_create<HostPower>();
    sg4::Engine::on_platform_created_cb([] { plugin().on_platform_created(); });
    sg4::Exec::on_start_cb([](sg4::Exec const& e) { plugin().on_exec_start(e); });
    sg4::Activity::on_completion_cb([](sg4::Activity const& a) { plugin().on_completion(a); });
    sg4::Host::on_speed_change_cb([](sg4::Host const& h) { plugin().on_host_change(h); });
    sg4::Host::on_state_change_cb([](sg4::Host const& h) { plugin().on_host_change(h); });
    sg4::Link::on_state_change_cb([](sg4::Link const& l) { plugin().on_link_state(l); });
    sg4::Engine::on_simulation_end_cb([] { plugin().log_totals(); });
  }
} registration;

} // namespace
} // namespace haec::power

// Called by our PMPI library (weak reference there) around each MPI_Test* of a rank.
extern "C" void haec_suite_polling(int polling)
{
  haec::power::plugin().on_polling(polling != 0);
}
