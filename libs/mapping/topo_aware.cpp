// topo-aware: the estimation-function mapping of Agarwal, Sharma and Kalé ("Topology-aware task
// mapping for reducing communication contention on large parallel machines", IPDPS 2006), MapLib's
// "topo_aware" with its first (fastest) estimation function:
//   f(t, p)     = sum over placed partners u of t: w(t, u) * hops(p, node(u))
//   crit(t)     = mean of f(t, p) over the nodes p with room  -  min of f(t, p) over them
// Each step places the unplaced rank of largest criticality (ties: lowest rank) on its node of
// least f (ties: lowest node). Ranks without placed partners have f = 0 everywhere, criticality 0.
// Kept exact and incremental: a rank's f row is updated when a partner is placed (O(N)), its sum
// and minimum over nodes with room when a node fills up, so the whole run costs O(E * N) instead
// of MapLib's O(R^2 * N * degree). Criticalities share the divisor (the nodes with room), so they
// are compared exactly as sum - free * min in 128-bit integers.
// Above kMaxWork = 2^31 elementary updates (2E * N) it declines with an InputError: dense
// communication graphs on thousands of nodes would take minutes.
#include "aware.hpp"
#include "input_error.hpp"
#include "mapping_detail.hpp"

#include <map>
#include <memory>

namespace haec::mapping::detail {
namespace {

using Wide = unsigned __int128;

struct Row {              // f(t, .) of one rank with placed partners
  std::vector<uint64_t> f; // per node
  Wide sum = 0;            // over nodes with room
  int argmin = -1;         // over nodes with room (lowest index on ties)
};

class TopoAware {
public:
  TopoAware(const CommGraph& g, const Target& target)
      : g_(g), dist_(target), placer_(g.n, dist_.nodes(), node_capacity(g.n, dist_.nodes())),
        free_nodes_(dist_.nodes()), rows_(static_cast<size_t>(g.n))
  {
  }

  std::vector<int> run()
  {
    for (int k = 0; k < g_.n; ++k) {
      const int t = most_critical();
      const int q = rows_[static_cast<size_t>(t)] ? rows_[static_cast<size_t>(t)]->argmin : placer_.first_free();
      place(t, q);
    }
    return placer_.assignment();
  }

private:
  Wide criticality(const Row& r) const
  {
    return r.sum - static_cast<Wide>(free_nodes_) * r.f[static_cast<size_t>(r.argmin)];
  }

  int most_critical() const
  {
    int best = -1;
    Wide best_crit = 0;
    for (int t = 0; t < g_.n; ++t) {
      if (placer_.placed(t))
        continue;
      const Wide c = rows_[static_cast<size_t>(t)] ? criticality(*rows_[static_cast<size_t>(t)]) : 0;
      if (best < 0 || c > best_crit) {
        best      = t;
        best_crit = c;
      }
    }
    return best;
  }

  void refresh(Row& r) const // sum and argmin over the nodes with room
  {
    r.sum    = 0;
    r.argmin = -1;
    for (int q = 0; q < dist_.nodes(); ++q) {
      if (!placer_.has_room(q))
        continue;
      r.sum += r.f[static_cast<size_t>(q)];
      if (r.argmin < 0 || r.f[static_cast<size_t>(q)] < r.f[static_cast<size_t>(r.argmin)])
        r.argmin = q;
    }
  }

  void place(int t, int q)
  {
    placer_.put(t, q);
    rows_[static_cast<size_t>(t)].reset();
    if (!placer_.has_room(q)) { // q leaves every row's sum and maybe its argmin
      --free_nodes_;
      for (auto& r : rows_)
        if (r) {
          r->sum -= r->f[static_cast<size_t>(q)];
          if (r->argmin == q)
            refresh(*r);
        }
    }
    for (int e = g_.begin(t); e < g_.end(t); ++e) {
      const int u = g_.nbr[static_cast<size_t>(e)];
      if (placer_.placed(u))
        continue;
      auto& row = rows_[static_cast<size_t>(u)];
      if (!row) {
        row = std::make_unique<Row>();
        row->f.assign(static_cast<size_t>(dist_.nodes()), 0);
      }
      for (int p = 0; p < dist_.nodes(); ++p)
        row->f[static_cast<size_t>(p)] += g_.w[static_cast<size_t>(e)] * static_cast<uint64_t>(dist_(p, q));
      refresh(*row);
    }
  }

  const CommGraph& g_;
  Distances dist_;
  Placer placer_;
  int free_nodes_;
  std::vector<std::unique_ptr<Row>> rows_;
};

} // namespace

std::vector<int> map_topo_aware(const CommGraph& g, const Target& target)
{
  constexpr double kMaxWork = 2147483648.0; // 2^31 row updates
  const double work = static_cast<double>(g.nbr.size()) * static_cast<double>(target.nodes.size());
  if (work > kMaxWork)
    throw InputError("mapping topo-aware",
                     "needs " + std::to_string(static_cast<long long>(work)) + " row updates (edges x nodes > 2^31)",
                     "use greedyALLC, scotch or auto for graphs this dense on this many nodes");
  return TopoAware(g, target).run();
}

} // namespace haec::mapping::detail
