// Datatype ids of SimGrid 3.32 TI traces: the `id` of CREATE_MPI_DATATYPE in
// src/smpi/mpi/smpi_datatype.cpp. Sizes are sizeof() of the C types on LP64 Linux (x86_64) and
// were checked with MPI_Type_size under smpirun 3.32 (ids 51-54 and 58 are not exported by smpi's
// mpi.h; their sizes come from the C++ types SimGrid uses).
#include "mapping_detail.hpp"

namespace haec::mapping::detail {

int ti_datatype_size(const std::string& id)
{
  static const int kSizes[] = {
      8,  4,  1,  2,  8,  4,  1,  8,  1,  1,  // 0 DOUBLE .. 9 UNSIGNED_CHAR
      2,  4,  8,  8,  16, 4,  1,  1,  2,  4,  // 10 UNSIGNED_SHORT .. 19 INT32_T
      8,  1,  2,  4,  8,  8,  16, 32, 8,  8,  // 20 INT64_T .. 29 OFFSET
      8,  16, 16, 8,  8,  8,  16, 16, 4,  4,  // 30 FLOAT_INT .. 39 REAL4
      8,  16, 8,  16, 16, 4,  2,  4,  8,  16, // 40 REAL8 .. 49 INTEGER16
      32, 1,  8,  16, 32, 0,  0,  1,  8,  8,  // 50 LONG_DOUBLE_INT .. 59 COUNT (55 UB, 56 LB)
  };
  // Read for every replayed message: the id's one or two digits are read by hand (no leading
  // zero, nothing else), as std::stoi would read them once the text is known to be canonical.
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const size_t n = id.size();
  if (n == 2 && id[0] == '-' && id[1] == '1') // MPI_DATATYPE_NULL
    return 0;
  if (n == 0 || n > 2 || !digit(id[0]) || (n == 2 && (id[0] == '0' || !digit(id[1]))))
    return -1;
  const int i = n == 1 ? id[0] - '0' : (id[0] - '0') * 10 + (id[1] - '0');
  return i < static_cast<int>(sizeof kSizes / sizeof kSizes[0]) ? kSizes[i] : -1;
}

} // namespace haec::mapping::detail
