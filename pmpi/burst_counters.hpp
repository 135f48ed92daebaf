// Per-rank accounting of hardware counters over computation bursts (pure C++, unit-tested).
//
// A rank's burst is its own code between two MPI calls. The PMPI layer reads the calling
// thread's counters when a call returns (resume) and when the next one is entered (pause); the
// difference is the burst's count. Under SMPI every rank is a user-level context of one OS thread
// (or an OS thread of its own with contexts/factory:thread), and a context only switches inside a
// simcall: in an MPI call, or in the few SMPI functions the application may call between calls
// (MPI_Wtime, smpi_execute*, smpi_sleep, ...), which the PMPI layer wraps in a pause/resume
// (counting.hpp). So what the thread counts between a resume and the next pause of a rank is that
// rank's code only, and per-thread counting (PAPI's default) is right. An MPI call the layer does
// not wrap may still switch ranks mid-burst (e.g. MPI_Comm_split from Fortran): then another rank
// reads the same thread's counters in between, which `thread_reads` (the reads of the calling
// thread so far) reveals, and the burst is reported as interleaved.
#pragma once
#include <cstddef>
#include <vector>

namespace haec::pmpi {

class BurstCounters {
public:
  explicit BurstCounters(std::size_t events = 0) : events_(events) {}
  std::size_t events() const { return events_; }
  void ensure_ranks(int n);
  // The rank's code runs from here; `now` holds the thread's counters (one per event).
  void resume(int rank, const long long* now, unsigned long long& thread_reads);
  // The rank's code stops here (an MPI call, a simcall): what it counted since resume is added.
  void pause(int rank, const long long* now, unsigned long long& thread_reads);
  bool running(int rank) const;
  // The counts added since the last take (one per event), then zero; `interleaved` tells whether
  // another rank read the thread's counters while they were being counted.
  std::vector<double> take(int rank, bool* interleaved = nullptr);

private:
  struct Rank {
    std::vector<long long> start;
    std::vector<double> counted;
    unsigned long long read_at = 0; // the thread's read count at resume
    bool running = false, interleaved = false;
  };
  Rank* at(int rank);
  std::size_t events_;
  std::vector<Rank> ranks_;
};

} // namespace haec::pmpi
