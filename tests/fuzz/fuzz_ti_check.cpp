// Fuzzes `haec trace check` (haec::trace::check_ti_trace: line checks, our haec_* schemas, the
// matching simulation of messages, communicators, collectives and windows). The input is cut into
// rank files at lines "--" (at most 4 ranks), written with a list naming them into a private
// directory. Only haec::InputError and haec::DeadlockError may escape; a trace that passes must
// pass again and give the communicators its check found (ti_communicators).
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "ti_check.hpp"

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

fs::path g_dir;

void cleanup()
{
  std::error_code ec;
  fs::remove_all(g_dir, ec);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
  const char* shm = fs::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
  g_dir           = fs::path(shm) / ("haec-fuzz-ti-check-" + std::to_string(getpid()));
  fs::create_directories(g_dir);
  std::atexit(cleanup);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  if (size > 1 << 16)
    return 0;
  std::vector<std::string> ranks(1);
  for (const auto& line : haec::fuzz::lines(haec::fuzz::as_text(data, size))) {
    if (line == "--") {
      if (ranks.size() == 4)
        return 0;
      ranks.emplace_back();
    } else {
      ranks.back() += line + "\n";
    }
  }
  std::string list;
  for (size_t r = 0; r < ranks.size(); ++r) {
    std::ofstream(g_dir / (std::to_string(r) + ".txt"), std::ios::binary | std::ios::trunc) << ranks[r];
    list += std::to_string(r) + ".txt\n";
  }
  const std::string path = (g_dir / "trace").string();
  std::ofstream(path, std::ios::binary | std::ios::trunc) << list;
  try {
    haec::trace::check_ti_trace(path, -1);
  } catch (const haec::InputError&) {
    return 0;
  } catch (const haec::DeadlockError&) {
    return 0;
  }
  int n = -1;
  const haec::trace::TiProgram program = haec::trace::read_ti_program(path, n);
  FUZZ_CHECK(n == static_cast<int>(ranks.size()));
  const auto comms = haec::trace::ti_communicators(program, n);
  FUZZ_CHECK(comms.count(0) == 1 && comms.at(0).size() == ranks.size());
  for (auto const& [id, members] : comms) {
    FUZZ_CHECK(id == 0 || id >= 2);
    for (int m : members)
      FUZZ_CHECK(m >= 0 && m < n);
  }
  return 0;
}
