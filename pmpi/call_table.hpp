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

// Every function the layer intercepts (generated from mpi_functions.txt); the CSV lists them in
// this order.
#include "pmpi_functions.inc"

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
