// bipartition: recursive bipartitioning, MapLib's "bipartition" (the dual recursive bisection
// behind Scotch and Hoefler and Snir's "recursive bisection"). The nodes are split in two halves
// and so are the ranks, keeping heavy traffic inside each half, then each half-pair recursively,
// until a node receives its ranks.
// Choices (MapLib calls METIS for both splits):
//  - nodes: cut across the axis along which their coordinates spread most (ties: x, y, z), lower
//    half first (floor(N/2) nodes); this is how a grid bisects itself;
//  - ranks: as many go to each half as its share of the nodes (within the node capacity); the
//    rank bisection grows one side greedily from a peripheral rank (the last one reached by a
//    breadth-first search), always adding the rank with most traffic into it, then improves the cut
//    with Kernighan-Lin exchanges of positive gain (no multilevel coarsening).
#include "aware.hpp"
#include "mapping_detail.hpp"

#include <algorithm>
#include <queue>
#include <unordered_map>

namespace haec::mapping::detail {
namespace {

class Bipartition {
public:
  Bipartition(const CommGraph& g, const Target& target)
      : g_(g), nodes_(target.nodes), capacity_(node_capacity(g.n, static_cast<int>(target.nodes.size()))),
        result_(static_cast<size_t>(g.n), -1), side_(static_cast<size_t>(g.n), -1),
        gain_(static_cast<size_t>(g.n), 0)
  {
  }

  std::vector<int> run()
  {
    std::vector<int> ranks(static_cast<size_t>(g_.n)), nodes(nodes_.size());
    for (int r = 0; r < g_.n; ++r)
      ranks[static_cast<size_t>(r)] = r;
    for (size_t i = 0; i < nodes_.size(); ++i)
      nodes[i] = static_cast<int>(i);
    split(ranks, nodes);
    return result_;
  }

private:
  void split(const std::vector<int>& ranks, std::vector<int> nodes)
  {
    if (ranks.empty())
      return;
    if (nodes.size() == 1) {
      for (int r : ranks)
        result_[static_cast<size_t>(r)] = nodes[0];
      return;
    }
    const auto [lower, upper] = split_nodes(std::move(nodes));
    const long long n = static_cast<long long>(ranks.size()), n1 = static_cast<long long>(lower.size()),
                    all = n1 + static_cast<long long>(upper.size());
    long long take = (n * n1 + all / 2) / all; // the lower half's share of the ranks
    take = std::clamp(take, n - capacity_ * static_cast<long long>(upper.size()), capacity_ * n1);
    auto [first, second] = bisect(ranks, static_cast<size_t>(take));
    split(first, lower);
    split(second, upper);
  }

  std::pair<std::vector<int>, std::vector<int>> split_nodes(std::vector<int> nodes) const
  {
    int axis = 0, widest = -1;
    for (int d = 0; d < 3; ++d) {
      int lo = nodes_[static_cast<size_t>(nodes[0])].coords[d], hi = lo;
      for (int i : nodes) {
        lo = std::min(lo, nodes_[static_cast<size_t>(i)].coords[d]);
        hi = std::max(hi, nodes_[static_cast<size_t>(i)].coords[d]);
      }
      if (hi - lo > widest) {
        widest = hi - lo;
        axis   = d;
      }
    }
    std::stable_sort(nodes.begin(), nodes.end(), [&](int a, int b) {
      return nodes_[static_cast<size_t>(a)].coords[axis] < nodes_[static_cast<size_t>(b)].coords[axis];
    });
    const auto half = nodes.begin() + static_cast<long>(nodes.size() / 2);
    return {std::vector<int>(nodes.begin(), half), std::vector<int>(half, nodes.end())};
  }

  // Splits `ranks` into a part of `take` ranks and the rest, keeping the cut light.
  std::pair<std::vector<int>, std::vector<int>> bisect(const std::vector<int>& ranks, size_t take)
  {
    for (int r : ranks)
      side_[static_cast<size_t>(r)] = 1;
    grow(ranks, take);
    refine(ranks);
    std::pair<std::vector<int>, std::vector<int>> parts;
    for (int r : ranks) {
      (side_[static_cast<size_t>(r)] == 0 ? parts.first : parts.second).push_back(r);
      side_[static_cast<size_t>(r)] = -1;
    }
    return parts;
  }

  // Greedy graph growing of side 0 from a peripheral rank; disconnected leftovers in rank order.
  void grow(const std::vector<int>& ranks, size_t take)
  {
    if (take == 0)
      return;
    std::unordered_map<int, uint64_t> pull; // traffic into side 0, for ranks of side 1
    using Item = std::pair<uint64_t, int>;  // traffic, -rank
    std::priority_queue<Item> frontier;
    size_t grown = 0;
    size_t next_seed = 0;
    auto add = [&](int r) {
      side_[static_cast<size_t>(r)] = 0;
      ++grown;
      for (int e = g_.begin(r); e < g_.end(r); ++e)
        if (int u = g_.nbr[static_cast<size_t>(e)]; side_[static_cast<size_t>(u)] == 1)
          frontier.emplace(pull[u] += g_.w[static_cast<size_t>(e)], -u);
    };
    add(peripheral(ranks));
    while (grown < take) {
      while (!frontier.empty() && side_[static_cast<size_t>(-frontier.top().second)] != 1)
        frontier.pop();
      if (!frontier.empty()) {
        add(-frontier.top().second);
        continue;
      }
      while (side_[static_cast<size_t>(ranks[next_seed])] != 1)
        ++next_seed;
      add(ranks[next_seed]);
    }
  }

  // The rank a breadth-first search from the first rank of the part reaches last (within the part).
  int peripheral(const std::vector<int>& ranks) const
  {
    std::unordered_map<int, int> seen;
    std::queue<int> q;
    q.push(ranks[0]);
    seen[ranks[0]] = 0;
    int last = ranks[0];
    while (!q.empty()) {
      last = q.front();
      q.pop();
      for (int e = g_.begin(last); e < g_.end(last); ++e)
        if (int u = g_.nbr[static_cast<size_t>(e)]; side_[static_cast<size_t>(u)] == 1 && !seen.count(u)) {
          seen[u] = 1;
          q.push(u);
        }
    }
    return last;
  }

  // External minus internal traffic of r (its gain if it changed side alone).
  long long gain(int r) const
  {
    long long d = 0;
    for (int e = g_.begin(r); e < g_.end(r); ++e) {
      const int s = side_[static_cast<size_t>(g_.nbr[static_cast<size_t>(e)])];
      if (s < 0)
        continue;
      d += (s == side_[static_cast<size_t>(r)] ? -1 : 1) * static_cast<long long>(g_.w[static_cast<size_t>(e)]);
    }
    return d;
  }

  long long weight(int a, int b) const
  {
    for (int e = g_.begin(a); e < g_.end(a); ++e)
      if (g_.nbr[static_cast<size_t>(e)] == b)
        return static_cast<long long>(g_.w[static_cast<size_t>(e)]);
    return 0;
  }

  // Kernighan-Lin: exchange the pair of best gain while it is positive, the pair taken among the
  // kCandidates ranks of best single gain on each side; gains are updated after each exchange.
  void refine(const std::vector<int>& ranks)
  {
    constexpr size_t kCandidates = 8;
    for (int r : ranks)
      gain_[static_cast<size_t>(r)] = gain(r);
    for (size_t swaps = 0; swaps < ranks.size(); ++swaps) {
      std::vector<std::pair<long long, int>> by_side[2];
      for (int r : ranks)
        by_side[side_[static_cast<size_t>(r)]].emplace_back(-gain_[static_cast<size_t>(r)], r);
      for (auto& v : by_side) {
        const size_t keep = std::min(kCandidates, v.size());
        std::partial_sort(v.begin(), v.begin() + static_cast<long>(keep), v.end());
        v.resize(keep);
      }
      long long best = 0;
      int a = -1, b = -1;
      for (auto [ga, x] : by_side[0])
        for (auto [gb, y] : by_side[1])
          if (long long g = -ga - gb - 2 * weight(x, y); g > best) {
            best = g;
            a    = x;
            b    = y;
          }
      if (a < 0)
        return;
      std::swap(side_[static_cast<size_t>(a)], side_[static_cast<size_t>(b)]);
      for (int r : {a, b}) {
        gain_[static_cast<size_t>(r)] = gain(r);
        for (int e = g_.begin(r); e < g_.end(r); ++e)
          if (int u = g_.nbr[static_cast<size_t>(e)]; side_[static_cast<size_t>(u)] >= 0)
            gain_[static_cast<size_t>(u)] = gain(u);
      }
    }
  }

  const CommGraph& g_;
  const std::vector<Node>& nodes_;
  int capacity_;
  std::vector<int> result_;
  std::vector<int> side_; // -1 outside the part being bisected, else 0 or 1
  std::vector<long long> gain_;
};

} // namespace

std::vector<int> map_bipartition(const CommGraph& g, const Target& target)
{
  return Bipartition(g, target).run();
}

} // namespace haec::mapping::detail
