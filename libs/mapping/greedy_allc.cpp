// greedyALLC: GreedyAllC of Glantz, Meyerhenke and Noe ("Algorithms for mapping parallel processes
// onto grid and torus architectures", PDP 2015), MapLib's "greedyALLC".
//  1. The heaviest rank (weighted degree; ties: lowest rank) goes to the central node (smallest
//     summed distance to all nodes).
//  2. Repeatedly the unplaced rank with the most traffic to placed ranks (ties: heavier weighted
//     degree, then lowest rank) goes to the node with room that minimises the weighted hops to ALL
//     its placed partners (hence "all communication"); ties: lowest node. A rank without placed
//     partners (a new component) goes to the most central node with room.
#include "aware.hpp"
#include "mapping_detail.hpp"

#include <climits>

namespace haec::mapping::detail {

std::vector<int> map_greedy_allc(const CommGraph& g, const Target& target)
{
  const Distances dist(target);
  const int nodes = dist.nodes();
  Placer placer(g.n, nodes, node_capacity(g.n, nodes));
  std::vector<long long> spread(static_cast<size_t>(nodes), 0); // summed hops to every node
  for (int a = 0; a < nodes; ++a)
    for (int b = 0; b < nodes; ++b)
      spread[static_cast<size_t>(a)] += dist(a, b);
  std::vector<uint64_t> connectivity(static_cast<size_t>(g.n), 0);
  std::vector<std::pair<int, uint64_t>> partners; // placed partners' node, weight

  for (int k = 0; k < g.n; ++k) {
    int t = -1;
    for (int r = 0; r < g.n; ++r)
      if (!placer.placed(r) &&
          (t < 0 || connectivity[static_cast<size_t>(r)] > connectivity[static_cast<size_t>(t)] ||
           (connectivity[static_cast<size_t>(r)] == connectivity[static_cast<size_t>(t)] &&
            g.degree[static_cast<size_t>(r)] > g.degree[static_cast<size_t>(t)])))
        t = r;
    partners.clear();
    for (int e = g.begin(t); e < g.end(t); ++e)
      if (int u = g.nbr[static_cast<size_t>(e)]; placer.placed(u))
        partners.emplace_back(placer.node_of(u), g.w[static_cast<size_t>(e)]);
    int best = -1;
    long double best_cost = 0;
    for (int q = 0; q < nodes; ++q) {
      if (!placer.has_room(q))
        continue;
      long double cost = 0;
      for (auto const& [node, w] : partners)
        cost += static_cast<long double>(w) * dist(q, node);
      if (partners.empty())
        cost = static_cast<long double>(spread[static_cast<size_t>(q)]);
      if (best < 0 || cost < best_cost) {
        best      = q;
        best_cost = cost;
      }
    }
    placer.put(t, best);
    for (int e = g.begin(t); e < g.end(t); ++e)
      connectivity[static_cast<size_t>(g.nbr[static_cast<size_t>(e)])] += g.w[static_cast<size_t>(e)];
  }
  return placer.assignment();
}

} // namespace haec::mapping::detail
