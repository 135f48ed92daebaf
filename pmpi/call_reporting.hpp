// Call reporting, the first job of every wrapper: the call is counted per world rank and function,
// its entry and exit go to the suite with the application's call site, point-to-point sends are
// reported as logical messages, and blocking calls name the peer they wait for. The suite's entry
// points are weak references (the suite may be absent), looked up again at MPI_Init.
#pragma once
#include <mpi.h> // SMPI's header (/usr/include/smpi)

#include "call_table.hpp"

#include <mutex>
#include <string>
#include <unordered_map>

// Defined by the suite library when it is loaded; absent (null) otherwise.
extern "C" void haec_suite_logical_message(int src_world_rank, int dst_world_rank, unsigned long long bytes)
    __attribute__((weak));
// The calling rank starts (1) or stops (0) polling, around each MPI_Test* (power plugin).
extern "C" void haec_suite_polling(int polling) __attribute__((weak));
// The calling rank enters an MPI call from the return address `caller` (a call site of the
// application), and leaves it. Code regions are keyed by these sites.
extern "C" void haec_suite_mpi_enter(const char* function, const void* caller) __attribute__((weak));
extern "C" void haec_suite_mpi_exit(void) __attribute__((weak));
// The calling rank is about to enter that call: the computation SMPI charges next (at the call's
// start, own_work.hpp) ends there. Called just before SMPI's benchmark stops, so it must be cheap;
// haec_suite_mpi_enter follows once it has stopped.
extern "C" void haec_suite_mpi_announce(const char* function, const void* caller) __attribute__((weak));
// SimGrid's function of the calling rank's call returned (the call's end, before SMPI's benchmark
// stops again and the exit is reported).
extern "C" void haec_suite_mpi_returned(void) __attribute__((weak));
// The calling rank's hardware counters over the computation burst that ends at the MPI call it is
// entering (counts[i] of events[i], PAPI's counts), called just before haec_suite_mpi_enter of that
// call; the core attaches them to the rank's next computation (counter-based power, counters.csv).
// Also called, without an entry after it, before an SMPI function that charges a computation
// mid-burst (MPI_Wtime, smpi_execute*, ...: yield_points.cpp) with the counts up to there.
extern "C" void haec_suite_computation_counters(const char* const* events, const double* counts, int n)
    __attribute__((weak));
// Right after the entry of a call that can block on a peer: the peer's world rank and the tag
// (-1: MPI_ANY_SOURCE / MPI_ANY_TAG or unknown). For the deadlock report.
extern "C" void haec_suite_mpi_peer(int peer_world_rank, int tag) __attribute__((weak));

namespace haec::pmpi {

using MessageSink = void (*)(int, int, unsigned long long);
using PollSink    = void (*)(int);
using EnterSink   = void (*)(const char*, const void*);
using AnnounceSink = EnterSink;
using ExitSink    = void (*)();
using PeerSink    = void (*)(int, int);
using CountersSink = void (*)(const char* const*, const double*, int);

struct PersistentSend {
  int src = -1, dst = -1;
  unsigned long long bytes = 0;
};

struct Peer {
  int world_rank = -1, tag = -1;
};

// Shared by all ranks: SMPI runs every rank as an actor of this one process.
struct ReportState {
  std::mutex mu; // init/finalize, persistent requests, debug histogram (rare paths)
  CallTable calls;
  SizeHistogram sizes;
  int world_size = 0;
  int finalized  = 0;
  int keyval     = MPI_KEYVAL_INVALID;
  std::string counts_path, sizes_path; // HAEC_PMPI_DEBUG_COUNTS / HAEC_PMPI_DEBUG_SIZES
  MessageSink sink = nullptr;
  PollSink poll    = nullptr;
  EnterSink enter  = nullptr;
  ExitSink exit    = nullptr;
  AnnounceSink announce = nullptr; // bound with enter and exit: all four or none
  ExitSink returned     = nullptr;
  PeerSink peer    = nullptr;
  CountersSink counters = nullptr; // haec_suite_computation_counters (counting.cpp)
  std::unordered_map<MPI_Request, PersistentSend> persistent;
  std::unordered_map<MPI_Request, Peer> request_peers; // kept only when the suite takes peers
};
ReportState& report_state();

// Binds the suite's entry points (a suite loaded after this library is found with dlsym).
void bind_suite();

// SimGrid's MPI_<name>, found inside libsimgrid itself so our own definition is skipped; the
// PMPI_ fallback if that lookup fails (SMPI's error handlers run in MPI_<name>).
void* simgrid_symbol(const char* name);
template <class F> F next_function(const char* name, F pmpi_fallback)
{
  void* f = simgrid_symbol(name);
  return f != nullptr ? reinterpret_cast<F>(f) : pmpi_fallback;
}

int world_rank();
// World rank of rank `r` of `comm`, or -1 when there is no real peer (MPI_PROC_NULL, wildcard, bad
// arguments: the real call reports those).
int to_world(MPI_Comm comm, int r);
unsigned long long payload(int count, MPI_Datatype type);

// One MPI call of the application: counted, and reported to the suite (entry now, exit when the
// wrapper returns) with the call site `caller`, so the suite knows each rank's code region.
class Call {
public:
  Call(Fn f, const void* caller);
  ~Call();
  Call(const Call&)            = delete;
  Call& operator=(const Call&) = delete;
  const int rank; // the caller's world rank
  const Fn fn;
  const void* const caller;

private:
  bool entered_ = false;
};

// The rank polls (MPI_Test*) until end() or the end of the scope.
class Polling {
public:
  Polling();
  ~Polling() { end(); }
  Polling(const Polling&)            = delete;
  Polling& operator=(const Polling&) = delete;
  void end();

private:
  PollSink sink_;
};

void deliver(int src, int dst, unsigned long long bytes); // one logical message
void report_message(const Call& call, MPI_Comm comm, int dst, int count, MPI_Datatype type);
void report_peer(const Call& call, MPI_Comm comm, int rank, int tag);
// The peer of the active requests among `requests` when they all agree, else -1 (and the tag likewise).
void report_request_peers(const Call& call, int count, const MPI_Request* requests);
// A request the call created (rc: its return code) waits on rank `rank` of `comm` with `tag`.
void track_request(const Call& call, int rc, const MPI_Request* request, MPI_Comm comm, int rank, int tag);

} // namespace haec::pmpi
