// Bokhari: "On the mapping problem" (S. H. Bokhari, IEEE Trans. Computers C-30(3), 1981), MapLib's
// "bokhari". The objective is the cardinality: how many edges of the communication graph (weights
// ignored) join ranks at most one hop apart. Starting from sweep (xyz), pairwise exchanges are
// applied while they raise it: each rank in turn is exchanged with the rank, or the free place of
// a node with room, whose exchange gains most (ties: lowest rank, free places after ranks; only
// gains > 0). When no exchange helps, the result is kept if it beats the best so far and
// max(dims) random exchanges ("jump", SplitMix64 seeded with --seed) restart the search; the
// search ends when a round does not beat the best, or after kMaxRounds rounds.
// Choices: same-node pairs count as adjacent (several ranks per node); MapLib keeps jumping while
// rounds tie and exchanges at zero gain, which need not terminate; we stop on ties and move only on
// gains. A pass costs O(R * (N + R) * degree): above kMaxRanks ranks Bokhari declines.
#include "aware.hpp"
#include "input_error.hpp"
#include "mapping_detail.hpp"
#include "prng.hpp"

#include <algorithm>

namespace haec::mapping::detail {
namespace {

constexpr int kMaxRounds = 50;
constexpr int kMaxRanks  = 2048;

class Bokhari {
public:
  Bokhari(const CommGraph& g, const Target& target, uint64_t seed)
      : g_(g), dist_(target), capacity_(node_capacity(g.n, dist_.nodes())),
        load_(static_cast<size_t>(dist_.nodes()), 0), rng_(seed), jumps_(std::max({target.dims[0], target.dims[1], target.dims[2]}))
  {
    node_ = map_xyz(g.n, dist_.nodes());
    for (int n : node_)
      ++load_[static_cast<size_t>(n)];
  }

  std::vector<int> run()
  {
    std::vector<int> best = node_;
    long long best_card   = cardinality();
    for (int round = 0; round < kMaxRounds; ++round) {
      while (augment()) {
      }
      const long long card = cardinality();
      if (round > 0 && card <= best_card)
        break;
      if (card > best_card || round == 0) {
        best      = node_;
        best_card = std::max(card, best_card);
      }
      jump();
    }
    return best;
  }

private:
  bool adjacent(int a, int b) const { return dist_(a, b) <= 1; }

  long long cardinality() const
  {
    long long c = 0;
    for (int v = 0; v < g_.n; ++v)
      for (int e = g_.begin(v); e < g_.end(v); ++e)
        c += adjacent(node_[static_cast<size_t>(v)], node_[static_cast<size_t>(g_.nbr[static_cast<size_t>(e)])]);
    return c / 2;
  }

  // Edges of v satisfied when v sits on node q (its partner `skip` excluded).
  int satisfied(int v, int q, int skip) const
  {
    int s = 0;
    for (int e = g_.begin(v); e < g_.end(v); ++e)
      if (int x = g_.nbr[static_cast<size_t>(e)]; x != skip)
        s += adjacent(q, node_[static_cast<size_t>(x)]);
    return s;
  }

  // One pass over the ranks; true when some exchange gained.
  bool augment()
  {
    bool gained = false;
    std::vector<int> at_node(static_cast<size_t>(dist_.nodes()));
    for (int u = 0; u < g_.n; ++u) {
      const int nu = node_[static_cast<size_t>(u)];
      for (int q = 0; q < dist_.nodes(); ++q) // u's satisfied edges if it moved to q
        at_node[static_cast<size_t>(q)] = satisfied(u, q, -1);
      const int now = at_node[static_cast<size_t>(nu)];
      int best_v = -1, best_q = -1, best_gain = 0;
      for (int v = 0; v < g_.n; ++v) {
        const int nv = node_[static_cast<size_t>(v)];
        if (v == u || nv == nu)
          continue;
        // u <-> v: an edge u-v keeps its length, so both sides are counted without it (at_node
        // counted it as satisfied at nv, where v stood).
        const bool uv  = edge_between(u, v);
        const int gain = (at_node[static_cast<size_t>(nv)] - uv) - (now - (uv && adjacent(nu, nv))) +
                         satisfied(v, nu, u) - satisfied(v, nv, u);
        if (gain > best_gain) {
          best_gain = gain;
          best_v    = v;
        }
      }
      for (int q = 0; q < dist_.nodes(); ++q) // free places: u moves alone
        if (q != nu && load_[static_cast<size_t>(q)] < capacity_ && at_node[static_cast<size_t>(q)] - now > best_gain) {
          best_gain = at_node[static_cast<size_t>(q)] - now;
          best_v    = -1;
          best_q    = q;
        }
      if (best_gain <= 0)
        continue;
      gained = true;
      if (best_v >= 0)
        std::swap(node_[static_cast<size_t>(u)], node_[static_cast<size_t>(best_v)]);
      else
        move(u, best_q);
    }
    return gained;
  }

  bool edge_between(int u, int v) const
  {
    return std::binary_search(g_.nbr.begin() + g_.begin(u), g_.nbr.begin() + g_.end(u), v);
  }

  void move(int u, int q)
  {
    --load_[static_cast<size_t>(node_[static_cast<size_t>(u)])];
    ++load_[static_cast<size_t>(q)];
    node_[static_cast<size_t>(u)] = q;
  }

  void jump()
  {
    if (g_.n < 2)
      return;
    for (int i = 0; i < jumps_; ++i) {
      const int a = static_cast<int>(rng_.below(static_cast<uint64_t>(g_.n)));
      const int b = static_cast<int>(rng_.below(static_cast<uint64_t>(g_.n)));
      std::swap(node_[static_cast<size_t>(a)], node_[static_cast<size_t>(b)]);
    }
  }

  const CommGraph& g_;
  Distances dist_;
  int capacity_;
  std::vector<int> node_, load_;
  SplitMix64 rng_;
  int jumps_;
};

} // namespace

std::vector<int> map_bokhari(const CommGraph& g, const Target& target, uint64_t seed)
{
  if (g.n > kMaxRanks)
    throw InputError("mapping bokhari",
                     std::to_string(g.n) + " ranks: its exchange passes grow as ranks^2 (limit " +
                         std::to_string(kMaxRanks) + ")",
                     "use scotch or auto for this many ranks");
  return Bokhari(g, target, seed).run();
}

} // namespace haec::mapping::detail
