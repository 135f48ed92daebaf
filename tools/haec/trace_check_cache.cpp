#include "trace_check_cache.hpp"
#include "disk_cache.hpp"
#include "ti_check.hpp"

#include <exception>
#include <set>
#include <string>
#include <vector>

namespace haec::cli {
namespace {

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
  std::string key = "haec trace check, " + std::to_string(ranks) + " ranks\n";
  for (const auto& f : files) {
    const std::string id = file_identity(f);
    if (id.empty())
      return {};
    key += id;
  }
  return key;
}

} // namespace

void check_trace_cached(const std::string& list, int ranks)
{
  static std::set<std::string> passed_here; // a campaign checks all its runs in one process
  const std::string key = identity(list, ranks);
  if (!key.empty() && passed_here.count(key))
    return;
  const DiskCache cache("trace-checks", "HAEC_TRACE_CHECK_CACHE");
  if (key.empty() || !cache.find(key)) {
    trace::check_ti_trace(list, ranks);
    cache.store(key, "");
  }
  if (!key.empty())
    passed_here.insert(key);
}

} // namespace haec::cli
