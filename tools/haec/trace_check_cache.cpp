#include "trace_check_cache.hpp"
#include "atomic_file.hpp"
#include "ti_check.hpp"

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace haec::cli {
namespace {

fs::path cache_dir()
{
  if (const char* off = std::getenv("HAEC_TRACE_CHECK_CACHE"); off && std::string(off) == "off")
    return {};
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
    return fs::path(xdg) / "haec" / "trace-checks";
  if (const char* home = std::getenv("HOME"); home && *home == '/')
    return fs::path(home) / ".cache" / "haec" / "trace-checks";
  return {};
}

// One line per file: absolute path, size, modification time in ns. Any change to the list or to a
// rank file changes it.
std::string identity(const std::string& list, int ranks)
{
  std::ostringstream key;
  key << "haec trace check, " << ranks << " ranks\n";
  std::vector<std::string> files = {list};
  for (const auto& f : trace::ti_rank_files(list))
    if (f != list)
      files.push_back(f);
  for (const auto& f : files) {
    struct stat st {};
    if (::stat(f.c_str(), &st) != 0)
      return {}; // the check itself will say what is wrong
    key << fs::absolute(f).string() << ' ' << st.st_size << ' ' << st.st_mtim.tv_sec << '.' << st.st_mtim.tv_nsec
        << '\n';
  }
  return key.str();
}

std::string fnv1a(const std::string& s)
{
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

bool remembered(const fs::path& entry, const std::string& key)
{
  std::ifstream in(entry, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str() == key; // the whole identity, not only its hash
}

} // namespace

void check_trace_cached(const std::string& list, int ranks)
{
  const fs::path dir = cache_dir();
  std::string key;
  try {
    key = dir.empty() ? std::string() : identity(list, ranks);
  } catch (...) { // an unreadable list: the check names it
    key.clear();
  }
  const fs::path entry = key.empty() ? fs::path() : dir / fnv1a(key);
  if (!key.empty() && remembered(entry, key))
    return;
  trace::check_ti_trace(list, ranks);
  if (key.empty())
    return;
  try {
    std::error_code ec;
    fs::create_directories(dir, ec);
    write_file_atomic(entry.string(), key);
  } catch (...) { // a read-only or full cache only costs the next check
  }
}

} // namespace haec::cli
