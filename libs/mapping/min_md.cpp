// min md (minimum Manhattan distance, seed 001 §5.3): put heavily communicating rank pairs on
// nodes that are close in the grid. Exact rules (the paper leaves them open; README.md repeats them):
//  1. Pairs {a, b}, a < b, weighted by messages a->b plus b->a; pairs with weight 0 and self
//     messages are ignored. Order: weight descending, then (a, b) ascending, so the result is
//     deterministic.
//  2. Per pair: both placed -> nothing. One placed -> the other goes to the free node nearest to
//     its partner's node. None placed -> a goes to the free node nearest to the origin (node 0,
//     the first node in xyz order), then b to the free node nearest to a's node.
//     "Nearest" = smallest Manhattan distance of Node::coords (radius 1, 2, 3, ... as in the paper),
//     ties broken by the lowest node index (xyz order).
//  3. Round-robin: a node is free while it holds fewer than `level` ranks; level starts at 1 and
//     grows by one whenever no node is free. So nodes get their (k+1)-th rank only once all hold k,
//     and the distance rule keeps working in every round. From round 2 on, the partner's own
//     node can be free; radius 0 (same node) is then preferred, since it avoids the network.
//  4. Ranks with no messages at all come last, in rank order, each on the free node with the lowest
//     index (xyz order over the remaining free nodes, then round-robin by rule 3).
// Req.dims is not needed: distances come from the nodes' coordinates.
#include "mapping_detail.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace haec::mapping::detail {
namespace {

struct Pair {
  uint64_t weight;
  int a, b;
};

class Placer {
public:
  Placer(const std::vector<Node>& nodes, int ranks)
      : nodes_(nodes), load_(nodes.size(), 0), where_(static_cast<size_t>(ranks), -1)
  {
  }

  bool placed(int rank) const { return where_[rank] >= 0; }
  int node_of(int rank) const { return where_[rank]; }
  const std::vector<int>& assignment() const { return where_; }

  // Places `rank` on the free node nearest to node `from` (rule 2/3).
  void place_near(int rank, int from)
  {
    const auto& c = nodes_[from].coords;
    for (;;) {
      int best = -1, best_d = INT_MAX;
      for (size_t i = 0; i < nodes_.size(); ++i) {
        if (load_[i] >= level_)
          continue;
        const auto& p = nodes_[i].coords;
        int d         = std::abs(p[0] - c[0]) + std::abs(p[1] - c[1]) + std::abs(p[2] - c[2]);
        if (d < best_d) { // strict: the lowest index wins ties
          best   = static_cast<int>(i);
          best_d = d;
        }
      }
      if (best >= 0)
        return put(rank, best);
      ++level_; // every node is full for this round
    }
  }

  // Places `rank` on the lowest-index free node (rule 4).
  void place_first_free(int rank)
  {
    for (;;) {
      for (size_t i = 0; i < nodes_.size(); ++i)
        if (load_[i] < level_)
          return put(rank, static_cast<int>(i));
      ++level_;
    }
  }

private:
  void put(int rank, int node)
  {
    where_[rank] = node;
    ++load_[node];
  }

  const std::vector<Node>& nodes_;
  std::vector<int> load_;
  std::vector<int> where_;
  int level_ = 1;
};

std::vector<Pair> weighted_pairs(const CommMatrix& m)
{
  std::vector<Pair> pairs;
  for (int a = 0; a < m.ranks; ++a)
    for (int b = a + 1; b < m.ranks; ++b)
      if (uint64_t w = m.msgs(a, b) + m.msgs(b, a); w > 0)
        pairs.push_back({w, a, b});
  std::sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) {
    if (x.weight != y.weight)
      return x.weight > y.weight;
    return x.a != y.a ? x.a < y.a : x.b < y.b;
  });
  return pairs;
}

} // namespace

std::vector<int> map_min_md(const CommMatrix& matrix, const std::vector<Node>& nodes)
{
  constexpr int kOrigin = 0;
  Placer placer(nodes, matrix.ranks);
  for (const Pair& p : weighted_pairs(matrix)) {
    const bool pa = placer.placed(p.a), pb = placer.placed(p.b);
    if (pa && pb)
      continue;
    if (pa) {
      placer.place_near(p.b, placer.node_of(p.a));
    } else if (pb) {
      placer.place_near(p.a, placer.node_of(p.b));
    } else {
      placer.place_near(p.a, kOrigin);
      placer.place_near(p.b, placer.node_of(p.a));
    }
  }
  for (int r = 0; r < matrix.ranks; ++r)
    if (!placer.placed(r))
      placer.place_first_free(r);
  return placer.assignment();
}

} // namespace haec::mapping::detail
