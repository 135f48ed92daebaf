// Fuzzes SimGrid time-independent traces: haec::mapping::read_ti_trace. The input is written to
// trace.txt in a private directory that also holds a real per-rank trace set (the tracer's
// "<list>_files/" layout, from tests/data/mapping/ti_list) and an empty trace, so the fuzzer can
// build list files that name them. Inputs whose list entries could resolve outside that directory
// (absolute paths, "..", a file of that name in the working directory) are skipped.
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "mapping.hpp"

#include <filesystem>
#include <fstream>

using namespace haec::mapping;
namespace fs = std::filesystem;

namespace {

fs::path g_dir;

const char* const kRank1 = "0 init\n0 compute 0.60792\n0 send 1 7 10 0\n0 compute 0.08794\n0 sendRecv 3 1 3 2 0 0\n"
                           "0 compute 0.02524\n0 bcast 4 0 1 \n0 compute 0.04468\n0 finalize\n";
const char* const kRank2 = "1 init\n1 compute 0.07272\n1 recv 0 7 10 0\n1 compute 0.0663\n1 isend 2 3 5 1\n"
                           "1 compute 0.02964\n1 wait 1 2 3\n1 compute 0.03504\n1 sendRecv 3 2 3 0 0 0\n"
                           "1 compute 0.1368\n1 bcast 4 0 1 \n1 compute 0.03606\n1 finalize\n";
const char* const kRank3 = "2 init\n2 compute 0.09594\n2 irecv 1 3 5 1\n2 compute 0.06628\n2 wait 1 2 3\n"
                           "2 compute 0.03206\n2 sendRecv 3 0 3 1 0 0\n2 compute 0.03204\n2 bcast 4 0 1 \n"
                           "2 compute 0.02444\n2 finalize\n";

void put(const fs::path& p, const char* text)
{
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

void cleanup()
{
  std::error_code ec;
  fs::remove_all(g_dir, ec);
}

// Rank fields (positions 0, 2, 3, 5 of an action line) in [512, 8192) cost up to 1 GiB each;
// list lines must stay inside the private directory; at most 512 lines (each list entry is a
// file to read and a rank of the matrix).
bool skip(const std::string& text)
{
  const auto all = haec::fuzz::lines(text);
  if (all.size() > 512)
    return true;
  for (const auto& line : all) {
    const auto f = haec::fuzz::fields(line);
    for (size_t k : {0, 2, 3, 5})
      if (k < f.size() && haec::fuzz::slow_rank(f[k]))
        return true;
    if (f.size() == 1) {
      std::error_code ec;
      if (f[0][0] == '/' || f[0].find("..") != std::string::npos || fs::exists(f[0], ec))
        return true;
    }
  }
  return false;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
  const char* shm = fs::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
  g_dir = fs::path(shm) / ("haec-fuzz-ti-" + std::to_string(getpid()));
  put(g_dir / "ti.txt_files" / "rank-1.txt", kRank1);
  put(g_dir / "ti.txt_files" / "rank-2.txt", kRank2);
  put(g_dir / "ti.txt_files" / "rank-3.txt", kRank3);
  put(g_dir / "empty.txt", "# no action\n");
  std::atexit(cleanup);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string text = haec::fuzz::as_text(data, size);
  if (skip(text))
    return 0;
  const std::string path = (g_dir / "trace.txt").string();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  CommMatrix m;
  try {
    m = read_ti_trace(path);
  } catch (const haec::InputError&) {
    return 0;
  }
  FUZZ_CHECK(m.ranks >= 1 && m.ranks < 8192);
  const size_t cells = static_cast<size_t>(m.ranks) * m.ranks;
  FUZZ_CHECK(m.messages.size() == cells && m.bytes.size() == cells);
  for (size_t i = 0; i < cells; ++i)
    FUZZ_CHECK(m.messages[i] > 0 || m.bytes[i] == 0);
  return 0;
}
