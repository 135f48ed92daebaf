// The PMPI layer's entry points (haec_suite_mpi_enter/exit, _logical_message, _polling: the
// extern "C" ABI of libhaec_pmpi) and what the core derives from the calls: each rank's position
// between calls, hence the code region of each computation (regions.csv), the call log
// (events.csv), iteration boundaries (haec/iterations) and which ranks reached MPI_Finalize.
// Power workload profiles and DVFS task keys are named by these regions and sites.
#include "checks.hpp"
#include "core_parts.hpp"
#include "iteration_modes.hpp"
#include "run.hpp"
#include "site_table.hpp"
#include "units.hpp"

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <array>
#include <memory>
#include <set>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace haec::core {
namespace {

struct Position {
  uint32_t last_site = kNoSite; // the call the rank last left (kNoSite: none yet)
  uint32_t in_site   = kNoSite; // the call it is inside or announced, kNoSite when outside
  bool inside        = false;   // entered (not only announced) and not left
  double returned_at = -1;      // SimGrid's function of the call returned then (-1: not yet)
  // An announced call not named yet (haec_suite_mpi_announce): named when first needed, after
  // SMPI's benchmark has stopped, so that naming a new site is never charged.
  const char* announced_function = nullptr;
  const void* announced_caller   = nullptr;
};

struct RegionStats {
  uint64_t computations = 0;
  double flops = 0, seconds = 0;
};

struct Event { // haec/events
  double time;
  long pid;
  uint32_t site;
  bool enter;
  bool followed = false; // an entry whose time already moved to the end of a computation
};

struct RankIterations {
  std::unique_ptr<iterations::IterationSplitter> splitter;
  long iteration = 0;
};

struct Calls {
  SiteTable table;
  std::unordered_map<const void*, uint32_t> site_of_address; // per rank copy: raw return address -> site
  // In front of it, every MPI call: a direct-mapped cache of recent addresses (the map's bucket
  // walk divides per node and misses the cache; this is one load and one compare).
  struct RecentSite {
    const void* caller = nullptr;
    uint32_t site      = kNoSite;
  };
  static constexpr unsigned kRecentSiteBits = 12;
  std::array<RecentSite, size_t{1} << kRecentSiteBits> recent_sites{};
  std::vector<Position> positions;                           // by actor pid
  bool reporting = false;
  bool events_on = false;
  // exec -> region + 1 (0: not counted), in an extension slot of the execution (no deleter)
  size_t running_region = sg4::Activity::extension_create(nullptr);
  std::vector<RegionStats> stats;                             // by region id
  std::vector<Event> events;
  std::unordered_map<long, size_t> last_event;                  // pid -> its last event
  std::unordered_map<const sg4::Activity*, size_t> entry_burst; // exec -> the entry it delays
  std::set<int> finalized; // ranks that entered MPI_Finalize
  std::vector<char> finalize_site; // by site: 0 not known yet, 1 another call, 2 MPI_Finalize
  // iteration boundaries, when a plugin subscribed to them
  bool iterations_on = false;
  iterations::IterationMode mode;
  std::vector<RankIterations> ranks; // by pid
};

// A global, not a function-local static: every MPI call reaches it (no guard to test each time).
Calls the_calls;

Calls& calls()
{
  return the_calls;
}

Position& position(long pid)
{
  auto& v = calls().positions;
  if (pid >= static_cast<long>(v.size()))
    v.resize(static_cast<size_t>(pid) + 1);
  return v[static_cast<size_t>(pid)];
}

uint32_t site_of(const char* function, const void* caller)
{
  Calls& c = calls();
  auto it  = c.site_of_address.find(caller);
  if (it != c.site_of_address.end())
    return it->second;
  uint32_t id = c.table.site(call_site_of(function, caller));
  c.site_of_address.emplace(caller, id);
  return id;
}

uint32_t intern(const char* function, const void* caller);

// The call the rank is inside or announced (kNoSite: none), named now if it was only announced.
uint32_t in_site(Position& p)
{
  if (p.announced_function != nullptr) {
    p.in_site            = intern(p.announced_function, p.announced_caller);
    p.announced_function = nullptr;
  }
  return p.in_site;
}

void set_in_site(Position& p, uint32_t site)
{
  p.in_site            = site;
  p.announced_function = nullptr;
}

uint32_t intern(const char* function, const void* caller)
{
  // Fibonacci hashing: every rank's copy of the program is loaded at a page-aligned base, so the
  // low bits of a site's addresses are the same in every rank and must not pick the slot alone.
  const uint64_t mixed = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(caller)) * 0x9E3779B97F4A7C15ull;
  Calls::RecentSite& r = calls().recent_sites[mixed >> (64 - Calls::kRecentSiteBits)];
  if (r.caller != caller)
    r = {caller, site_of(function, caller)};
  return r.site;
}

// What the automatic detector, which goes by a site's id alone, is given for the site's text.
const std::string kNoSiteText;

// A boundary of the calling rank's iterations, published before the call itself.
void track_iteration(long pid, uint32_t site, double now)
{
  Calls& c = calls();
  if (pid >= static_cast<long>(c.ranks.size()))
    c.ranks.resize(static_cast<size_t>(pid) + 1);
  RankIterations& r = c.ranks[static_cast<size_t>(pid)];
  if (!r.splitter)
    r.splitter = std::make_unique<iterations::IterationSplitter>(c.mode);
  if (r.splitter->boundary(r.splitter->needs_site_text() ? c.table.site_text(site) : kNoSiteText, site))
    bus().iteration_boundaries.publish(IterationBoundary{pid, site, ++r.iteration, now});
}

void entered(long pid, uint32_t site)
{
  Calls& c    = calls();
  c.reporting = true;
  Position& p = position(pid);
  set_in_site(p, site);
  p.inside    = true;
  if (c.iterations_on || !bus().mpi_calls.empty()) {
    const double now = sg4::Engine::get_clock();
    if (c.iterations_on)
      track_iteration(pid, site, now);
    bus().mpi_calls.publish(MpiCall{pid, site, true, now});
  }
}

void on_computation_started(const ComputationStarted& e)
{
  Calls& c = calls();
  if (!c.reporting || e.host == nullptr)
    return;
  const uint32_t region = e.region;
  if (region == kNoRegion)
    return;
  if (region >= c.stats.size())
    c.stats.resize(region + 1);
  c.stats[region].computations++;
  c.stats[region].flops += e.exec.get_cost();
  const_cast<sg4::Exec&>(e.exec).extension_set(c.running_region, reinterpret_cast<void*>(uintptr_t{region} + 1), false);
}

void on_computation_ended(const ComputationEnded& e)
{
  Calls& c = calls();
  const auto slot = reinterpret_cast<uintptr_t>(e.exec.extension(c.running_region));
  if (slot == 0)
    return;
  c.stats[slot - 1].seconds += e.end - e.exec.get_start_time();
  const_cast<sg4::Activity&>(e.exec).extension_set(c.running_region, nullptr, false);
}

// events.csv: time,rank,event,site (event enter|exit; site as in regions.csv), in simulated order.
std::string events_csv()
{
  Calls& c = calls();
  std::stable_sort(c.events.begin(), c.events.end(), [](const Event& a, const Event& b) { return a.time < b.time; });
  std::string out = "time,rank,event,site\n";
  for (auto const& e : c.events)
    out += units::exact(e.time) + "," + std::to_string(rank_of(e.pid)) + (e.enter ? ",enter," : ",exit,") +
           c.table.site_text(e.site) + "\n";
  return out;
}

std::string regions_csv()
{
  Calls& c = calls();
  std::ostringstream out;
  out << "region,computations,flops,seconds\n";
  for (size_t r = 0; r < c.stats.size(); ++r) {
    if (c.stats[r].computations == 0)
      continue;
    out << '"' << c.table.region_text(static_cast<uint32_t>(r)) << "\"," << c.stats[r].computations << ','
        << units::exact(c.stats[r].flops) << ',' << units::exact(c.stats[r].seconds) << '\n';
  }
  return out.str();
}

void record_event(const MpiCall& call)
{
  Calls& c = calls();
  rank_of(call.pid); // while the actor lives
  c.events.push_back({call.time, call.pid, call.site, call.enter});
  c.last_event[call.pid] = c.events.size() - 1;
}

// The PMPI layer reports a call's entry once SMPI has charged the application's computation before
// it (pmpi/own_work.hpp); SMPI may still charge a computation right at the start of the call (the
// span from its benchmark's restart to SimGrid's function), which a recorded trace writes with the
// computation before the call. An entry's time in events.csv is then the end of that computation,
// so that emulation and replay read alike (one computation, starting at the entry; a later one
// inside the call is not before the call's communication).
void follow_entry_bursts()
{
  bus().computation_started.subscribe([](const ComputationStarted& e) {
    Calls& c = calls();
    if (e.pid < 0 || e.exec.get_name() != "computation")
      return;
    auto it = c.last_event.find(e.pid);
    if (it == c.last_event.end())
      return;
    Event& entry = c.events[it->second];
    if (entry.enter && !entry.followed && entry.time == e.time && position(e.pid).returned_at < 0) {
      entry.followed           = true;
      c.entry_burst[&e.exec] = it->second;
    }
  });
  bus().computation_ended.subscribe([](const ComputationEnded& e) {
    Calls& c = calls();
    auto it  = c.entry_burst.find(&e.exec);
    if (it == c.entry_burst.end())
      return;
    c.events[it->second].time = e.end;
    c.entry_burst.erase(it);
  });
}

// Whether `site` is a call of MPI_Finalize, from its text once per site (asked at every call).
bool is_finalize(uint32_t site)
{
  if (site == kNoSite)
    return false;
  auto& known = calls().finalize_site;
  if (site >= known.size())
    known.resize(site + 1, 0);
  if (known[site] == 0)
    known[site] = calls().table.site_text(site).rfind("MPI_Finalize@", 0) == 0 ? 2 : 1;
  return known[site] == 2;
}

} // namespace

namespace parts {

// One lookup of the current actor (a thread-local read through SimGrid's context), where
// Actor::self() then this_actor::get_pid() did two.
long self_pid()
{
  const sg4::Actor* self = sg4::Actor::self();
  return self != nullptr ? self->get_pid() : -1;
}

void start_calls()
{
  Calls& c = calls();
  if (recording()) {
    bus().computation_started.subscribe(on_computation_started);
    bus().computation_ended.subscribe(on_computation_ended);
  }
  c.events_on = settings().boolean("haec/events");
  if (c.events_on) {
    bus().mpi_calls.subscribe(record_event);
    follow_entry_bursts();
  }
  // Which ranks reach MPI_Finalize (ranks_finalized check): one lookup per call, recording only.
  if (recording())
    bus().mpi_calls.subscribe([](const MpiCall& call) {
      if (call.enter && is_finalize(call.site))
        calls().finalized.insert(rank_of(call.pid));
    });
}

void connect_iterations()
{
  Calls& c = calls();
  if (bus().iteration_boundaries.empty())
    return;
  c.iterations_on = true;
  c.mode          = iterations::parse_iteration_mode(settings().text("haec/iterations"), "haec/iterations");
}

void add_call_results(Results& results)
{
  Calls& c = calls();
  if (!c.reporting) {
    results.add_check(not_checked("ranks_finalized",
                                  "MPI calls were not reported (a program built without the PMPI layer: haec cc)"));
    return;
  }
  results.add_file("regions.csv", regions_csv());
  if (c.events_on)
    results.add_file("events.csv", events_csv());
  if (auto const& d = run_description())
    results.add_check(all_ranks_finalized(c.finalized, d->ranks));
  else
    results.add_check(not_checked("ranks_finalized", "the number of ranks is unknown without haec/run (haec run)"));
}

// Trace replay (replay_actions.cpp): actions are named by their text rather than an address.
uint32_t named_site(const std::string& text)
{
  return calls().table.site(text);
}

void enter_site(uint32_t site)
{
  if (const long pid = self_pid(); pid >= 0)
    entered(pid, site);
}

void announce_site(uint32_t site)
{
  if (const long pid = self_pid(); pid >= 0)
    set_in_site(position(pid), site);
}

uint32_t pending_site(long pid)
{
  return in_site(position(pid));
}

uint32_t previous_site(long pid)
{
  return position(pid).last_site;
}

bool inside_call(long pid)
{
  return pid >= 0 && position(pid).inside;
}

} // namespace parts

uint32_t current_region(long pid)
{
  Calls& c = calls();
  if (!c.reporting || pid < 0)
    return kNoRegion;
  Position& p = position(pid);
  return c.table.region(p.last_site, in_site(p));
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

bool calls_reported()
{
  return calls().reporting;
}

} // namespace haec::core

// Called by our PMPI library (weak references there) at each MPI call's entry and exit, from
// the calling rank's actor; `caller` is the return address into the application.
//
// The announcement comes first, while SMPI still benchmarks the application's code (so it only
// notes the call, `function` being a string that lives as long as the process): the computation SMPI charges right after it, at the call's start, is then in
// the region that ends at this call. The entry follows once SMPI's benchmark has stopped.
extern "C" void haec_suite_mpi_announce(const char* function, const void* caller)
{
  using namespace haec::core;
  if (passive())
    return;
  if (const long pid = parts::self_pid(); pid >= 0) { // named when needed (in_site): cheap here
    Position& p          = position(pid);
    p.announced_function = function;
    p.announced_caller   = caller;
  }
}

extern "C" void haec_suite_mpi_enter(const char* function, const void* caller)
{
  using namespace haec::core;
  if (passive())
    return;
  if (const long pid = parts::self_pid(); pid >= 0)
    entered(pid, intern(function, caller));
}

// SimGrid's function of the calling rank's MPI call returned: the call ends here. The PMPI layer
// reports the exit later, once SMPI's benchmark has stopped again (pmpi/own_work.hpp), and SMPI
// may charge a computation in between, which belongs after the call (as in a replay).
extern "C" void haec_suite_mpi_returned(void)
{
  using namespace haec::core;
  if (passive())
    return;
  if (const long pid = parts::self_pid(); pid >= 0)
    position(pid).returned_at = sg4::Engine::get_clock();
}

extern "C" void haec_suite_mpi_exit(void)
{
  using namespace haec::core;
  if (passive())
    return;
  const long pid = parts::self_pid();
  if (pid < 0)
    return;
  Position& p         = position(pid);
  const uint32_t site = in_site(p);
  const double time   = p.returned_at >= 0 ? p.returned_at : sg4::Engine::get_clock();
  p.last_site         = site;
  set_in_site(p, kNoSite);
  p.inside            = false;
  p.returned_at       = -1;
  if (!bus().mpi_calls.empty())
    bus().mpi_calls.publish(MpiCall{pid, site, false, time});
}

// Every application-level point-to-point message, with world ranks (sender side).
extern "C" void haec_suite_logical_message(int src_world_rank, int dst_world_rank, unsigned long long bytes)
{
  if (haec::core::recording()) // the traffic matrix and the sent = received check
    haec::core::parts::log_app_message(src_world_rank, dst_world_rank, bytes, sg4::Engine::get_clock());
}

// Around each MPI_Test* of a rank (SMPI sleeps inside it): polling.
extern "C" void haec_suite_polling(int polling)
{
  using namespace haec::core;
  if (!bus().polling.empty() && sg4::Actor::self() != nullptr)
    bus().polling.publish(Polling{sg4::this_actor::get_pid(), polling != 0});
}
