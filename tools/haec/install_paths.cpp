#include "install_paths.hpp"
#include "simgrid_compat.hpp"

#include <climits>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace haec::cli {
namespace {
// Written by scripts/build-simgrid.sh into the prefix: its key, then "patch NAME sha256 ..." lines.
constexpr const char* kSimgridBuildInfo = "share/haec-simgrid/build-info.txt";
} // namespace

std::string self_dir()
{
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return ".";
  buf[n] = '\0';
  return std::filesystem::path(buf).parent_path().string();
}

std::string lib_dir()
{
  return std::filesystem::weakly_canonical(std::filesystem::path(self_dir()) / ".." / "lib").string();
}

std::string suite_library()
{
  return lib_dir() + "/libhaec_suite.so";
}

std::string pmpi_library_dir()
{
  return lib_dir();
}

std::string replay_program()
{
  return lib_dir() + "/haec-replay";
}

std::string simgrid_program(const std::string& name)
{
  return std::string(HAEC_SIMGRID_BINDIR) + "/" + name;
}

std::string simgrid_description()
{
  std::string patches;
  std::ifstream info(std::string(HAEC_SIMGRID_PREFIX) + "/" + kSimgridBuildInfo);
  for (std::string line; std::getline(info, line);)
    if (line.rfind("patch ", 0) == 0)
      patches += (patches.empty() ? "" : ", ") + line.substr(6, line.find(' ', 6) - 6);
  return "SimGrid " + simgrid_compat::version_text() + " in " + HAEC_SIMGRID_PREFIX +
         (patches.empty() ? ", stock" : ", patched: " + patches);
}

} // namespace haec::cli
