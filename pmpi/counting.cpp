// Counters per burst: see counting.hpp and burst_counters.hpp (why per-thread counting is right).
#include "counting.hpp"

#include "burst_counters.hpp"
#include "call_reporting.hpp"
#include "counter_setup.hpp"
#include "recording.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace haec::pmpi {
namespace {

struct Counting {
  bool enabled = false;
  std::string list;
  std::vector<std::string> events;
  std::vector<const char*> names; // for the suite's C entry point
  BurstCounters bursts;
  unsigned long long bursts_taken = 0, interleaved = 0; // for counting_report
  std::string first_interleaved;
};

Counting& counting()
{
  static auto* c = new Counting; // never destroyed: ranks may still call in during exit
  return *c;
}

// The calling thread's event set: one per OS thread (one in all, unless SMPI runs thread contexts).
thread_local int thread_set   = -1;
thread_local bool thread_tried = false;
thread_local unsigned long long thread_reads = 0; // reads of this thread's counters, by any rank

void refuse(const papi::Verdict& v)
{
  std::fprintf(stderr, "haec: %s: %s; %s\n", v.input.c_str(), v.problem.c_str(), v.fix.c_str());
}

void open_thread_set()
{
  Counting& c = counting();
  if (thread_tried || !c.enabled)
    return;
  thread_tried = true;
  papi::Verdict v;
  thread_set = papi::open_event_set(c.events, c.list, v);
  if (thread_set < 0) {
    refuse(v);
    c.enabled = false;
  }
}

bool read_now(long long* values)
{
  open_thread_set();
  return thread_set >= 0 && papi::read_event_set(thread_set, values);
}

void configure_once()
{
  static std::once_flag once;
  std::call_once(once, [] {
    Counting& c      = counting();
    const char* list = std::getenv("HAEC_COUNTERS");
    if (list == nullptr || *list == '\0')
      return;
    c.list = list;
    papi::Verdict v;
    c.events = papi::parse_event_list(c.list, v);
    if (c.events.empty()) {
      refuse(v);
      return;
    }
    for (auto const& e : c.events)
      c.names.push_back(e.c_str());
    c.bursts  = BurstCounters(c.events.size());
    c.enabled = true;
  });
}

void resume(int rank)
{
  Counting& c = counting();
  std::vector<long long> now(c.events.size());
  if (read_now(now.data()))
    c.bursts.resume(rank, now.data(), thread_reads);
}

// Pauses the rank; false when it was not counting.
bool pause(int rank)
{
  Counting& c = counting();
  if (!c.bursts.running(rank))
    return false;
  std::vector<long long> now(c.events.size());
  if (!read_now(now.data()))
    return false;
  c.bursts.pause(rank, now.data(), thread_reads);
  return true;
}

} // namespace

void open_counting()
{
  configure_once();
  open_thread_set();
}

void start_counting(int world_size, int rank)
{
  Counting& c = counting();
  if (!c.enabled)
    return;
  {
    static std::mutex mu;
    std::lock_guard<std::mutex> lock(mu);
    c.bursts.ensure_ranks(world_size);
    if (TiRecorder* rec = ti())
      rec->counter_events(c.events);
  }
  resume(rank);
}

// The rank's counts since its last hand-over, to the suite (whose next computation of the rank
// takes them) and to the trace recorder.
void hand_over(int rank, const char* function)
{
  Counting& c                      = counting();
  bool interleaved                 = false;
  const std::vector<double> counts = c.bursts.take(rank, &interleaved);
  ++c.bursts_taken;
  if (interleaved && c.interleaved++ == 0) {
    c.first_interleaved = "rank " + std::to_string(rank) + " before " + function;
    if (TiRecorder* rec = ti()) // a trace must not carry them
      rec->failed("--counters: " + c.first_interleaved +
                  ", the computation spanned an unwrapped call that switched ranks: its counts include other ranks' code");
  }
  if (auto sink = report_state().counters)
    sink(c.names.data(), counts.data(), static_cast<int>(counts.size()));
  if (TiRecorder* rec = ti())
    rec->counters(rank, counts);
}

int counting_call_entry(const char* function)
{
  if (!counting().enabled)
    return -1;
  const int rank = world_rank();
  if (pause(rank))
    hand_over(rank, function);
  return rank;
}

void counting_report()
{
  const Counting& c = counting();
  if (c.interleaved > 0)
    std::fprintf(stderr,
                 "haec: --counters: %llu of %llu computation bursts (first: %s) spanned a call that switched to other "
                 "ranks and is not wrapped by libhaec_pmpi; their counts include those ranks' code\n",
                 c.interleaved, c.bursts_taken, c.first_interleaved.c_str());
}

void counting_call_exit(int rank)
{
  if (rank >= 0 && counting().enabled)
    resume(rank);
}

CountingPause::CountingPause(const char* function)
{
  if (!counting().enabled)
    return;
  const int rank = world_rank();
  if (!pause(rank))
    return;
  rank_ = rank;
  // SMPI charges the code run so far as a computation inside `function`: its counts go first.
  hand_over(rank, function);
}

CountingPause::~CountingPause()
{
  if (rank_ >= 0 && counting().enabled)
    resume(rank_);
}

} // namespace haec::pmpi
