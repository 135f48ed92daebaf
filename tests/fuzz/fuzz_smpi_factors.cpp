// Fuzzes SMPI factor tables ("threshold:value;..."): haec::core::SmpiFactorTable and its lookup.
// An accepted table gives finite factors, 1.0 at or below its first threshold, and the value of
// the largest threshold strictly below the size (SimGrid 3.32's NetworkSmpiModel rule).
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "smpi_factors.hpp"

#include <cmath>
#include <limits>

using haec::core::SmpiFactorTable;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string text = haec::fuzz::as_text(data, size);
  try {
    SmpiFactorTable table(text, "smpi/bw-factor");
    const double sizes[] = {-1.0, 0.0, 1.0, 15.0, 16.0, 17.0, 1023.0, 1024.0, 65536.0, 1e6, 1e12, 1e19,
                            std::numeric_limits<double>::max(), std::numeric_limits<double>::infinity()};
    for (double s : sizes)
      FUZZ_CHECK(std::isfinite(table.lookup(s)));
    FUZZ_CHECK(table.lookup(-std::numeric_limits<double>::infinity()) == 1.0);
  } catch (const haec::InputError&) {
  }
  return 0;
}
