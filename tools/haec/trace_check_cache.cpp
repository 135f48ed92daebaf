#include "trace_check_cache.hpp"
#include "atomic_file.hpp"
#include "text.hpp"
#include "ti_check.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <set>
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
// rank file changes it. Empty when a file cannot be listed or seen (the check will say why).
std::string identity(const std::string& list, int ranks)
{
  std::vector<std::string> files = {list};
  try {
    for (const auto& f : trace::ti_rank_files(list))
      if (f != list)
        files.push_back(f);
  } catch (const std::exception&) {
    return {};
  }
  std::ostringstream key;
  key << "haec trace check, " << ranks << " ranks\n";
  for (const auto& f : files) {
    struct stat st {};
    if (::stat(f.c_str(), &st) != 0)
      return {};
    key << fs::absolute(f).string() << ' ' << st.st_size << ' ' << st.st_mtim.tv_sec << '.' << st.st_mtim.tv_nsec
        << '\n';
  }
  return key.str();
}

bool remembered_on_disk(const fs::path& entry, const std::string& key)
{
  std::ifstream in(entry, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str() == key; // the whole identity, not only its hash
}

void remember_on_disk(const fs::path& entry, const std::string& key)
{
  try {
    std::error_code ec;
    fs::create_directories(entry.parent_path(), ec);
    write_file_atomic(entry.string(), key);
  } catch (const std::exception&) { // a read-only or full cache only costs the next check
  }
}

} // namespace

void check_trace_cached(const std::string& list, int ranks)
{
  static std::set<std::string> passed_here; // a campaign checks all its runs in one process
  const std::string key = identity(list, ranks);
  if (!key.empty() && passed_here.count(key))
    return;
  const fs::path dir   = cache_dir();
  const fs::path entry = key.empty() || dir.empty() ? fs::path() : dir / text::fnv1a_hex(key);
  if (entry.empty() || !remembered_on_disk(entry, key)) {
    trace::check_ti_trace(list, ranks);
    if (!entry.empty())
      remember_on_disk(entry, key);
  }
  if (!key.empty())
    passed_here.insert(key);
}

} // namespace haec::cli
