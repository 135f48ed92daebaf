// Fuzzes traffic_matrix.csv: haec::mapping::read_traffic_matrix on an in-memory file. An accepted
// matrix is square with ranks^2 cells and holds no bytes without messages.
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "mapping.hpp"

using namespace haec::mapping;

namespace {

// Rank fields in [512, 8192) are valid but cost up to 1 GiB each (see fuzz_support.hpp).
bool too_slow(const std::string& text)
{
  for (const auto& line : haec::fuzz::lines(text)) {
    size_t b = 0;
    for (int k = 0; k < 2; ++k) { // src_rank, dst_rank
      size_t e = line.find(',', b);
      if (haec::fuzz::slow_rank(line.substr(b, e == std::string::npos ? std::string::npos : e - b)))
        return true;
      if (e == std::string::npos)
        break;
      b = e + 1;
    }
  }
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  static haec::fuzz::MemFile file("traffic_matrix.csv");
  if (too_slow(haec::fuzz::as_text(data, size)))
    return 0;
  CommMatrix m;
  try {
    m = read_traffic_matrix(file.write(data, size));
  } catch (const haec::InputError&) {
    return 0;
  }
  FUZZ_CHECK(m.ranks >= 0 && m.ranks < 8192);
  const size_t cells = static_cast<size_t>(m.ranks) * m.ranks;
  FUZZ_CHECK(m.messages.size() == cells && m.bytes.size() == cells);
  for (size_t i = 0; i < cells; ++i)
    FUZZ_CHECK(m.messages[i] > 0 || m.bytes[i] == 0);
  return 0;
}
