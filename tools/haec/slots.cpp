#include "slots.hpp"
#include "input_error.hpp"

#include <algorithm>
#include <numeric>
#include <string>

namespace haec::cli {
namespace {

// How the user gives a node more cores, by the kind of platform.
std::string more_cores_fix(const ResolvedPlatform& platform, int needed)
{
  const std::string n = std::to_string(needed);
  if (!platform.xml_path.empty())
    return "give its hosts core=\"" + n + "\" in the XML";
  if (platform.text.size() > 5 && platform.text.compare(platform.text.size() - 5, 5, ".json") == 0)
    return "regenerate it with cores=" + n;
  return "add cores=" + n + " to the spec";
}

} // namespace

void check_slots(const ResolvedPlatform& platform, const std::vector<int>& assignment)
{
  if (platform.cores.size() != platform.nodes.size())
    return; // not known (never for the platforms resolve_platform returns)
  std::vector<int> ranks_on(platform.nodes.size(), 0);
  for (int node : assignment)
    ++ranks_on[static_cast<size_t>(node)];
  for (size_t n = 0; n < ranks_on.size(); ++n) {
    if (ranks_on[n] <= platform.cores[n])
      continue;
    const long slots  = std::accumulate(platform.cores.begin(), platform.cores.end(), 0L);
    const int needed  = *std::max_element(ranks_on.begin(), ranks_on.end());
    const int ranks   = static_cast<int>(assignment.size());
    throw InputError("-np " + std::to_string(ranks),
                     "places " + std::to_string(ranks_on[n]) + " ranks on " + platform.nodes[n].host + ", which has " +
                         std::to_string(platform.cores[n]) + " core(s); the platform has " + std::to_string(slots) +
                         " slots",
                     more_cores_fix(platform, needed) + ", use a bigger platform or fewer ranks, or pass --oversubscribe");
  }
}

} // namespace haec::cli
