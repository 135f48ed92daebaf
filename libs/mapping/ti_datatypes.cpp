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
  if (id == "-1") // MPI_DATATYPE_NULL
    return 0;
  if (id.empty() || id.size() > 2 || (id.size() == 2 && id[0] == '0') || id.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  const int i = std::stoi(id);
  return i < static_cast<int>(sizeof kSizes / sizeof kSizes[0]) ? kSizes[i] : -1;
}

} // namespace haec::mapping::detail
