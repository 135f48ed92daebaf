// Bookkeeping of the PMPI layer: MPI calls per rank and function, and a histogram of the
// application's point-to-point message sizes. Pure C++ (no MPI header) so it stays testable.
// One copy of libhaec_pmpi serves every simulated rank of the process, hence the rank key.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace haec::pmpi {

// Every function the layer intercepts; the CSV lists them in this order.
#define HAEC_PMPI_FUNCTIONS(X)                                                                                        \
  X(Init) X(Init_thread) X(Finalize)                                                                                   \
  X(Send) X(Isend) X(Ssend) X(Issend) X(Bsend) X(Ibsend) X(Rsend) X(Irsend) X(Sendrecv) X(Sendrecv_replace)            \
  X(Send_init) X(Ssend_init) X(Bsend_init) X(Rsend_init) X(Recv_init) X(Start) X(Startall) X(Request_free)             \
  X(Recv) X(Irecv) X(Probe) X(Iprobe)                                                                                  \
  X(Wait) X(Waitall) X(Waitany) X(Waitsome) X(Test) X(Testall) X(Testany) X(Testsome)                                  \
  X(Barrier) X(Bcast) X(Reduce) X(Allreduce) X(Gather) X(Gatherv) X(Scatter) X(Scatterv) X(Allgather)                  \
  X(Allgatherv) X(Alltoall) X(Alltoallv) X(Reduce_scatter) X(Scan) X(Exscan)                                   \
  X(Iteration_in) X(Iteration_out) X(Migrate)                                                                       \
  X(Ibarrier) X(Ibcast) X(Ireduce) X(Iallreduce) X(Ialltoall) X(Iallgather) X(Igather) X(Iscatter)                  \
  X(Win_create) X(Win_allocate) X(Win_free) X(Win_fence) X(Win_lock) X(Win_unlock) X(Put) X(Get) X(Accumulate)

enum class Fn : int {
#define HAEC_PMPI_ENUM(name) name,
  HAEC_PMPI_FUNCTIONS(HAEC_PMPI_ENUM)
#undef HAEC_PMPI_ENUM
      kCount
};
constexpr int kFnCount = static_cast<int>(Fn::kCount);

// "MPI_Send" for Fn::Send.
const char* fn_name(Fn f);

class CallTable {
public:
  // Rows are allocated once per world size; counting never allocates, so ranks interleaving
  // (SMPI actors) cannot invalidate each other's rows.
  void ensure_ranks(int n);
  int ranks() const { return static_cast<int>(rows_.size()); }
  void count(int rank, Fn f)
  {
    if (rank >= 0 && rank < ranks())
      rows_[rank][static_cast<int>(f)]++;
  }
  uint64_t calls(int rank, Fn f) const;
  // "rank,function,calls" with one row per non-zero count, ranks ascending, functions in
  // HAEC_PMPI_FUNCTIONS order; a missing row means zero calls.
  std::string csv() const;

private:
  std::vector<std::array<uint64_t, kFnCount>> rows_;
};

// Application point-to-point messages per payload size.
class SizeHistogram {
public:
  void add(uint64_t bytes) { counts_[bytes]++; }
  const std::map<uint64_t, uint64_t>& counts() const { return counts_; }
  // "bytes,messages", sizes ascending.
  std::string csv() const;

private:
  std::map<uint64_t, uint64_t> counts_;
};

} // namespace haec::pmpi
