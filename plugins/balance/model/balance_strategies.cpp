#include "balance_strategies.hpp"
#include "input_error.hpp"
#include "node_capacity.hpp"

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

namespace {

// What is on a node so far, and how long it would take (node_capacity.hpp).
struct NodeFill {
  NodeCapacity capacity;
  double work     = 0;
  double heaviest = 0;
  int ranks       = 0;
  double time() const { return node_time(work, heaviest, ranks, capacity); }
  double time_with(double load) const { return node_time(work + load, std::max(heaviest, load), ranks + 1, capacity); }
  void add(double load)
  {
    work += load;
    heaviest = std::max(heaviest, load);
    ++ranks;
  }
};

bool same_capacity(const NodeCapacity& a, const NodeCapacity& b)
{
  return a.cores == b.cores && a.speed == b.speed;
}

} // namespace

std::vector<int> keep_in_place(const std::vector<RankLoad>& ranks, const std::vector<int>& plan,
                               const std::vector<NodeCapacity>& nodes)
{
  const size_t n = nodes.size();
  // stay[b][m]: ranks planned on node b that already run on node m.
  std::vector<std::vector<int>> stay(n, std::vector<int>(n, 0));
  for (size_t i = 0; i < ranks.size(); ++i)
    ++stay.at(static_cast<size_t>(plan[i])).at(static_cast<size_t>(ranks[i].node));
  std::vector<int> label(n, -1); // planned node -> node it goes to
  std::vector<bool> taken(n, false);
  // A planned group holding a pinned rank stays where the strategy put it (the pin's node).
  for (size_t i = 0; i < ranks.size(); ++i)
    if (ranks[i].pinned) {
      const auto b = static_cast<size_t>(plan[i]);
      label[b]     = plan[i];
      taken[b]     = true;
    }
  // Then, repeatedly, the pair (group, equal node) keeping the most ranks where they are.
  for (;;) {
    size_t best_b = n, best_m = n;
    for (size_t b = 0; b < n; ++b)
      for (size_t m = 0; m < n && label[b] < 0; ++m)
        if (!taken[m] && same_capacity(nodes[b], nodes[m]) &&
            (best_b == n || stay[b][m] > stay[best_b][best_m]))
          best_b = b, best_m = m;
    if (best_b == n)
      break;
    label[best_b] = static_cast<int>(best_m);
    taken[best_m] = true;
  }
  std::vector<int> out(plan.size());
  for (size_t i = 0; i < plan.size(); ++i)
    out[i] = label.at(static_cast<size_t>(plan[i]));
  return out;
}

std::vector<int> GreedyLB::assign(const std::vector<RankLoad>& ranks, const std::vector<NodeCapacity>& nodes) const
{
  std::vector<int> to(ranks.size());
  std::vector<NodeFill> fill;
  for (const auto& c : nodes)
    fill.push_back({c});
  // Pinned ranks first: their load is on their node whatever happens.
  for (size_t i = 0; i < ranks.size(); ++i)
    if (ranks[i].pinned) {
      to[i] = ranks[i].node;
      fill.at(static_cast<size_t>(ranks[i].node)).add(ranks[i].load);
    }
  for (size_t i : heaviest_first(ranks)) {
    if (ranks[i].pinned)
      continue;
    const double load = ranks[i].load;
    size_t best       = 0;
    for (size_t n = 1; n < fill.size(); ++n)
      if (fill[n].time_with(load) < fill[best].time_with(load))
        best = n;
    // Staying is as good as the best move: keep the rank (no migration for nothing).
    const auto here = static_cast<size_t>(ranks[i].node);
    if (fill.at(here).time_with(load) <= fill[best].time_with(load))
      best = here;
    to[i] = static_cast<int>(best);
    fill[best].add(load);
  }
  return keep_in_place(ranks, to, nodes);
}

std::vector<int> RefineLB::assign(const std::vector<RankLoad>& ranks, const std::vector<NodeCapacity>& nodes) const
{
  std::vector<int> to(ranks.size());
  for (size_t i = 0; i < ranks.size(); ++i)
    to[i] = ranks[i].node;
  const size_t n_nodes = nodes.size();
  std::vector<double> time = node_times(ranks, to, nodes);
  const double limit       = tolerance_ * std::accumulate(time.begin(), time.end(), 0.0) / static_cast<double>(n_nodes);
  const auto order         = heaviest_first(ranks);
  // Every move shortens its donor and keeps the receiver under the limit; the bound only guards.
  for (size_t step = 0; step < ranks.size() * n_nodes + 1; ++step) {
    // The slowest node above the limit (lowest number on ties) gives to the soonest one.
    size_t donor = n_nodes, receiver = 0;
    for (size_t n = 0; n < n_nodes; ++n) {
      if (time[n] > limit && (donor == n_nodes || time[n] > time[donor]))
        donor = n;
      if (time[n] < time[receiver])
        receiver = n;
    }
    if (donor == n_nodes || donor == receiver)
      break;
    bool moved = false;
    for (size_t i : order) {
      if (static_cast<size_t>(to[i]) != donor || ranks[i].pinned || ranks[i].load <= 0)
        continue;
      to[i]        = static_cast<int>(receiver);
      auto trial   = node_times(ranks, to, nodes);
      if (trial[receiver] <= limit && trial[donor] < time[donor]) {
        time  = trial;
        moved = true;
        break;
      }
      to[i] = static_cast<int>(donor);
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
