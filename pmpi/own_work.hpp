// The layer's own work kept out of the computation SMPI charges to the application.
//
// SMPI benchmarks the application's code between two MPI calls with a thread-CPU timer per rank:
// each of its MPI functions calls smpi_bench_end() on entry (the timer stops and the time since
// smpi_bench_begin() is executed as a computation) and smpi_bench_begin() on return. Anything a
// wrapper does before SimGrid's function would be charged as the application's computation. So
// each entry point opens an OwnWork scope first: it ends SMPI's benchmark (the application's
// computation is charged then, exactly up to the call), the wrapper works on an unmeasured clock,
// the benchmark runs again only around SimGrid's own function (resume/pause: SimGrid's function
// ends it itself, and two smpi_bench_end() without a begin between would charge the span twice),
// and the scope restarts it as the last thing before the application's code resumes.
//
// The few instructions before the timer stops are the same in kind as SMPI's own entry path:
// telling the suite which call the rank is entering (its code region must be known when the
// computation starts: DVFS and workload decisions are taken then), and, with hardware counters,
// reading them (the burst must end before the simulated computation lets other ranks run).
//
// Only the rank's outermost call does this: a call made while another MPI call of the same rank
// is under way (SMPI calling a public MPI_ function itself when the layer is preloaded, a
// callback of the application called by SMPI) runs with SMPI's timer already stopped, and goes
// straight to SimGrid.
#pragma once
#include "call_table.hpp"

namespace haec::pmpi {

class OwnWork {
public:
  // A rank enters the MPI call `f` from `caller` (its return address in the application).
  OwnWork(Fn f, const void* caller);
  ~OwnWork();
  OwnWork(const OwnWork&)            = delete;
  OwnWork& operator=(const OwnWork&) = delete;

  bool outermost() const { return outermost_; }
  const void* caller() const { return caller_; }
  // Around SimGrid's own function: the benchmark runs while it runs.
  void resume();
  void pause();
  // After SimGrid's MPI_Finalize, which ended the benchmark for good.
  void finalized() { paused_ = false; }

private:
  const void* caller_;
  unsigned char* depth_; // the rank's depth in MPI calls
  int counted_    = -1;  // the world rank whose counters paused (-1: none)
  bool outermost_ = false;
  bool paused_    = false;
};

// Whether the computation SMPI charges now for the calling rank is the one at the entry of the MPI
// call it announced (the application's code up to the call), not one inside or after the call.
bool at_call_entry();
// Whether the calling rank is inside an MPI call the layer wraps: at its entry, inside SimGrid's
// function, or after it returned and before the wrapper returns (SMPI charges the span since
// SimGrid's function returned there: a computation of the call, as the suite counts it).
bool inside_mpi_call();

// MPI_Init and MPI_Init_thread: only the rank's outermost call starts the rank (SMPI's
// MPI_Init_thread calls MPI_Init). SMPI starts benchmarking as its MPI_Init returns; the layer's
// start-up after it restarts the benchmark when done, so none of it is charged (init_finalize.cpp).
class AfterInit {
public:
  AfterInit();
  ~AfterInit();
  AfterInit(const AfterInit&)            = delete;
  AfterInit& operator=(const AfterInit&) = delete;
  bool outermost() const { return outermost_; }

private:
  unsigned char* depth_;
  bool outermost_ = false;
};

// Test hook (tests/integration/test_pmpi_own_work.sh): with HAEC_PMPI_TEST_BURN=<seconds> in the
// environment, the layer burns that much CPU at each edge of its unmeasured windows, where its
// work runs, and in its start-up after MPI_Init; none of it may reach the computations SMPI
// charges. Off: one test of a constant.
void burn_for_test();

} // namespace haec::pmpi
