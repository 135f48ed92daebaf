// Hardware counters of computation bursts. The PMPI layer hands each rank's counts over
// the burst that ends at the call it enters (haec_suite_computation_counters, pmpi/call_reporting.hpp),
// the replay each `# RANK haec_counters ...` annotation of a trace (replay_ranks.cpp); both
// wait here until the rank's next computation starts, which carries them on the bus
// (ComputationStarted::counters, computations.cpp): the counter-based power model prices it by them.
// A recording run writes counters.csv (rank, region, summed counts, busy seconds, mean rates).
#include "core_parts.hpp"
#include "input_error.hpp"
#include "run.hpp"

#include <simgrid/s4u.hpp>

#include <map>
#include <unordered_map>

namespace sg4 = simgrid::s4u;

namespace haec::core {
namespace {

struct Counters {
  std::vector<std::string> events;                          // the run's events, in the first burst's order
  std::unordered_map<long, std::vector<double>> pending;    // pid -> counts waiting for its computation
  std::map<std::pair<int, std::string>, CounterRow> rows;   // (rank, region) -> counters.csv row
  std::unordered_map<const sg4::Activity*, CounterRow*> running; // counted computations until they end
};

Counters& counters()
{
  static Counters c;
  return c;
}

std::string event_list(const std::vector<std::string>& events)
{
  std::string text;
  for (auto const& e : events)
    text += (text.empty() ? "" : " ") + e;
  return text;
}

// `counts` in the order of the run's events. A burst counting other events than the first one did
// would make its power and its counters.csv row incomparable: refused.
std::vector<double> in_run_order(const std::vector<std::string>& events, const std::vector<double>& counts,
                                 const std::string& where)
{
  Counters& c = counters();
  if (c.events.empty())
    c.events = events;
  std::vector<double> ordered(c.events.size(), 0.0);
  size_t matched = 0;
  for (size_t i = 0; i < events.size(); ++i)
    for (size_t k = 0; k < c.events.size(); ++k)
      if (c.events[k] == events[i]) {
        ordered[k] = counts[i];
        ++matched;
      }
  if (matched != c.events.size() || events.size() != c.events.size())
    reject_setting(InputError(where, "counts events " + event_list(events) + " where the run's first burst counted " +
                                         event_list(c.events),
                              "record the same events on every rank and burst")
                       .what());
  return ordered;
}

void on_started(const ComputationStarted& e)
{
  if (e.counters == nullptr)
    return;
  const uint32_t region = e.region;
  const int rank        = rank_of(e.pid);
  CounterRow& row       = counters().rows[{rank, region == kNoRegion ? std::string() : region_text(region)}];
  row.rank              = rank;
  row.region            = region == kNoRegion ? std::string() : region_text(region);
  if (row.counts.empty())
    row.counts.assign(e.counters->size(), 0.0);
  for (size_t k = 0; k < e.counters->size(); ++k)
    row.counts[k] += (*e.counters)[k];
  ++row.computations;
  counters().running[&e.exec] = &row;
}

void on_ended(const ComputationEnded& e)
{
  auto& running = counters().running;
  if (running.empty()) // runs without counters: one test per computation
    return;
  auto it = running.find(&e.exec);
  if (it == running.end())
    return;
  it->second->busy_s += e.end - e.exec.get_start_time();
  running.erase(it);
}

} // namespace

const std::vector<std::string>& counter_events()
{
  return counters().events;
}

namespace parts {

void set_pending_counters(long pid, const std::vector<std::string>& events, const std::vector<double>& counts,
                          const std::string& where)
{
  counters().pending[pid] = in_run_order(events, counts, where);
}

std::optional<std::vector<double>> take_pending_counters(long pid)
{
  auto& pending = counters().pending;
  if (pending.empty()) // runs without counters: one test
    return std::nullopt;
  auto it = pending.find(pid);
  if (it == pending.end())
    return std::nullopt;
  std::vector<double> counts = std::move(it->second);
  pending.erase(it);
  return counts;
}

void start_counters()
{
  if (!recording())
    return;
  bus().computation_started.subscribe(on_started);
  bus().computation_ended.subscribe(on_ended);
}

void add_counter_results(Results& results)
{
  Counters& c = counters();
  if (c.rows.empty())
    return;
  std::vector<CounterRow> rows;
  for (auto const& [key, row] : c.rows)
    rows.push_back(row);
  results.add_file("counters.csv", counters_csv(c.events, rows));
}

} // namespace parts
} // namespace haec::core

// The PMPI layer's entry point (pmpi/call_reporting.hpp): the calling actor is the rank.
extern "C" void haec_suite_computation_counters(const char* const* events, const double* counts, int n)
{
  const long pid = haec::core::parts::self_pid();
  if (n <= 0 || pid < 0)
    return;
  std::vector<std::string> names(events, events + n);
  std::vector<double> values(counts, counts + n);
  haec::core::parts::set_pending_counters(pid, names, values,
                                          "rank " + std::to_string(haec::core::rank_of(pid)) + " counters");
}
