// auto: our mapper (README: Mappings). It uses what the other strategies ignore:
//  1. Starts: every oblivious order (round-robin and, with several ranks per node, blocks of
//     consecutive ranks along each order), min-md, MapLib's aware strategies and Scotch; those that
//     decline (size limits) are skipped. To stay within seconds at thousands of ranks, Bokhari
//     joins only up to kMaxBokhariRanks ranks, FHgreedy and PaCMap up to kMaxSlowRanks.
//  2. The start of least hop-bytes wins (ties: least link-model cost, then the order above).
//  3. Local search (refine.hpp) lowers hop-bytes by exchanges and moves within the node capacity,
//     and at equal hop-bytes the link-model cost of the actual messages: the DOR time of each
//     pair's mean message over its route's optical/wireless/... hops with their latency, bandwidth
//     and loss (objective time), or the link energy (objective energy).
// So auto never has more hop-bytes than any start it ran. On SimGrid XML platforms (no link
// classes) only hop-bytes count.
#include "dispatch.hpp"
#include "aware.hpp"
#include "input_error.hpp"
#include "link_cost.hpp"
#include "mapping_detail.hpp"
#include "refine.hpp"
#include "scotch_mapper.hpp"

#include <memory>

namespace haec::mapping {
namespace {

constexpr int kMaxBokhariRanks = 1024;
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
  std::vector<Strategy> aware = {Strategy::MinMd, Strategy::Greedy, Strategy::GreedyAllC, Strategy::Bipartition,
                                 Strategy::TopoAware, Strategy::Scotch};
  auto join_up_to = [&](Strategy s, int limit) {
    if (req.ranks <= limit)
      aware.push_back(s);
    else if (report)
      report->skipped.push_back(strategy_name(s) + " (auto runs it up to " + std::to_string(limit) + " ranks)");
  };
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

  auto candidates = starts(req, graph, target, report);
  size_t best     = 0;
  Score best_score = refiner.score(candidates[0].assignment);
  for (size_t i = 1; i < candidates.size(); ++i)
    if (Score s = refiner.score(candidates[i].assignment); s < best_score) {
      best       = i;
      best_score = s;
    }
  std::vector<int> a = candidates[best].assignment;
  const RefineStats stats = refiner.refine(a);
  if (report) {
    report->start           = candidates[best].name;
    report->start_hop_bytes = stats.hop_bytes_before;
    report->hop_bytes       = stats.hop_bytes_after;
    report->start_cost      = stats.cost_before;
    report->cost            = stats.cost_after;
    report->passes          = stats.passes;
  }
  return a;
}

} // namespace haec::mapping
