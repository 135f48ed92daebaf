// Hop-bytes, dilation, link load and wireless share of a mapping (mapping_metrics.hpp).
#include "input_error.hpp"
#include "mapping_metrics.hpp"

#include <algorithm>
#include <map>

namespace haec::mapping {
namespace {

void check_fits(const CommMatrix& m, const std::vector<int>& a, const Target& t)
{
  if (static_cast<int>(a.size()) != m.ranks)
    throw InputError("mapping metrics",
                     "the assignment places " + std::to_string(a.size()) + " ranks, the matrix has " +
                         std::to_string(m.ranks),
                     "compute the metrics of a mapping of the matrix's run");
  for (int node : a)
    if (node < 0 || node >= static_cast<int>(t.nodes.size()))
      throw InputError("mapping metrics", "a rank is on node " + std::to_string(node) + " of " +
                                              std::to_string(t.nodes.size()),
                       "map the ranks onto this platform");
}

int wireless_class(const Target& t)
{
  for (size_t c = 0; c < t.link_classes.size(); ++c)
    if (t.link_classes[c].name == "wireless")
      return static_cast<int>(c);
  return -1;
}

// Bytes between node pairs (a != b), both directions kept apart: routes are directed.
std::map<std::pair<int, int>, uint64_t> node_pair_bytes(const CommMatrix& m, const std::vector<int>& a)
{
  std::map<std::pair<int, int>, uint64_t> pairs;
  for (int s = 0; s < m.ranks; ++s)
    for (int d = 0; d < m.ranks; ++d)
      if (uint64_t b = m.byte_count(s, d); b > 0 && a[s] != a[d])
        pairs[{a[s], a[d]}] += b;
  return pairs;
}

void add_byte_metrics(MappingMetrics& r, const CommMatrix& m, const std::vector<int>& a, const Target& t)
{
  const auto pairs = node_pair_bytes(m, a);
  uint64_t total = 0, hop_bytes = 0;
  for (int s = 0; s < m.ranks; ++s)
    for (int d = 0; d < m.ranks; ++d)
      total += m.byte_count(s, d);
  const int wl = wireless_class(t);
  uint64_t wireless_bytes = 0;
  std::vector<uint64_t> load(t.has_routes() ? t.link_class_of.size() : 0, 0);
  std::vector<uint32_t> route;
  for (auto const& [nodes, bytes] : pairs) {
    if (t.hops)
      hop_bytes += bytes * static_cast<uint64_t>(t.hops(nodes.first, nodes.second));
    if (wl >= 0 && t.profile)
      wireless_bytes += bytes * t.profile(nodes.first, nodes.second).hops[static_cast<size_t>(wl)];
    if (t.has_routes()) {
      t.route(nodes.first, nodes.second, route);
      for (uint32_t link : route)
        load.at(link) += bytes;
    }
  }
  r.total_bytes = total;
  if (!t.hops) // no hop count of the platform's routes: no hop figure
    return;
  r.hop_bytes = hop_bytes;
  if (total > 0)
    r.avg_dilation = static_cast<double>(hop_bytes) / static_cast<double>(total);
  if (t.has_routes())
    r.max_link_load = load.empty() ? 0 : *std::max_element(load.begin(), load.end());
  if (wl >= 0 && t.profile && hop_bytes > 0)
    r.wireless_share = static_cast<double>(wireless_bytes) / static_cast<double>(hop_bytes);
}

} // namespace

MappingMetrics compute_mapping_metrics(const CommMatrix& m, const std::vector<int>& a, const Target& t)
{
  check_fits(m, a, t);
  MappingMetrics r;
  r.counts = compute_metrics(m, a, t.hops);
  std::vector<int> per_node(t.nodes.size(), 0);
  for (int node : a)
    ++per_node[static_cast<size_t>(node)];
  for (int k : per_node) {
    r.nodes_used += k > 0;
    r.max_ranks_per_node = std::max(r.max_ranks_per_node, k);
  }
  int max_dilation = -1;
  for (int s = 0; s < m.ranks; ++s)
    for (int d = 0; d < m.ranks; ++d) {
      const bool talks = (m.has_messages && m.msgs(s, d) > 0) || (m.has_bytes && m.byte_count(s, d) > 0);
      if (talks && s != d && t.hops)
        max_dilation = std::max(max_dilation, a[s] == a[d] ? 0 : t.hops(a[s], a[d]));
    }
  if (max_dilation >= 0)
    r.max_dilation = max_dilation;
  if (m.has_bytes)
    add_byte_metrics(r, m, a, t);
  return r;
}

} // namespace haec::mapping
