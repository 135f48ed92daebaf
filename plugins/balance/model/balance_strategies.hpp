// Load-balancing strategies (MODELS.md §6, thesis 002 §9.2.2): given each rank's measured load
// since the last balancing step, the node it runs on and every node's capacity (cores, speed),
// choose a node per rank. They compare nodes by predicted time (node_capacity.hpp), so a node
// with free cores or a faster pstate attracts work and equal nodes with a core per rank do not.
// Pure C++: no SimGrid include. Adding a strategy is one class and one line in make_strategy().
#pragma once
#include <memory>
#include <string>
#include <vector>

namespace haec::balance {

struct RankLoad {
  int rank     = 0;
  double load  = 0;  // flops computed since the last step
  int node     = 0;  // where it runs now
  bool pinned  = false; // never moves (user pinned)
};

// A node's capacity: `cores` cores of `speed` flop/s each (its current pstate).
struct NodeCapacity {
  int cores    = 1;
  double speed = 1;
};

class Strategy {
public:
  virtual ~Strategy() = default;
  virtual std::string name() const = 0;
  // New node of every rank (same order as `ranks`), nodes numbered as `nodes`. Deterministic:
  // ties break on rank and node numbers.
  virtual std::vector<int> assign(const std::vector<RankLoad>& ranks, const std::vector<NodeCapacity>& nodes) const = 0;
  // `nodes` single-core nodes of speed 1 (a load is then the seconds it takes).
  std::vector<int> assign(const std::vector<RankLoad>& ranks, int nodes) const
  {
    return assign(ranks, std::vector<NodeCapacity>(static_cast<size_t>(nodes)));
  }
};

// GreedyLB: ranks by decreasing load, each to the node that would finish soonest with it; a rank
// stays on its node when that node is among the soonest (moving it would not improve balance).
// The groups formed are then placed by keep_in_place().
class GreedyLB : public Strategy {
public:
  using Strategy::assign;
  std::string name() const override { return "greedy"; }
  std::vector<int> assign(const std::vector<RankLoad>& ranks, const std::vector<NodeCapacity>& nodes) const override;
};

// RefineLB: only moves ranks from nodes whose predicted time is above tolerance * the mean node
// time to the soonest-finishing node, the heaviest rank that fits under the threshold there and
// shortens its donor first, until no node is above the threshold or nothing fits.
class RefineLB : public Strategy {
public:
  using Strategy::assign;
  explicit RefineLB(double tolerance = 1.05) : tolerance_(tolerance) {}
  std::string name() const override { return "refine"; }
  std::vector<int> assign(const std::vector<RankLoad>& ranks, const std::vector<NodeCapacity>& nodes) const override;

private:
  double tolerance_;
};

// The same node groups as `plan`, each moved as a whole to the node of equal capacity that
// keeps the most of its ranks in place (greedily, ties to lower numbers): equal predicted times,
// fewer migrations. Groups holding a pinned rank stay put.
std::vector<int> keep_in_place(const std::vector<RankLoad>& ranks, const std::vector<int>& plan,
                               const std::vector<NodeCapacity>& nodes);

std::vector<std::string> strategy_names(); // "greedy", "refine"
// Throws haec::InputError naming `what` for an unknown name (listing the valid ones) or a
// tolerance below 1.
std::unique_ptr<Strategy> make_strategy(const std::string& name, double tolerance, const std::string& what);

// Load of each node under `assignment`.
std::vector<double> node_loads(const std::vector<RankLoad>& ranks, const std::vector<int>& assignment, int nodes);
// max / mean of the node loads (1 = perfect balance; 0 when there is no load).
double imbalance(const std::vector<double>& node_loads);

} // namespace haec::balance
