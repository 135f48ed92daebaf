// Load-balancing strategies (MODELS.md §6, thesis 002 §9.2.2): given each rank's measured load
// since the last balancing step and the node it runs on, choose a node per rank. Pure C++: no
// SimGrid include. Adding a strategy is one class and one line in make_strategy().
#pragma once
#include <memory>
#include <string>
#include <vector>

namespace haec::balance {

struct RankLoad {
  int rank     = 0;
  double load  = 0;  // seconds of computation (or flops) since the last step
  int node     = 0;  // where it runs now
  bool pinned  = false; // never moves (user pinned)
};

class Strategy {
public:
  virtual ~Strategy() = default;
  virtual std::string name() const = 0;
  // New node of every rank (same order as `ranks`), nodes numbered 0..nodes-1. Deterministic:
  // ties break on rank and node numbers.
  virtual std::vector<int> assign(const std::vector<RankLoad>& ranks, int nodes) const = 0;
};

// GreedyLB: ranks by decreasing load, each to the currently least loaded node; a rank stays on
// its node when that node is among the least loaded (moving it would not improve balance).
class GreedyLB : public Strategy {
public:
  std::string name() const override { return "greedy"; }
  std::vector<int> assign(const std::vector<RankLoad>& ranks, int nodes) const override;
};

// RefineLB: only moves ranks from nodes above tolerance * mean load to nodes below it, the
// heaviest rank that fits first, until no node is above the threshold or nothing fits.
class RefineLB : public Strategy {
public:
  explicit RefineLB(double tolerance = 1.05) : tolerance_(tolerance) {}
  std::string name() const override { return "refine"; }
  std::vector<int> assign(const std::vector<RankLoad>& ranks, int nodes) const override;

private:
  double tolerance_;
};

std::vector<std::string> strategy_names(); // "greedy", "refine"
// Throws haec::InputError naming `what` for an unknown name (listing the valid ones) or a
// tolerance below 1.
std::unique_ptr<Strategy> make_strategy(const std::string& name, double tolerance, const std::string& what);

// Load of each node under `assignment`.
std::vector<double> node_loads(const std::vector<RankLoad>& ranks, const std::vector<int>& assignment, int nodes);
// max / mean of the node loads (1 = perfect balance; 0 when there is no load).
double imbalance(const std::vector<double>& node_loads);

} // namespace haec::balance
