// auto's local search (refine.hpp). A pass visits the ranks in order; for rank u it tries every
// rank v on, and every free place of, the nodes where u's kTopPartners heaviest partners sit and
// their one-hop neighbours, and applies the best change: lowest hop-bytes change if negative, else
// (at zero hop-bytes change) the lowest link-model cost change if it saves more than kTolerance of
// the total. Passes repeat until one changes nothing, or the evaluation budget is spent (an
// evaluation that needs the link model counts kCostEvaluation times). Deterministic: no clocks.
#include "refine.hpp"
#include "aware.hpp"

#include <algorithm>
#include <cmath>

namespace haec::mapping {
namespace {

constexpr int kTopPartners     = 6;
constexpr int kCostEvaluation  = 8;
constexpr double kTolerance    = 1e-12;

struct Partner {
  int rank;
  uint64_t weight;                   // hop-bytes weight of the pair (both directions)
  uint64_t msgs_out, bytes_out;      // this rank -> partner
  uint64_t msgs_in, bytes_in;        // partner -> this rank
};

} // namespace

struct Refiner::Impl {
  const Target& target;
  const LinkCost* cost;
  RefineOptions options;
  detail::Distances dist;
  int ranks, nodes, capacity;
  std::vector<std::vector<Partner>> partners;  // per rank, heaviest first
  std::vector<std::vector<int>> one_hop;       // per node

  Impl(const CommMatrix& m, const detail::CommGraph& g, const Target& t, const LinkCost* c, RefineOptions o)
      : target(t), cost(c), options(o), dist(t), ranks(m.ranks), nodes(static_cast<int>(t.nodes.size())),
        capacity(detail::node_capacity(m.ranks, nodes)), partners(static_cast<size_t>(m.ranks)),
        one_hop(static_cast<size_t>(nodes))
  {
    auto msgs  = [&](int s, int d) { return m.has_messages ? m.msgs(s, d) : (m.byte_count(s, d) > 0 ? 1u : 0u); };
    auto bytes = [&](int s, int d) { return m.has_bytes ? m.byte_count(s, d) : 0u; };
    for (int u = 0; u < g.n; ++u) {
      auto& list = partners[static_cast<size_t>(u)];
      for (int e = g.begin(u); e < g.end(u); ++e) {
        const int x = g.nbr[static_cast<size_t>(e)];
        list.push_back({x, g.w[static_cast<size_t>(e)], msgs(u, x), bytes(u, x), msgs(x, u), bytes(x, u)});
      }
      std::stable_sort(list.begin(), list.end(), [](const Partner& a, const Partner& b) { return a.weight > b.weight; });
    }
    for (int a = 0; a < nodes; ++a)
      for (int b = 0; b < nodes; ++b)
        if (a != b && dist(a, b) == 1)
          one_hop[static_cast<size_t>(a)].push_back(b);
  }

  double pair_cost(const Partner& p, int a, int b) const
  {
    const RouteProfile prof = target.profile(a, b);
    if (options.objective == AutoObjective::Energy)
      return cost->energy(p.bytes_out + p.bytes_in, prof);
    return cost->time(p.msgs_out, p.bytes_out, prof) + cost->time(p.msgs_in, p.bytes_in, prof);
  }

  // Hop-bytes change when u goes from a to q and, if v >= 0, v from q to a.
  long long delta_hops(const std::vector<int>& node, int u, int q, int v) const
  {
    const int a = node[static_cast<size_t>(u)];
    long long d = 0;
    for (const Partner& p : partners[static_cast<size_t>(u)])
      if (p.rank != v) {
        const int nx = node[static_cast<size_t>(p.rank)];
        d += static_cast<long long>(p.weight) * (dist(q, nx) - dist(a, nx));
      }
    if (v >= 0)
      for (const Partner& p : partners[static_cast<size_t>(v)])
        if (p.rank != u) {
          const int ny = node[static_cast<size_t>(p.rank)];
          d += static_cast<long long>(p.weight) * (dist(a, ny) - dist(q, ny));
        }
    return d;
  }

  double delta_cost(const std::vector<int>& node, int u, int q, int v) const
  {
    const int a = node[static_cast<size_t>(u)];
    double d    = 0;
    for (const Partner& p : partners[static_cast<size_t>(u)])
      if (p.rank != v) {
        const int nx = node[static_cast<size_t>(p.rank)];
        d += pair_cost(p, q, nx) - pair_cost(p, a, nx);
      }
    if (v >= 0)
      for (const Partner& p : partners[static_cast<size_t>(v)])
        if (p.rank != u) {
          const int ny = node[static_cast<size_t>(p.rank)];
          d += pair_cost(p, a, ny) - pair_cost(p, q, ny);
        }
    return d;
  }

  Score score(const std::vector<int>& node) const
  {
    Score s;
    for (int u = 0; u < ranks; ++u)
      for (const Partner& p : partners[static_cast<size_t>(u)])
        if (p.rank > u) {
          const int a = node[static_cast<size_t>(u)], b = node[static_cast<size_t>(p.rank)];
          s.hop_bytes += p.weight * static_cast<uint64_t>(dist(a, b));
          if (cost)
            s.cost += pair_cost(p, a, b);
        }
    return s;
  }
};

namespace {

struct Change {
  int q = -1, v = -1; // target node; v >= 0: exchange with v
  long long hops = 0;
  double cost    = 0;
};

// The candidate nodes of u: where its heaviest partners are, and their one-hop neighbours.
void candidate_nodes(const Refiner::Impl& r, const std::vector<int>& node, int u, std::vector<int>& stamp, int mark,
                     std::vector<int>& out)
{
  out.clear();
  const auto& list = r.partners[static_cast<size_t>(u)];
  for (size_t i = 0; i < list.size() && i < static_cast<size_t>(kTopPartners); ++i) {
    const int nx = node[static_cast<size_t>(list[i].rank)];
    auto add     = [&](int q) {
      if (stamp[static_cast<size_t>(q)] != mark) {
        stamp[static_cast<size_t>(q)] = mark;
        out.push_back(q);
      }
    };
    add(nx);
    for (int q : r.one_hop[static_cast<size_t>(nx)])
      add(q);
  }
}

} // namespace

Refiner::Refiner(const CommMatrix& m, const detail::CommGraph& g, const Target& target, const LinkCost* cost,
                 RefineOptions options)
    : impl_(std::make_unique<Impl>(m, g, target, cost, options))
{
}

Refiner::~Refiner() = default;

Score Refiner::score(const std::vector<int>& assignment) const
{
  return impl_->score(assignment);
}

RefineStats Refiner::refine(std::vector<int>& node, uint64_t budget) const
{
  const Impl& r = *impl_;
  RefineStats stats;
  Score start            = r.score(node);
  stats.hop_bytes_before = start.hop_bytes;
  stats.cost_before      = start.cost;
  const double tolerance = kTolerance * std::max(start.cost, 1e-300);
  std::vector<std::vector<int>> on_node(static_cast<size_t>(r.nodes));
  for (int u = 0; u < r.ranks; ++u)
    on_node[static_cast<size_t>(node[static_cast<size_t>(u)])].push_back(u);
  std::vector<int> stamp(static_cast<size_t>(r.nodes), -1), candidates;
  int mark = 0;
  bool changed = true;
  while (changed && stats.passes < r.options.max_passes && stats.evaluations < budget) {
    changed = false;
    ++stats.passes;
    for (int u = 0; u < r.ranks && stats.evaluations < budget; ++u) {
      const int a = node[static_cast<size_t>(u)];
      candidate_nodes(r, node, u, stamp, mark++, candidates);
      Change best;
      auto consider = [&](int q, int v) {
        ++stats.evaluations;
        const long long dh = r.delta_hops(node, u, q, v);
        if (dh > best.hops) // best.hops starts at 0: never accept more hop-bytes
          return;
        double dc = 0;
        if (r.cost) {
          stats.evaluations += kCostEvaluation;
          dc = r.delta_cost(node, u, q, v);
        }
        if (dh == 0 && dc >= -tolerance)
          return; // changes nothing worth having
        if (dh < best.hops || best.q < 0 || dc < best.cost)
          best = {q, v, dh, dc};
      };
      for (int q : candidates) {
        if (q == a)
          continue;
        if (static_cast<int>(on_node[static_cast<size_t>(q)].size()) < r.capacity)
          consider(q, -1);
        for (int v : on_node[static_cast<size_t>(q)])
          consider(q, v);
      }
      if (best.q < 0)
        continue;
      changed   = true;
      auto& from = on_node[static_cast<size_t>(a)];
      auto& to   = on_node[static_cast<size_t>(best.q)];
      from.erase(std::find(from.begin(), from.end(), u));
      to.push_back(u);
      node[static_cast<size_t>(u)] = best.q;
      if (best.v >= 0) {
        to.erase(std::find(to.begin(), to.end(), best.v));
        from.push_back(best.v);
        node[static_cast<size_t>(best.v)] = a;
      }
    }
  }
  const Score end       = r.score(node);
  stats.hop_bytes_after = end.hop_bytes;
  stats.cost_after      = end.cost;
  return stats;
}

} // namespace haec::mapping

namespace haec::mapping {

int Refiner::ranks() const
{
  return impl_->ranks;
}

void Refiner::perturb(std::vector<int>& node, int u, uint64_t draw) const
{
  const Impl& r = *impl_;
  std::vector<int> stamp(static_cast<size_t>(r.nodes), -1), candidates;
  candidate_nodes(r, node, u, stamp, 0, candidates);
  candidates.erase(std::remove(candidates.begin(), candidates.end(), node[static_cast<size_t>(u)]), candidates.end());
  if (candidates.empty())
    return;
  const int q = candidates[draw % candidates.size()];
  std::vector<int> there;
  for (int v = 0; v < r.ranks; ++v)
    if (node[static_cast<size_t>(v)] == q)
      there.push_back(v);
  const int a = node[static_cast<size_t>(u)];
  if (static_cast<int>(there.size()) < r.capacity && (there.empty() || (draw >> 32) % 2 == 0)) {
    node[static_cast<size_t>(u)] = q; // a free place
    return;
  }
  const int v                  = there[(draw >> 33) % there.size()];
  node[static_cast<size_t>(u)] = q;
  node[static_cast<size_t>(v)] = a;
}

} // namespace haec::mapping
