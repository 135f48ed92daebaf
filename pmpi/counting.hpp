// Hardware counters per computation burst (HAEC_COUNTERS=EVENT,... set by `haec run --counters`):
// each rank's burst counts go to the suite (haec_suite_computation_counters, just before the
// entry of the call that ends the burst) and, when recording, into the TI trace as the
// `# RANK haec_counters ...` line before the burst's compute (libs/trace/counter_annotation.hpp).
// Without HAEC_COUNTERS the cost is one flag test per call; PAPI is not even loaded.
#pragma once

namespace haec::pmpi {

// Before a rank's real MPI_Init, outside SMPI's benchmarked code: the first one opens PAPI and
// the thread's event set (measured: 8.7 ms of CPU, which after MPI_Init SMPI charged to rank 0's
// first computation). When PAPI cannot count, one line on stderr and no counters for the run.
void open_counting();
// After it: the rank's counting starts.
void start_counting(int world_size, int rank);

// Around each MPI call (own_work.hpp): entry ends the calling rank's burst (counts reported) and
// returns its world rank (-1 when not counting), exit starts the rank's next burst. `function`
// names the call in the end-of-run report of interleaved bursts. Not counting: one flag test each.
int counting_call_entry(const char* function);
void counting_call_exit(int rank);

// At the last MPI_Finalize: one line on stderr when some bursts were interleaved with other ranks'
// code (an unwrapped call switched ranks mid-burst), how many and the first.
void counting_report();

// An SMPI function the application calls between MPI calls that may switch to another rank
// (MPI_Wtime, smpi_execute*, smpi_sleep, ...): the calling rank's counting pauses meanwhile. SMPI
// charges the code run since the last MPI call as a computation inside such a function, so the
// counts so far are handed over first, as at a call's entry (the suite's next computation of the
// rank takes them; the recorder sums them with the rest of the burst).
class CountingPause {
public:
  explicit CountingPause(const char* function);
  ~CountingPause();
  CountingPause(const CountingPause&)            = delete;
  CountingPause& operator=(const CountingPause&) = delete;

private:
  int rank_ = -1; // -1: nothing paused
};

} // namespace haec::pmpi
