#include "balance_strategies.hpp"
#include "input_error.hpp"

#include <algorithm>
#include <numeric>

namespace haec::balance {
namespace {

// Ranks by decreasing load, ties by rank number.
std::vector<size_t> heaviest_first(const std::vector<RankLoad>& ranks)
{
  std::vector<size_t> order(ranks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (ranks[a].load != ranks[b].load)
      return ranks[a].load > ranks[b].load;
    return ranks[a].rank < ranks[b].rank;
  });
  return order;
}

} // namespace

std::vector<double> node_loads(const std::vector<RankLoad>& ranks, const std::vector<int>& assignment, int nodes)
{
  std::vector<double> load(static_cast<size_t>(nodes), 0.0);
  for (size_t i = 0; i < ranks.size(); ++i)
    load.at(static_cast<size_t>(assignment[i])) += ranks[i].load;
  return load;
}

double imbalance(const std::vector<double>& loads)
{
  if (loads.empty())
    return 0;
  const double total = std::accumulate(loads.begin(), loads.end(), 0.0);
  if (!(total > 0))
    return 0;
  return *std::max_element(loads.begin(), loads.end()) / (total / static_cast<double>(loads.size()));
}

std::vector<int> GreedyLB::assign(const std::vector<RankLoad>& ranks, int nodes) const
{
  std::vector<int> to(ranks.size());
  std::vector<double> load(static_cast<size_t>(nodes), 0.0);
  // Pinned ranks first: their load is on their node whatever happens.
  for (size_t i = 0; i < ranks.size(); ++i)
    if (ranks[i].pinned) {
      to[i] = ranks[i].node;
      load.at(static_cast<size_t>(ranks[i].node)) += ranks[i].load;
    }
  for (size_t i : heaviest_first(ranks)) {
    if (ranks[i].pinned)
      continue;
    int best = 0;
    for (int n = 1; n < nodes; ++n)
      if (load[static_cast<size_t>(n)] < load[static_cast<size_t>(best)])
        best = n;
    // Staying is as good as the best move: keep the rank (no migration for nothing).
    if (load.at(static_cast<size_t>(ranks[i].node)) <= load[static_cast<size_t>(best)])
      best = ranks[i].node;
    to[i] = best;
    load[static_cast<size_t>(best)] += ranks[i].load;
  }
  return to;
}

std::vector<int> RefineLB::assign(const std::vector<RankLoad>& ranks, int nodes) const
{
  std::vector<int> to(ranks.size());
  for (size_t i = 0; i < ranks.size(); ++i)
    to[i] = ranks[i].node;
  std::vector<double> load = node_loads(ranks, to, nodes);
  const double mean        = std::accumulate(load.begin(), load.end(), 0.0) / nodes;
  const double limit       = tolerance_ * mean;
  const auto order         = heaviest_first(ranks);
  for (;;) {
    // The most overloaded node (lowest number on ties).
    int donor = -1;
    for (int n = 0; n < nodes; ++n)
      if (load[static_cast<size_t>(n)] > limit && (donor < 0 || load[static_cast<size_t>(n)] > load[static_cast<size_t>(donor)]))
        donor = n;
    if (donor < 0)
      break;
    // Its heaviest movable rank that fits under the limit on the least loaded node.
    int receiver = 0;
    for (int n = 1; n < nodes; ++n)
      if (load[static_cast<size_t>(n)] < load[static_cast<size_t>(receiver)])
        receiver = n;
    bool moved = false;
    for (size_t i : order) {
      if (to[i] != donor || ranks[i].pinned || ranks[i].load <= 0)
        continue;
      if (load[static_cast<size_t>(receiver)] + ranks[i].load <= limit) {
        to[i] = receiver;
        load[static_cast<size_t>(donor)] -= ranks[i].load;
        load[static_cast<size_t>(receiver)] += ranks[i].load;
        moved = true;
        break;
      }
    }
    if (!moved)
      break; // nothing fits: the rest of the imbalance stays
  }
  return to;
}

std::vector<std::string> strategy_names()
{
  return {"greedy", "refine"};
}

std::unique_ptr<Strategy> make_strategy(const std::string& name, double tolerance, const std::string& what)
{
  if (!(tolerance >= 1))
    throw InputError(what, "tolerance " + std::to_string(tolerance) + " is below 1", "give a tolerance >= 1, e.g. 1.05");
  if (name == "greedy")
    return std::make_unique<GreedyLB>();
  if (name == "refine")
    return std::make_unique<RefineLB>(tolerance);
  throw InputError(what, "unknown balancing strategy '" + name + "'", "use greedy or refine");
}

} // namespace haec::balance
