// Local search of `auto`: exchanges and moves of ranks that lower hop-bytes, and at equal
// hop-bytes the link-model cost (time or energy). Pure C++, deterministic.
#pragma once
#include "link_cost.hpp"
#include "mapping.hpp"
#include "target.hpp"

#include <memory>
#include <vector>

namespace haec::mapping {

struct RefineStats {
  uint64_t hop_bytes_before = 0, hop_bytes_after = 0;
  double cost_before = 0, cost_after = 0;
  int passes = 0;
  uint64_t evaluations = 0;
};

struct RefineOptions {
  AutoObjective objective = AutoObjective::Time;
  int max_passes          = 100;
};

// The objectives of a mapping, as the refinement computes them (for choosing a start).
struct Score {
  uint64_t hop_bytes = 0; // sum over rank pairs of the graph weight x hops (bytes, else messages)
  double cost        = 0; // link-model seconds or joules (0 without link classes)
  bool operator<(const Score& o) const { return hop_bytes != o.hop_bytes ? hop_bytes < o.hop_bytes : cost < o.cost; }
};

namespace detail {
struct CommGraph;
}

class Refiner {
public:
  // `graph` is detail::build_comm_graph(m); `cost` may be null (no link classes): hop-bytes only.
  Refiner(const CommMatrix& m, const detail::CommGraph& graph, const Target& target, const LinkCost* cost,
          RefineOptions options);
  ~Refiner();
  Score score(const std::vector<int>& assignment) const;
  // Improves `assignment` in place within `budget` exchange/move evaluations (what bounds the run
  // time); every node keeps at most ceil(ranks / nodes) ranks.
  RefineStats refine(std::vector<int>& assignment, uint64_t budget) const;
  // Exchanges rank u with a rank (or free place) on a node near u's heaviest partners, drawn from
  // `draw` (a value in [0, 2^64)): the kick of an iterated local search.
  void perturb(std::vector<int>& assignment, int u, uint64_t draw) const;
  int ranks() const;

  struct Impl; // refine.cpp

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace haec::mapping
