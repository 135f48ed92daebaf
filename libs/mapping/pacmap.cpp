// PaCMap (Tuncer, Leung, Coskun, "PaCMap: topology mapping of unstructured communication patterns
// onto non-contiguous allocations", ICS 2015), as MapLib implements it for whole machines:
//  1. Start node: the node with the densest surroundings, max sum of 1/d^3 over the nodes within
//     R = floor(N^(1/3)) + 1 hops, N^(1/3) in floating point as MapLib has it (ties: lowest node).
//  2. Start rank: a center of the communication graph, the rank of least eccentricity in hops of
//     the (unweighted) graph, among ranks that communicate (ties: lowest rank).
//  3. Repeatedly the unplaced rank with the most traffic to placed ranks (ties: lowest rank) goes to
//     the node with room that minimises the weighted hops to its placed partners (ties: lowest
//     node); without placed partners, to the lowest node with room.
// MapLib measures distances as Manhattan distances of coordinates; we use the platform's hops
// (the same on meshes, shorter on tori and across HAEC boards).
#include "aware.hpp"
#include "mapping_detail.hpp"

#include <climits>
#include <cmath>
#include <queue>

namespace haec::mapping::detail {
namespace {

int densest_node(const Distances& dist)
{
  const int n      = dist.nodes();
  // pow(n, 1/3) as MapLib computes it: 3.999... for 64, so R = 4 there
  const int radius = static_cast<int>(std::floor(std::pow(static_cast<double>(n), 1.0 / 3.0))) + 1;
  int best         = 0;
  double best_density = -1;
  for (int a = 0; a < n; ++a) {
    // Count the nodes per distance first, so that symmetric nodes get bit-identical densities
    // and the tie goes to the lowest index.
    std::vector<int> at(static_cast<size_t>(radius) + 1, 0);
    for (int b = 0; b < n; ++b)
      if (int d = dist(a, b); d > 0 && d <= radius)
        ++at[static_cast<size_t>(d)];
    double density = 0;
    for (int d = 1; d <= radius; ++d)
      density += at[static_cast<size_t>(d)] / (static_cast<double>(d) * d * d);
    if (density > best_density) {
      best         = a;
      best_density = density;
    }
  }
  return best;
}

int graph_center(const CommGraph& g)
{
  int best = -1, best_ecc = INT_MAX;
  std::vector<int> depth(static_cast<size_t>(g.n));
  for (int s = 0; s < g.n; ++s) {
    if (g.begin(s) == g.end(s))
      continue;
    std::fill(depth.begin(), depth.end(), -1);
    std::queue<int> q;
    depth[static_cast<size_t>(s)] = 0;
    q.push(s);
    int ecc = 0;
    while (!q.empty()) {
      const int v = q.front();
      q.pop();
      ecc = depth[static_cast<size_t>(v)];
      for (int e = g.begin(v); e < g.end(v); ++e)
        if (int u = g.nbr[static_cast<size_t>(e)]; depth[static_cast<size_t>(u)] < 0) {
          depth[static_cast<size_t>(u)] = ecc + 1;
          q.push(u);
        }
    }
    if (ecc < best_ecc) {
      best     = s;
      best_ecc = ecc;
    }
    if (best_ecc == 1) // nobody does better: stop (dense graphs would cost O(R * E) otherwise)
      break;
  }
  return best < 0 ? 0 : best;
}

} // namespace

std::vector<int> map_pacmap(const CommGraph& g, const Target& target)
{
  const Distances dist(target);
  const int nodes = dist.nodes();
  Placer placer(g.n, nodes, node_capacity(g.n, nodes));
  std::vector<uint64_t> to_placed(static_cast<size_t>(g.n), 0);
  auto place = [&](int t, int q) {
    placer.put(t, q);
    for (int e = g.begin(t); e < g.end(t); ++e)
      to_placed[static_cast<size_t>(g.nbr[static_cast<size_t>(e)])] += g.w[static_cast<size_t>(e)];
  };
  if (g.n > 0)
    place(graph_center(g), densest_node(dist));
  for (int k = 1; k < g.n; ++k) {
    int t = -1;
    for (int r = 0; r < g.n; ++r)
      if (!placer.placed(r) && (t < 0 || to_placed[static_cast<size_t>(r)] > to_placed[static_cast<size_t>(t)]))
        t = r;
    int best = -1;
    long double best_cost = 0;
    for (int q = 0; q < nodes; ++q) {
      if (!placer.has_room(q))
        continue;
      long double cost = 0;
      for (int e = g.begin(t); e < g.end(t); ++e)
        if (int u = g.nbr[static_cast<size_t>(e)]; placer.placed(u))
          cost += static_cast<long double>(g.w[static_cast<size_t>(e)]) * dist(q, placer.node_of(u));
      if (best < 0 || cost < best_cost) {
        best      = q;
        best_cost = cost;
      }
    }
    place(t, best);
  }
  return placer.assignment();
}

} // namespace haec::mapping::detail
