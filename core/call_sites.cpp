// Receives the PMPI layer's call entries and exits (haec_suite_mpi_enter/exit), keeps each
// rank's position between calls, and writes regions.csv: every code region (the code between
// two MPI calls, keyed by their call sites) with its computations, flops and seconds. Power
// workload profiles and DVFS task keys are named by these regions and sites.
#include "atomic_file.hpp"
#include "mpi_calls.hpp"
#include "run_context.hpp"
#include "units.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <unordered_map>
#include <vector>

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(haec_calls, smpi, "haec-smpi: MPI call sites and code regions");

namespace sg4 = simgrid::s4u;

namespace haec::suite {
namespace {

simgrid::config::Flag<bool> cfg_events{"haec/events",
                                       "Write events.csv: every MPI call's entry and exit per rank, with simulated times "
                                       "(PMPI layer or trace replay; for OTF2 export)",
                                       false};

struct Position {
  uint32_t last_site = kNoSite; // the call the rank last left (kNoSite: none yet)
  uint32_t in_site   = kNoSite; // the call it is inside, kNoSite when outside
};

struct RegionStats {
  uint64_t computations = 0;
  double flops = 0, seconds = 0;
};

struct Calls {
  SiteTable table;
  std::unordered_map<const void*, uint32_t> site_of_address; // per rank copy: raw return address -> site
  std::vector<Position> positions;                           // by actor pid
  std::vector<std::function<void(const MpiCall&)>> observers;
  std::unordered_map<const sg4::Activity*, uint32_t> running; // exec -> region
  std::vector<RegionStats> stats;                             // by region id
  bool reporting = false;
  // haec/events: (time, pid, site, enter) in the order they happened
  struct Event {
    double time;
    long pid;
    uint32_t site;
    bool enter;
  };
  std::vector<Event> events;
  std::unordered_map<long, size_t> last_event;                   // pid -> its last event
  std::unordered_map<const sg4::Activity*, size_t> entry_burst; // exec -> the entry it delays
  std::unordered_map<long, int> rank_of_pid;
};

Calls& calls()
{
  static Calls c;
  return c;
}

Position& position(long pid)
{
  auto& v = calls().positions;
  if (pid >= static_cast<long>(v.size()))
    v.resize(static_cast<size_t>(pid) + 1);
  return v[static_cast<size_t>(pid)];
}

uint32_t intern(const char* function, const void* caller)
{
  Calls& c = calls();
  auto it  = c.site_of_address.find(caller);
  if (it != c.site_of_address.end())
    return it->second;
  Dl_info info{};
  std::string object = "?";
  uint64_t offset    = reinterpret_cast<uintptr_t>(caller);
  if (dladdr(caller, &info) != 0 && info.dli_fname != nullptr) {
    object = object_name(info.dli_fname, static_cast<long>(getpid()));
    offset = reinterpret_cast<uintptr_t>(caller) - reinterpret_cast<uintptr_t>(info.dli_fbase);
  }
  uint32_t id = c.table.site(call_site_text(function, object, offset));
  c.site_of_address.emplace(caller, id);
  return id;
}

void notify(long pid, uint32_t site, bool enter)
{
  for (auto const& observer : calls().observers)
    observer(MpiCall{pid, site, enter, sg4::Engine::get_clock()});
}

int rank_of(long pid)
{
  auto& ranks = calls().rank_of_pid;
  auto it     = ranks.find(pid);
  if (it != ranks.end())
    return it->second;
  int rank = -1;
  if (auto actor = sg4::Actor::by_pid(pid))
    if (const char* text = actor->get_property("rank"))
      rank = std::atoi(text);
  ranks[pid] = rank;
  return rank;
}

// events.csv: time,rank,event,site (event enter|exit; site as in regions.csv), in simulated order.
void write_events(const std::string& dir)
{
  Calls& c = calls();
  if (!cfg_events || !c.reporting)
    return;
  std::stable_sort(c.events.begin(), c.events.end(),
                   [](const Calls::Event& a, const Calls::Event& b) { return a.time < b.time; });
  std::string out = "time,rank,event,site\n";
  for (auto const& e : c.events)
    out += units::exact(e.time) + "," + std::to_string(c.rank_of_pid.count(e.pid) ? c.rank_of_pid[e.pid] : -1) +
           (e.enter ? ",enter," : ",exit,") + c.table.site_text(e.site) + "\n";
  write_file_atomic(dir + "/events.csv", out);
}

void write_regions(const std::string& dir)
{
  Calls& c = calls();
  if (!c.reporting)
    return;
  std::ostringstream out;
  out << "region,computations,flops,seconds\n";
  for (size_t r = 0; r < c.stats.size(); ++r) {
    if (c.stats[r].computations == 0)
      continue;
    out << '"' << c.table.region_text(static_cast<uint32_t>(r)) << "\"," << c.stats[r].computations << ','
        << units::exact(c.stats[r].flops) << ',' << units::exact(c.stats[r].seconds) << '\n';
  }
  write_file_atomic(dir + "/regions.csv", out.str());
}

// In emulation SMPI charges the application's computation since the previous call when the next
// call starts (its benchmark), i.e. after that call's entry was reported; replay computes first,
// then enters the action. An entry's time in events.csv is therefore the end of the computation
// that runs right after it, so that both modes read alike and compute time is not MPI time.
void follow_entry_bursts()
{
  sg4::Exec::on_start_cb([](sg4::Exec const& exec) {
    Calls& c = calls();
    if (sg4::Actor::self() == nullptr || exec.get_name() != "computation")
      return;
    auto it = c.last_event.find(sg4::this_actor::get_pid());
    if (it != c.last_event.end() && c.events[it->second].enter)
      c.entry_burst[&exec] = it->second;
  });
  sg4::Activity::on_completion_cb([](sg4::Activity const& a) {
    Calls& c = calls();
    auto it  = c.entry_burst.find(&a);
    if (it == c.entry_burst.end())
      return;
    c.events[it->second].time = a.get_finish_time() >= 0 ? a.get_finish_time() : sg4::Engine::get_clock();
    c.entry_burst.erase(it);
  });
}

struct Registration {
  Registration()
  {
    sg4::Exec::on_start_cb([](sg4::Exec const& exec) {
      Calls& c = calls();
      if (!c.reporting || exec.get_host_number() != 1)
        return;
      uint32_t region = current_region();
      if (region == kNoRegion)
        return;
      if (region >= c.stats.size())
        c.stats.resize(region + 1);
      c.stats[region].computations++;
      c.stats[region].flops += exec.get_cost();
      c.running[&exec] = region;
    });
    sg4::Activity::on_completion_cb([](sg4::Activity const& a) {
      Calls& c = calls();
      auto it  = c.running.find(&a);
      if (it == c.running.end())
        return;
      double end = a.get_finish_time() >= 0 ? a.get_finish_time() : sg4::Engine::get_clock();
      c.stats[it->second].seconds += end - a.get_start_time();
      c.running.erase(it);
    });
    add_results_writer(write_regions);
    add_results_writer(write_events);
    sg4::Engine::on_platform_created_cb([] {
      if (!cfg_events)
        return;
      add_mpi_call_observer([](const MpiCall& call) {
        rank_of(call.pid); // while the actor lives
        calls().events.push_back({call.time, call.pid, call.site, call.enter});
        calls().last_event[call.pid] = calls().events.size() - 1;
      });
      follow_entry_bursts();
    });
  }
} registration;

} // namespace

uint32_t current_region()
{
  Calls& c = calls();
  if (!c.reporting || sg4::Actor::self() == nullptr)
    return kNoRegion;
  const Position& p = position(sg4::this_actor::get_pid());
  return c.table.region(p.last_site, p.in_site);
}

const std::string& region_text(uint32_t region)
{
  static const std::string none = "";
  return region == kNoRegion ? none : calls().table.region_text(region);
}

const std::string& site_text(uint32_t site)
{
  return calls().table.site_text(site);
}

bool pmpi_reporting()
{
  return calls().reporting;
}

void add_mpi_call_observer(std::function<void(const MpiCall&)> observer)
{
  calls().observers.push_back(std::move(observer));
}

} // namespace haec::suite

// Called by our PMPI library (weak references there) at each MPI call's entry and exit, from
// the calling rank's actor; `caller` is the return address into the application.
extern "C" void haec_suite_mpi_enter(const char* function, const void* caller)
{
  using namespace haec::suite;
  if (sg4::Actor::self() == nullptr)
    return;
  Calls& c        = calls();
  c.reporting     = true;
  const long pid  = sg4::this_actor::get_pid();
  uint32_t site   = intern(function, caller);
  position(pid).in_site = site;
  if (!c.observers.empty())
    notify(pid, site, true);
}

namespace haec::suite {
// Trace replay (replay_actions.cpp): an action entered, named by its text rather than an address.
void enter_named_site(const std::string& text)
{
  if (sg4::Actor::self() == nullptr)
    return;
  Calls& c       = calls();
  c.reporting    = true;
  const long pid = sg4::this_actor::get_pid();
  uint32_t site  = c.table.site(text);
  position(pid).in_site = site;
  if (!c.observers.empty())
    notify(pid, site, true);
}
} // namespace haec::suite

extern "C" void haec_suite_mpi_exit(void)
{
  using namespace haec::suite;
  if (sg4::Actor::self() == nullptr)
    return;
  const long pid = sg4::this_actor::get_pid();
  Position& p    = position(pid);
  const uint32_t site = p.in_site;
  p.last_site = site;
  p.in_site   = kNoSite;
  if (!calls().observers.empty())
    notify(pid, site, false);
}
