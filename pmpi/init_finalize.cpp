// MPI_Init, MPI_Init_thread and MPI_Finalize (their wrappers' bodies are hand-written: the rank
// exists only after the real MPI_Init; the Fortran MPI_INIT / MPI_INIT_THREAD are in
// init_entry_points.cpp), and the debug outputs written when the last rank finalizes (HAEC_PMPI_DEBUG_COUNTS, HAEC_PMPI_DEBUG_SIZES).
#include "wrappers.hpp"

#include "atomic_file.hpp"
#include "counting.hpp"
#include "own_work.hpp"

#include <smpi/smpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>

namespace haec::pmpi {
namespace {

void read_debug_paths(ReportState& s)
{
  static bool read = false;
  if (read)
    return;
  read = true;
  if (const char* p = std::getenv("HAEC_PMPI_DEBUG_COUNTS"))
    s.counts_path = p;
  if (const char* p = std::getenv("HAEC_PMPI_DEBUG_SIZES"))
    s.sizes_path = p;
}

int world_size()
{
  int n = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

// After the real MPI_Init: tables sized, the suite bound, the call counted and reported (entered
// and left at once: regions start there), the rank's trace and counting started. SMPI benchmarks
// the rank's code from the end of its MPI_Init; this bookkeeping is the layer's, not the
// application's: the caller restarts the benchmark after it (init_done), so the rank's first
// computation is measured from there. It takes no simulated time, so MPI_Init's exit and the
// trace's start are where SMPI's MPI_Init returned, in emulation as in a replay of its trace.
void on_init(Fn f, const void* caller)
{
  burn_for_test(); // test hook (own_work.hpp): the bookkeeping below must not be charged
  ReportState& s = report_state();
  const int n    = world_size();
  {
    std::lock_guard<std::mutex> lock(s.mu);
    s.calls.ensure_ranks(n);
    s.world_size = n;
    read_debug_paths(s);
  }
  start_recording(n);
  bind_suite();
  const int rank = world_rank();
  s.calls.count(rank, f);
  start_recording_rank(rank, f, caller);
  if (s.enter != nullptr) {
    s.enter(fn_name(f), caller);
    s.exit();
  }
  start_counting(n, rank); // after the recorder: it learns the event names
}

// The end of the layer's start-up: SMPI's benchmark starts again here (xbt's timer start forgets
// what it measured since SimGrid's MPI_Init restarted it), and the first burst's counting with it.
void init_done()
{
  smpi_bench_begin();
}

void write_debug_file(const std::string& path, const std::string& content)
{
  if (path.empty())
    return;
  try {
    haec::write_file_atomic(path, content);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "haec_pmpi: %s\n", e.what());
  }
}

void on_finalize()
{
  ReportState& s = report_state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (++s.finalized == s.world_size) { // last rank: every count is final
    write_debug_file(s.counts_path, s.calls.csv());
    write_debug_file(s.sizes_path, s.sizes.csv());
    counting_report();
  }
}

} // namespace

namespace wrap {

// SMPI's MPI_Init_thread calls MPI_Init, which reaches this layer again when it is preloaded:
// only the outermost call starts the rank (AfterInit tells).
int Init(const void* caller, int* argc, char*** argv)
{
  static const auto next = next_function("MPI_Init", &PMPI_Init);
  AfterInit own;
  if (!own.outermost())
    return next(argc, argv);
  open_counting(); // before SMPI starts benchmarking the rank's code
  const int rc = next(argc, argv);
  if (rc == MPI_SUCCESS) {
    on_init(Fn::Init, caller);
    init_done();
  }
  return rc;
}

int Init_thread(const void* caller, int* argc, char*** argv, int required, int* provided)
{
  static const auto next = next_function("MPI_Init_thread", &PMPI_Init_thread);
  AfterInit own;
  if (!own.outermost())
    return next(argc, argv, required, provided);
  open_counting(); // before SMPI starts benchmarking the rank's code
  const int rc = next(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) {
    on_init(Fn::Init_thread, caller);
    init_done();
  }
  return rc;
}

// SimGrid's MPI_Finalize ends SMPI's benchmark for good: the trace files are written after it.
int Finalize(OwnWork& own)
{
  static const auto next = next_function("MPI_Finalize", &PMPI_Finalize);
  if (!own.outermost())
    return next();
  Call call(Fn::Finalize, own.caller());
  on_finalize();
  Recording rec(call, false, false);
  own.resume();
  const int rc = next();
  rec.done();
  own.finalized();
  if (rec)
    finish_recording(call.rank);
  return rc;
}

} // namespace wrap
} // namespace haec::pmpi
