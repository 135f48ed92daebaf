// "deco 0" text of a platform (deco_architecture.hpp).
#include "deco_architecture.hpp"
#include "aware.hpp"
#include "input_error.hpp"

#include <algorithm>
#include <cstdint>

namespace haec::mapping {
namespace {

// Terminal numbers of the recursive coordinate bisection of `nodes` (indices into t.nodes).
void bisect(const Target& t, std::vector<int> nodes, uint64_t domain, std::vector<uint64_t>& terminal)
{
  if (nodes.size() == 1) {
    terminal[static_cast<size_t>(nodes[0])] = domain;
    return;
  }
  int axis = 0, widest = -1;
  for (int d = 0; d < 3; ++d) {
    auto [lo, hi] = std::minmax_element(nodes.begin(), nodes.end(), [&](int a, int b) {
      return t.nodes[static_cast<size_t>(a)].coords[d] < t.nodes[static_cast<size_t>(b)].coords[d];
    });
    const int spread = t.nodes[static_cast<size_t>(*hi)].coords[d] - t.nodes[static_cast<size_t>(*lo)].coords[d];
    if (spread > widest) {
      widest = spread;
      axis   = d;
    }
  }
  // Cut at a coordinate (whole planes on each side: box-shaped domains); the lower side gets
  // floor(extent / 2) planes. Nodes sharing every coordinate (XML) are split by count.
  std::stable_sort(nodes.begin(), nodes.end(), [&](int a, int b) {
    return t.nodes[static_cast<size_t>(a)].coords[axis] < t.nodes[static_cast<size_t>(b)].coords[axis];
  });
  const int cut = t.nodes[static_cast<size_t>(nodes[0])].coords[axis] + (widest + 1) / 2;
  auto half     = std::partition_point(nodes.begin(), nodes.end(),
                                      [&](int a) { return t.nodes[static_cast<size_t>(a)].coords[axis] < cut; });
  if (widest == 0)
    half = nodes.begin() + static_cast<long>(nodes.size() / 2);
  bisect(t, std::vector<int>(nodes.begin(), half), 2 * domain, terminal);
  bisect(t, std::vector<int>(half, nodes.end()), 2 * domain + 1, terminal);
}

} // namespace

std::string deco0_text(const Target& t)
{
  const size_t n = t.nodes.size();
  if (n > kMaxDecoNodes)
    throw InputError("mapping scotch", std::to_string(n) + " nodes: its decomposition-defined architecture holds every "
                                           "pair's distance (limit " + std::to_string(kMaxDecoNodes) + " nodes)",
                     "use auto or greedy-allc on this platform");
  std::vector<int> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = static_cast<int>(i);
  std::vector<uint64_t> terminal(n, 0);
  if (n > 1)
    bisect(t, all, 1, terminal);
  else
    terminal[0] = 1;
  std::string text = "deco\n0\n" + std::to_string(n) + " " +
                     std::to_string(*std::max_element(terminal.begin(), terminal.end())) + "\n";
  for (size_t i = 0; i < n; ++i)
    text += std::to_string(i) + " 1 " + std::to_string(terminal[i]) + "\n";
  const detail::Distances dist(t);
  text.reserve(text.size() + n * n + n);
  for (size_t i = 1; i < n; ++i) {
    for (size_t j = 0; j < i; ++j) {
      const int h = dist(static_cast<int>(i), static_cast<int>(j));
      if (h <= 0)
        throw InputError("mapping scotch",
                         "nodes " + t.nodes[j].host + " and " + t.nodes[i].host + " are 0 hops apart",
                         "Scotch needs positive distances: give the nodes distinct coordinates or use another strategy");
      text += std::to_string(h);
      text += j + 1 < i ? ' ' : '\n';
    }
  }
  return text;
}

} // namespace haec::mapping
