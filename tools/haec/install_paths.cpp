#include "install_paths.hpp"

#include <climits>
#include <filesystem>
#include <unistd.h>

namespace haec::cli {

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

std::string checked_patched_simgrid()
{
  namespace fs    = std::filesystem;
  const fs::path prefix = fs::weakly_canonical(fs::path(self_dir()) / ".." / "simgrid-prefix");
  std::error_code ec;
  if (fs::is_regular_file(prefix / "CHECKED", ec) && fs::is_regular_file(prefix / "lib" / "libsimgrid.so.3.32", ec))
    return prefix.string();
  return "";
}

} // namespace haec::cli
