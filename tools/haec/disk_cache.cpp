#include "disk_cache.hpp"
#include "atomic_file.hpp"
#include "text.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace haec::cli {
namespace {

const char* const kEndMark = "\nhaec cache entry end\n";

bool switched_off(const char* variable)
{
  const char* v = variable ? std::getenv(variable) : nullptr;
  return v != nullptr && std::string(v) == "off";
}

fs::path cache_root()
{
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
    return fs::path(xdg) / "haec";
  if (const char* home = std::getenv("HOME"); home && *home == '/')
    return fs::path(home) / ".cache" / "haec";
  return {};
}

} // namespace

DiskCache::DiskCache(const std::string& kind, const char* off_variable)
{
  if (switched_off("HAEC_CACHE") || switched_off(off_variable))
    return;
  if (fs::path root = cache_root(); !root.empty())
    dir_ = root / kind;
}

fs::path DiskCache::entry(const std::string& key) const
{
  return dir_.empty() || key.empty() ? fs::path() : dir_ / text::fnv1a_hex(key);
}

std::optional<std::string> DiskCache::find(const std::string& key) const
{
  const fs::path file = entry(key);
  if (file.empty())
    return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  const std::string end = kEndMark;
  if (all.size() < key.size() + end.size() || all.compare(0, key.size(), key) != 0 ||
      all.compare(all.size() - end.size(), end.size(), end) != 0)
    return std::nullopt;
  return all.substr(key.size(), all.size() - key.size() - end.size());
}

void DiskCache::store(const std::string& key, const std::string& value) const
{
  const fs::path file = entry(key);
  if (file.empty())
    return;
  try {
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    write_file_atomic(file.string(), key + value + kEndMark);
  } catch (const std::exception&) { // a read-only or full cache only costs the work next time
  }
}

std::string file_identity(const std::string& path)
{
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return {};
  std::ostringstream id;
  id << fs::absolute(path).string() << ' ' << st.st_size << ' ' << st.st_mtim.tv_sec << '.' << st.st_mtim.tv_nsec
     << '\n';
  return id.str();
}

} // namespace haec::cli
