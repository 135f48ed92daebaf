// Fuzzes MapLib's CSV matrices (haec::mapping::detail::parse_dense_matrix, what read_maplib_matrix
// reads): an accepted matrix is n x n with n the number of rows.
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "mapping_detail.hpp"

#include <algorithm>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string text = haec::fuzz::as_text(data, size);
  if (std::count(text.begin(), text.end(), '\n') > 512) // dense: n^2 cells
    return 0;
  int n = 0;
  std::vector<uint64_t> cells;
  try {
    cells = haec::mapping::detail::parse_dense_matrix(text, "m.size.csv", n);
  } catch (const haec::InputError&) {
    return 0;
  }
  FUZZ_CHECK(n > 0 && cells.size() == static_cast<size_t>(n) * static_cast<size_t>(n));
  return 0;
}
