// auto: our mapper (docs/guide/mappings.md). It uses what the other strategies ignore:
//  1. Starts: every oblivious order (round-robin and, with several ranks per node, blocks of
//     consecutive ranks along each order), min-md, MapLib's aware strategies and Scotch; those that
//     decline (size limits) are skipped. To stay within seconds at thousands of ranks, Bokhari
//     joins only up to kMaxBokhariRanks ranks, greedy-allc, FHgreedy and PaCMap up to kMaxSlowRanks.
//  2. The starts are ranked by hop-bytes, then link-model cost (ties: the order above).
//  3. Local search (refine.hpp) from each of the kRefinedStarts best: exchanges and moves within
//     the node capacity that lower hop-bytes, and at equal hop-bytes the link-model cost of the
//     actual messages: the DOR time of each pair's mean message over its route's optical/wireless
//     hops with their latency, bandwidth and loss (objective time), or the link energy (energy).
//  4. Iterated local search from the best: kKickRounds rounds of a few random exchanges near
//     partners (SplitMix64 seeded with --seed) and refinement, kept when better; all of 3 and 4
//     within kBudget exchange/move evaluations, kLargeBudget above kMaxSlowRanks ranks
//     (deterministic: no clock).
// So auto never has more hop-bytes than any start it ran. On SimGrid XML platforms (no link
// classes) only hop-bytes count.
#include "dispatch.hpp"
#include "aware.hpp"
#include "input_error.hpp"
#include "link_cost.hpp"
#include "mapping_detail.hpp"
#include "prng.hpp"
#include "refine.hpp"
#include "scotch_mapper.hpp"

#include <algorithm>
#include <memory>

namespace haec::mapping {
namespace {

constexpr int kMaxBokhariRanks = 1024;
constexpr size_t kRefinedStarts = 3;            // the best starts that are refined
constexpr int kKickRounds       = 40;           // rounds of the iterated local search
constexpr uint64_t kBudget      = 40'000'000;   // exchange/move evaluations in all ...
constexpr uint64_t kLargeBudget = 10'000'000;   // ... above kMaxSlowRanks ranks
constexpr int kMaxSlowRanks    = 2048;

struct Candidate {
  std::string name;
  std::vector<int> assignment;
};

// Consecutive ranks share a node, nodes in the order's sequence (ceil(ranks / nodes) each).
std::vector<int> blocks_along(const std::vector<int>& order, int ranks)
{
  const int per_node = detail::node_capacity(ranks, static_cast<int>(order.size()));
  std::vector<int> a(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r)
    a[static_cast<size_t>(r)] = order[static_cast<size_t>(r / per_node)];
  return a;
}

std::vector<Candidate> starts(const Request& req, const detail::CommGraph& g, const Target& target, AutoReport* report)
{
  std::vector<Candidate> out;
  const bool packed = req.ranks > static_cast<int>(target.nodes.size());
  for (Strategy s : {Strategy::Sweep, Strategy::Scan, Strategy::Peano, Strategy::Hilbert, Strategy::Gray}) {
    const auto order = detail::curve_order(s, target.nodes);
    out.push_back({strategy_name(s), detail::map_along(order, req.ranks)});
    if (packed)
      out.push_back({strategy_name(s) + "-blocks", blocks_along(order, req.ranks)});
  }
  std::vector<Strategy> aware = {Strategy::MinMd, Strategy::Greedy, Strategy::Bipartition, Strategy::TopoAware,
                                 Strategy::Scotch};
  auto join_up_to = [&](Strategy s, int limit) {
    if (req.ranks <= limit)
      aware.push_back(s);
    else if (report)
      report->skipped.push_back(strategy_name(s) + " (auto runs it up to " + std::to_string(limit) + " ranks)");
  };
  join_up_to(Strategy::GreedyAllC, kMaxSlowRanks);
  join_up_to(Strategy::FhGreedy, kMaxSlowRanks);
  join_up_to(Strategy::PaCMap, kMaxSlowRanks);
  join_up_to(Strategy::Bokhari, kMaxBokhariRanks);
  for (Strategy s : aware) {
    try {
      out.push_back({strategy_name(s), s == Strategy::Scotch  ? map_scotch(g, target, req.seed)
                                       : s == Strategy::MinMd ? detail::map_min_md(*req.matrix, target.nodes)
                                                              : detail::map_aware(s, g, target, req.seed)});
    } catch (const InputError& e) {
      if (report)
        report->skipped.push_back(strategy_name(s) + " (" + e.what() + ")");
    }
  }
  return out;
}

// The best mapping found so far and the evaluations spent on finding it.
struct Search {
  const Refiner& refiner;
  uint64_t budget; // exchange/move evaluations
  std::vector<int> best;
  Score best_score;
  uint64_t spent = 0;
  int passes     = 0;

  // Refines `a` with what is left of the budget; true when it becomes the best.
  bool refine(std::vector<int> a)
  {
    const RefineStats stats = refiner.refine(a, budget - std::min(spent, budget));
    spent += stats.evaluations;
    passes += stats.passes;
    const Score s = refiner.score(a);
    if (!best.empty() && !(s < best_score))
      return false;
    best       = std::move(a);
    best_score = s;
    return true;
  }

  // Rounds of: max(2, ranks / 32) random exchanges near partners, then refinement; kept when
  // better. Returns the rounds kept.
  int kick(uint64_t seed, int ranks)
  {
    SplitMix64 rng(seed);
    int kept = 0;
    for (int round = 0; round < kKickRounds && spent < budget; ++round) {
      std::vector<int> a = best;
      for (int i = 0; i < std::max(2, ranks / 32); ++i)
        refiner.perturb(a, static_cast<int>(rng.below(static_cast<uint64_t>(ranks))), rng.next());
      kept += refine(std::move(a));
    }
    return kept;
  }
};

} // namespace

std::vector<int> map_auto(const Request& request, const Target& shared, AutoReport* report)
{
  Target target = shared; // with one hop table for every start
  if (!target.hop_table)
    attach_hop_table(target);
  Request req = request;
  req.target  = &target;
  std::unique_ptr<LinkCost> cost;
  if (!target.link_classes.empty() && target.profile)
    cost = std::make_unique<LinkCost>(target);
  RefineOptions options;
  options.objective = req.objective;
  const detail::CommGraph graph = detail::build_comm_graph(*req.matrix);
  const Refiner refiner(*req.matrix, graph, target, cost.get(), options);

  const auto candidates = starts(req, graph, target, report);
  std::vector<std::pair<Score, size_t>> ranked; // 2. the starts by score
  for (size_t i = 0; i < candidates.size(); ++i)
    ranked.emplace_back(refiner.score(candidates[i].assignment), i);
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) { return x.first < y.first; });

  Search search{refiner, req.ranks > kMaxSlowRanks ? kLargeBudget : kBudget, {}, {}, 0, 0};
  for (size_t k = 0; k < ranked.size() && k < kRefinedStarts; ++k) // 3. refine the best starts
    if (search.refine(candidates[ranked[k].second].assignment) && report)
      report->start = candidates[ranked[k].second].name;
  const int kicks_kept = search.kick(req.seed, req.ranks); // 4. iterated local search
  if (report) {
    report->start_hop_bytes = ranked[0].first.hop_bytes;
    report->start_cost      = ranked[0].first.cost;
    report->hop_bytes       = search.best_score.hop_bytes;
    report->cost            = search.best_score.cost;
    report->passes          = search.passes;
    report->kicks_kept      = kicks_kept;
  }
  return search.best;
}

} // namespace haec::mapping
