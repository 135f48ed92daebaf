#include "call_table.hpp"

namespace haec::pmpi {

const char* fn_name(Fn f)
{
  static const char* const names[] = {
#define HAEC_PMPI_NAME(name) "MPI_" #name,
      HAEC_PMPI_FUNCTIONS(HAEC_PMPI_NAME)
#undef HAEC_PMPI_NAME
  };
  int i = static_cast<int>(f);
  return (i >= 0 && i < kFnCount) ? names[i] : "MPI_unknown";
}

void CallTable::ensure_ranks(int n)
{
  if (n > ranks())
    rows_.resize(n, std::array<uint64_t, kFnCount>{});
}

uint64_t CallTable::calls(int rank, Fn f) const
{
  return (rank >= 0 && rank < ranks()) ? rows_[rank][static_cast<int>(f)] : 0;
}

std::string CallTable::csv() const
{
  std::string out = "rank,function,calls\n";
  for (int r = 0; r < ranks(); ++r)
    for (int f = 0; f < kFnCount; ++f)
      if (rows_[r][f] != 0)
        out += std::to_string(r) + "," + fn_name(static_cast<Fn>(f)) + "," + std::to_string(rows_[r][f]) + "\n";
  return out;
}

std::string SizeHistogram::csv() const
{
  std::string out = "bytes,messages\n";
  for (auto const& [bytes, n] : counts_)
    out += std::to_string(bytes) + "," + std::to_string(n) + "\n";
  return out;
}

} // namespace haec::pmpi
