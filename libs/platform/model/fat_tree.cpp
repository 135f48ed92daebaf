// Fat-tree parameters and the hop counts of SimGrid's d-mod-k routes.
#include "fat_tree.hpp"
#include "input_error.hpp"
#include "text.hpp"
#include "units.hpp"

#include <cmath>

namespace haec::platform {
namespace {

constexpr int kMaxLevels = 8;
constexpr int kMaxPorts  = 1 << 16;
const char* const kExample = "write e.g. fat-tree:2;4,4;1,2;1,2 (levels;down;up;parallel, one count per level)";

int parse_count(const std::string& item, const std::string& text, const std::string& spec)
{
  const std::string t = text::trim(item);
  if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 6 || std::stoi(t) < 1 ||
      std::stoi(t) > kMaxPorts)
    throw InputError(spec, "fat-tree count '" + t + "' in '" + text + "' is not an integer in 1.." + std::to_string(kMaxPorts),
                     kExample);
  return std::stoi(t);
}

} // namespace

FatTreeShape parse_fat_tree(const std::string& text, const std::string& spec)
{
  auto parts = text::split(text, ';');
  if (parts.size() != 4)
    throw InputError(spec, "fat-tree parameters '" + text + "' are not 4 ';'-separated fields", kExample);
  FatTreeShape s;
  s.levels = parse_count(parts[0], text, spec);
  if (s.levels > kMaxLevels)
    throw InputError(spec, "fat-tree has " + std::to_string(s.levels) + " levels, more than " + std::to_string(kMaxLevels),
                     "use at most 8 levels");
  std::vector<int>* fields[3] = {&s.down, &s.up, &s.parallel};
  const char* names[3]        = {"down-links", "up-links", "parallel-links"};
  for (int f = 0; f < 3; ++f) {
    auto items = text::split(parts[f + 1], ',');
    if (static_cast<int>(items.size()) != s.levels)
      throw InputError(spec,
                       std::string(names[f]) + " '" + parts[f + 1] + "' has " + std::to_string(items.size()) +
                           " entries for " + std::to_string(s.levels) + " levels",
                       kExample);
    for (auto const& item : items)
      fields[f]->push_back(parse_count(item, text, spec));
  }
  return s;
}

long long fat_tree_nodes(const FatTreeShape& s)
{
  long long n = 1;
  for (int d : s.down)
    n *= d;
  return n;
}

long long fat_tree_switches(const FatTreeShape& s, int level)
{
  long long n = 1;
  for (int j = 0; j < s.levels; ++j)
    n *= j < level ? s.up[j] : s.down[j];
  return n;
}

long long fat_tree_directed_links(const FatTreeShape& s)
{
  long long cables = 0;
  for (int l = 1; l <= s.levels; ++l) {
    const long long below = l == 1 ? fat_tree_nodes(s) : fat_tree_switches(s, l - 1);
    cables += below * s.up[l - 1] * s.parallel[l - 1];
  }
  return 2 * cables;
}

void validate_fat_tree(const FatTreeShape& s, const std::string& what)
{
  if (s.levels < 1 || s.levels > kMaxLevels || static_cast<int>(s.down.size()) != s.levels ||
      static_cast<int>(s.up.size()) != s.levels || static_cast<int>(s.parallel.size()) != s.levels)
    throw InputError(what, "fat-tree parameters do not give one down, up and parallel count per level", kExample);
  for (int l = 0; l < s.levels; ++l)
    if (s.down[l] < 1 || s.up[l] < 1 || s.parallel[l] < 1 || s.down[l] > kMaxPorts || s.up[l] > kMaxPorts ||
        s.parallel[l] > kMaxPorts)
      throw InputError(what, "fat-tree count at level " + std::to_string(l + 1) + " is not in 1.." + std::to_string(kMaxPorts),
                       kExample);
  // Products may overflow long long with 8 levels of 65536: check step by step.
  double nodes = 1, links = 0;
  for (int l = 0; l < s.levels; ++l)
    nodes *= s.down[l];
  if (nodes > static_cast<double>(kMaxNodes))
    throw InputError(what, "fat tree of more than " + std::to_string(kMaxNodes) + " nodes", "use smaller down-link counts");
  for (int l = 1; l <= s.levels; ++l) {
    double below = 1;
    for (int j = 0; j < s.levels; ++j)
      below *= j < l - 1 ? s.up[j] : s.down[j];
    links += 2 * below * s.up[l - 1] * s.parallel[l - 1];
  }
  if (links > static_cast<double>(kMaxLinks))
    throw InputError(what, "fat tree of more than " + std::to_string(kMaxLinks) + " directed links",
                     "use fewer up or parallel links");
  if (!std::isfinite(s.reduce_percent) || s.reduce_percent < 0 || s.reduce_percent >= 100)
    throw InputError(what, "reduce=" + units::exact(s.reduce_percent) + " is outside [0,100)",
                     "give the percent of bandwidth each level loses, e.g. reduce=25");
}

std::string fat_tree_text(const FatTreeShape& s)
{
  auto list = [](const std::vector<int>& v) {
    std::string out;
    for (int x : v)
      out += (out.empty() ? "" : ",") + std::to_string(x);
    return out;
  };
  return std::to_string(s.levels) + ";" + list(s.down) + ";" + list(s.up) + ";" + list(s.parallel);
}

int fat_tree_hops(const FatTreeShape& s, uint32_t a, uint32_t b)
{
  // Nodes a and b share a level-l switch when they agree on their label digits l..L-1, i.e. when
  // a / (D1*..*Dl) == b / (D1*..*Dl).
  long long group = 1;
  for (int l = 0; l <= s.levels; ++l) {
    if (a / group == b / group)
      return 2 * l;
    if (l < s.levels)
      group *= s.down[l];
  }
  return 2 * s.levels;
}

double fat_tree_level_bandwidth(const FatTreeShape& s, double bandwidth, int level)
{
  return bandwidth * std::pow(1 - s.reduce_percent / 100, level - 1);
}

} // namespace haec::platform
