// FHgreedy: the "fast and high quality" greedy mapping of Deveci, Kaya, Uçar and Çatalyürek
// (IPDPS 2015), MapLib's "FHGreedy" (with its N_bfs = 1).
//  1. The heaviest rank (weighted degree; ties: lowest rank) goes to the central node.
//  2. Repeatedly the unplaced rank with the most traffic to placed ranks (ties: heavier weighted
//     degree, then lowest rank) is placed:
//     - with placed partners: the candidates are, per partner, the node with room nearest to the
//       partner's node; the candidate with the least weighted hops to all placed partners wins
//       (ties: lowest node). MapLib weighs each candidate by its own partner only; the paper's
//       weighted-hop criterion sums over all of them, and so do we;
//     - without (a new component): the node with room farthest from every placed rank.
#include "aware.hpp"
#include "mapping_detail.hpp"

#include <algorithm>
#include <climits>

namespace haec::mapping::detail {
namespace {

class FhGreedy {
public:
  FhGreedy(const CommGraph& g, const Target& target)
      : g_(g), dist_(target), placer_(g.n, dist_.nodes(), node_capacity(g.n, dist_.nodes())),
        connectivity_(static_cast<size_t>(g.n), 0), to_placed_(static_cast<size_t>(dist_.nodes()), INT_MAX)
  {
  }

  std::vector<int> run()
  {
    if (g_.n == 0)
      return {};
    int first = 0;
    for (int r = 1; r < g_.n; ++r)
      if (g_.degree[static_cast<size_t>(r)] > g_.degree[static_cast<size_t>(first)])
        first = r;
    place(first, central_node(dist_));
    for (int k = 1; k < g_.n; ++k) {
      const int t = next_rank();
      place(t, best_node(t));
    }
    return placer_.assignment();
  }

private:
  int next_rank() const
  {
    int best = -1;
    for (int r = 0; r < g_.n; ++r) {
      if (placer_.placed(r))
        continue;
      if (best < 0 || connectivity_[static_cast<size_t>(r)] > connectivity_[static_cast<size_t>(best)] ||
          (connectivity_[static_cast<size_t>(r)] == connectivity_[static_cast<size_t>(best)] &&
           g_.degree[static_cast<size_t>(r)] > g_.degree[static_cast<size_t>(best)]))
        best = r;
    }
    return best;
  }

  // Weighted hops from node q to every placed partner of t.
  uint64_t weighted_hops(int t, int q) const
  {
    uint64_t sum = 0;
    for (int e = g_.begin(t); e < g_.end(t); ++e)
      if (int u = g_.nbr[static_cast<size_t>(e)]; placer_.placed(u))
        sum += g_.w[static_cast<size_t>(e)] * static_cast<uint64_t>(dist_(q, placer_.node_of(u)));
    return sum;
  }

  int best_node(int t) const
  {
    std::vector<int> candidates;
    for (int e = g_.begin(t); e < g_.end(t); ++e)
      if (int u = g_.nbr[static_cast<size_t>(e)]; placer_.placed(u))
        candidates.push_back(placer_.nearest_free(placer_.node_of(u), dist_));
    if (candidates.empty())
      return farthest_free();
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    int best = candidates[0];
    uint64_t best_wh = weighted_hops(t, best);
    for (size_t i = 1; i < candidates.size(); ++i)
      if (uint64_t wh = weighted_hops(t, candidates[i]); wh < best_wh) {
        best    = candidates[i];
        best_wh = wh;
      }
    return best;
  }

  int farthest_free() const
  {
    int best = -1;
    for (int q = 0; q < dist_.nodes(); ++q)
      if (placer_.has_room(q) && (best < 0 || to_placed_[static_cast<size_t>(q)] > to_placed_[static_cast<size_t>(best)]))
        best = q;
    return best;
  }

  void place(int t, int q)
  {
    placer_.put(t, q);
    for (int e = g_.begin(t); e < g_.end(t); ++e)
      connectivity_[static_cast<size_t>(g_.nbr[static_cast<size_t>(e)])] += g_.w[static_cast<size_t>(e)];
    for (int n = 0; n < dist_.nodes(); ++n)
      to_placed_[static_cast<size_t>(n)] = std::min(to_placed_[static_cast<size_t>(n)], dist_(n, q));
  }

  const CommGraph& g_;
  Distances dist_;
  Placer placer_;
  std::vector<uint64_t> connectivity_;
  std::vector<int> to_placed_; // hops from each node to the nearest placed rank
};

} // namespace

std::vector<int> map_fhgreedy(const CommGraph& g, const Target& target)
{
  return FhGreedy(g, target).run();
}

} // namespace haec::mapping::detail
