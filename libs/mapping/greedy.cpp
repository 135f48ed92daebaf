// greedy: the greedy graph embedding of Hoefler and Snir ("Generic topology mapping strategies for
// large-scale parallel architectures", ICS 2011), MapLib's "greedy".
//  1. The heaviest unplaced rank (weighted degree; ties: lowest rank) goes to the node with room
//     nearest to the central node (smallest summed distance to all nodes).
//  2. Its edges to unplaced ranks enter a queue; the heaviest edge (ties: lower ranks first) places
//     its unplaced end on the node with room nearest to its placed end's node, whose edges then
//     enter the queue, until the queue is empty; then back to 1 for the next component.
// Choice where implementations differ: MapLib's code places each rank near the node used last;
// we place it near its heaviest placed partner, as the paper's description does.
#include "aware.hpp"
#include "mapping_detail.hpp"

#include <queue>
#include <tuple>

namespace haec::mapping::detail {

std::vector<int> map_greedy(const CommGraph& g, const Target& target)
{
  const Distances dist(target);
  const int nodes = dist.nodes();
  Placer placer(g.n, nodes, node_capacity(g.n, nodes));
  const int center = central_node(dist);

  using Edge = std::tuple<uint64_t, int, int>; // weight, -placed end, -unplaced end: max-heap
  std::priority_queue<Edge> queue;
  auto place = [&](int rank, int near) {
    placer.put(rank, placer.nearest_free(near, dist));
    for (int e = g.begin(rank); e < g.end(rank); ++e)
      if (!placer.placed(g.nbr[static_cast<size_t>(e)]))
        queue.emplace(g.w[static_cast<size_t>(e)], -rank, -g.nbr[static_cast<size_t>(e)]);
  };
  for (;;) {
    int heaviest = -1;
    for (int r = 0; r < g.n; ++r)
      if (!placer.placed(r) && g.degree[static_cast<size_t>(r)] > 0 &&
          (heaviest < 0 || g.degree[static_cast<size_t>(r)] > g.degree[static_cast<size_t>(heaviest)]))
        heaviest = r;
    if (heaviest < 0)
      break;
    place(heaviest, center);
    while (!queue.empty()) {
      auto [w, from, to] = queue.top();
      queue.pop();
      if (!placer.placed(-to))
        place(-to, placer.node_of(-from));
    }
  }
  placer.place_rest();
  return placer.assignment();
}

} // namespace haec::mapping::detail
