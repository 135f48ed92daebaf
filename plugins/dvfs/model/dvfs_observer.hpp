// What the DVFS adapter observes of one rank, as plain numbers for the governors: its
// computations (tasks, keyed by code position), the MPI time after each, and its iterations.
// Fed by dvfs_plugin.cpp from SimGrid signals and the suite's MPI call reports; no SimGrid
// include here so the bookkeeping stays testable in isolation.
#pragma once
#include <absl/container/flat_hash_map.h>

#include <cstdint>

namespace haec::dvfs {

// A computation of a rank, ended, with the MPI time that followed it (until the next one).
struct TaskRecord {
  uint64_t key  = 0; // code position: region and its occurrence within the iteration
  double flops  = 0;
  double t_comp = 0; // seconds computing
  double t_lib  = 0; // seconds in MPI after it, until the next computation started
  double start  = 0;
};

// One iteration of a rank, between two detected boundaries.
struct IterationRecord {
  int rank       = -1;
  int iteration  = 0;
  double start   = 0;
  double end     = 0;
  double flops   = 0; // work W
  double t_comp  = 0; // seconds computing
  double duration() const { return end - start; }
  double t_mpi() const { return end - start - t_comp; }
};

// Task keys: a region seen for the k-th time in the current iteration is another task than
// its first occurrence (a loop body calling the same MPI function twice).
class TaskKeys {
public:
  uint64_t key(uint32_t region)
  {
    uint32_t& n = seen_[region];
    return (static_cast<uint64_t>(region) << 20) ^ n++;
  }
  void new_iteration() { seen_.clear(); }

private:
  // Open addressing: one probe per computation, and no node allocated again each iteration.
  absl::flat_hash_map<uint32_t, uint32_t> seen_;
};

} // namespace haec::dvfs
