// Capacity-aware balancing (plugins/balance/model/node_capacity.*): predicted
// node times from cores and pstate speed, and plans kept only when they beat their migrations.
// Hand-computed values.
#include "balance_strategies.hpp"
#include "node_capacity.hpp"

#include <gtest/gtest.h>

using namespace haec::balance;

namespace {
std::vector<RankLoad> loads(const std::vector<double>& l, const std::vector<int>& node)
{
  std::vector<RankLoad> r;
  for (size_t i = 0; i < l.size(); ++i)
    r.push_back({static_cast<int>(i), l[i], node[i], false});
  return r;
}

int moves(const std::vector<RankLoad>& r, const std::vector<int>& to)
{
  int m = 0;
  for (size_t i = 0; i < r.size(); ++i)
    m += to[i] != r[i].node;
  return m;
}
} // namespace

TEST(NodeCapacity, TimeIsSharedCoresOrHeaviestRank)
{
  const NodeCapacity one{1, 2e9}, two{2, 2e9}, twelve{12, 2e9};
  // 4 ranks of 1e9, 2e9, 3e9, 2e9 flops (8e9): one core 8e9 / 2e9 = 4 s; two cores 8e9 / 4e9 = 2 s;
  // twelve cores: each rank has a core, the heaviest takes 3e9 / 2e9 = 1.5 s.
  EXPECT_DOUBLE_EQ(node_time(8e9, 3e9, 4, one), 4.0);
  EXPECT_DOUBLE_EQ(node_time(8e9, 3e9, 4, two), 2.0);
  EXPECT_DOUBLE_EQ(node_time(8e9, 3e9, 4, twelve), 1.5);
  // Two cores, one rank of 6e9 and one of 1e9: 7e9 / 4e9 = 1.75 s, but the heavy rank alone
  // needs 3 s on its core.
  EXPECT_DOUBLE_EQ(node_time(7e9, 6e9, 2, two), 3.0);
  EXPECT_DOUBLE_EQ(node_time(0, 0, 0, one), 0.0);
  auto r = loads({1e9, 2e9, 3e9, 2e9}, {0, 0, 1, 1});
  EXPECT_EQ(node_times(r, {0, 0, 1, 1}, {one, twelve}), (std::vector<double>{1.5, 1.5}));
  EXPECT_DOUBLE_EQ(predicted_makespan(r, {0, 0, 0, 1}, {one, twelve}), 3.0);
}

TEST(NodeCapacity, MoreCoresThanRanksMeansNoMigration)
{
  // 16 ranks on 4 twelve-core nodes (4 each), as taurus with 64 ranks on 16 nodes: heavy ranks
  // 0-3 and 12-15 (ondes3d-like borders). Each rank has a core: the makespan is the heaviest
  // rank's time wherever it runs, no plan can lower it, nothing moves.
  std::vector<double> l(16, 1e9);
  for (int i : {0, 1, 2, 3, 12, 13, 14, 15})
    l[static_cast<size_t>(i)] = 2e9;
  std::vector<int> at;
  for (int i = 0; i < 16; ++i)
    at.push_back(i / 4);
  auto r = loads(l, at);
  const std::vector<NodeCapacity> taurus(4, NodeCapacity{12, 2.3e9});
  const GreedyLB greedy;
  const RefineLB refine(1.05);
  for (const Strategy* s : {static_cast<const Strategy*>(&greedy), static_cast<const Strategy*>(&refine)}) {
    const auto plan = s->assign(r, taurus);
    const auto v    = judge_plan(r, plan, taurus, std::vector<double>(16, 0.0));
    EXPECT_FALSE(v.execute) << s->name();
    EXPECT_DOUBLE_EQ(v.makespan_before, 2e9 / 2.3e9);
    EXPECT_DOUBLE_EQ(v.makespan_after, v.makespan_before) << s->name();
    EXPECT_EQ(moves(r, plan), 0) << s->name();
  }
  // The same loads on single-core nodes: node times 8, 4, 4, 8 (x 1e9 / speed); greedy moves.
  const std::vector<NodeCapacity> single(4, NodeCapacity{1, 2.3e9});
  const auto plan = GreedyLB().assign(r, single);
  const auto v    = judge_plan(r, plan, single, std::vector<double>(16, 0.0));
  EXPECT_TRUE(v.execute);
  EXPECT_DOUBLE_EQ(v.makespan_before, 8e9 / 2.3e9);
  EXPECT_DOUBLE_EQ(v.makespan_after, 6e9 / 2.3e9); // 24e9 flops over 4 nodes: 6e9 each
  EXPECT_GT(moves(r, plan), 0);
}

TEST(NodeCapacity, SingleCoreHostsBalanceAsBefore)
{
  // The flop loads of GreedyLB.HeaviestFirstToLeastLoaded on two single-core nodes of any one
  // speed: the same assignment as with unit speeds.
  auto r = loads({5e9, 4e9, 3e9, 3e9, 2e9, 1e9}, {0, 0, 0, 0, 0, 0});
  const std::vector<NodeCapacity> single(2, NodeCapacity{1, 2.3e9});
  EXPECT_EQ(GreedyLB().assign(r, single), (std::vector<int>{0, 1, 1, 0, 1, 0}));
  EXPECT_EQ(GreedyLB().assign(r, 2), (std::vector<int>{0, 1, 1, 0, 1, 0}));
  // RefineLB's hand-computed case (RefineLB.MovesOnlyFromOverloadedNodes) scaled to flops.
  auto f = loads({4e9, 2e9, 2e9, 2e9, 2e9, 2e9, 4e9}, {0, 0, 0, 0, 1, 1, 2});
  const std::vector<NodeCapacity> three(3, NodeCapacity{1, 2.3e9});
  const auto to = RefineLB(1.05).assign(f, three);
  EXPECT_EQ(node_loads(f, to, 3), (std::vector<double>{6e9, 6e9, 6e9}));
  EXPECT_EQ(moves(f, to), 2);
}

TEST(NodeCapacity, PstateSpeedsAreTakenIntoAccount)
{
  // Six ranks of 1 Gflop on node 0 (1 Gflop/s); node 1 runs its pstate at 2 Gflop/s. Greedy
  // (each rank where it would finish soonest, ties to the lower node):
  // r0 -> n1 (0.5 s < 1 s), r1 -> n0 (1 = 1), r2 -> n1 (1.5 < 2), r3 -> n1 (1.5 < 2)... giving
  // n0 2 Gflop (2 s) and n1 4 Gflop (2 s): the fast node gets twice the work.
  auto r = loads({1e9, 1e9, 1e9, 1e9, 1e9, 1e9}, {0, 0, 0, 0, 0, 0});
  const std::vector<NodeCapacity> nodes{{1, 1e9}, {1, 2e9}};
  const auto plan = GreedyLB().assign(r, nodes);
  EXPECT_EQ(plan, (std::vector<int>{1, 0, 1, 1, 0, 1}));
  EXPECT_EQ(node_times(r, plan, nodes), (std::vector<double>{2.0, 2.0}));
  // With equal speeds the split would be 3 / 3.
  EXPECT_EQ(node_loads(r, GreedyLB().assign(r, 2), 2), (std::vector<double>{3e9, 3e9}));
  // Twelve-core nodes, one rank each, the slow node's rank heavier: moving it to the fast,
  // idle node halves its time (2 s -> 1 s); on equal nodes nothing would gain.
  auto h = loads({2e9, 1e9}, {0, 1});
  const std::vector<NodeCapacity> big{{12, 1e9}, {12, 2e9}};
  const auto swap = GreedyLB().assign(h, big);
  EXPECT_EQ(swap, (std::vector<int>{1, 1}));
  EXPECT_DOUBLE_EQ(predicted_makespan(h, swap, big), 1.0);
  EXPECT_EQ(GreedyLB().assign(h, std::vector<NodeCapacity>(2, NodeCapacity{12, 1e9})), (std::vector<int>{0, 1}));
}

TEST(NodeCapacity, PlanMustBeatItsMigrations)
{
  // Two ranks of 2 s on one single-core node (4 s); the plan moves rank 1 away: 2 s.
  auto r = loads({2, 2}, {0, 0});
  const std::vector<NodeCapacity> nodes(2);
  const std::vector<int> plan{0, 1};
  auto v = judge_plan(r, plan, nodes, {0, 1.5});
  EXPECT_DOUBLE_EQ(v.makespan_before, 4.0);
  EXPECT_DOUBLE_EQ(v.makespan_after, 2.0);
  EXPECT_DOUBLE_EQ(v.migration_cost, 1.5);
  EXPECT_EQ(v.moves, 1);
  EXPECT_TRUE(v.execute);
  EXPECT_FALSE(judge_plan(r, plan, nodes, {0, 2.0}).execute); // gains exactly its cost: no
  EXPECT_FALSE(judge_plan(r, plan, nodes, {0, 2.5}).execute);
  // Moves leaving the same node share its link: two moves of 1 s out of node 0 cost 2 s; moves
  // between disjoint pairs of nodes overlap (1 s).
  auto four = loads({1, 1, 1, 1}, {0, 0, 2, 3});
  EXPECT_DOUBLE_EQ(migration_cost(four, {1, 2, 2, 3}, {1, 1, 0, 0}, 4), 2.0);
  EXPECT_DOUBLE_EQ(migration_cost(four, {1, 0, 3, 2}, {1, 0, 1, 1}, 4), 2.0);
  EXPECT_DOUBLE_EQ(migration_cost(four, {1, 0, 2, 3}, {1, 0, 0, 0}, 4), 1.0);
  // No move, nothing to execute.
  EXPECT_FALSE(judge_plan(r, {0, 0}, nodes, {0, 0}).execute);
}

TEST(NodeCapacity, GroupsGoWhereTheirRanksAlreadyAre)
{
  // Ranks 0-1 on node 0, 2-3 on node 1, 4-5 on node 2 (equal single cores). A plan that forms
  // the same groups under other node numbers moves nobody once placed. Groups {0, 1, 2} and {3}:
  // the first keeps node 0 (two of its ranks are there), rank 2 joins it, rank 3 stays on node 1.
  auto r = loads({1, 1, 1, 1, 1, 1}, {0, 0, 1, 1, 2, 2});
  const std::vector<NodeCapacity> equal(3);
  EXPECT_EQ(keep_in_place(r, {2, 2, 0, 0, 1, 1}, equal), (std::vector<int>{0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(keep_in_place(r, {1, 1, 1, 0, 2, 2}, equal), (std::vector<int>{0, 0, 0, 1, 2, 2}));
  // Nodes of different capacity are never swapped: the fast node's group stays on it.
  const std::vector<NodeCapacity> mixed{{1, 1}, {1, 2}, {1, 1}};
  EXPECT_EQ(keep_in_place(r, {2, 2, 0, 0, 1, 1}, mixed), (std::vector<int>{0, 0, 2, 2, 1, 1}));
  // A group holding a pinned rank (rank 2, node 1) stays where the plan put it; the others are
  // placed around it: {0, 1} back on node 0, {3, 4} on node 2 (rank 4 stays, rank 3 moves).
  r[2].pinned = true;
  EXPECT_EQ(keep_in_place(r, {2, 2, 1, 0, 0, 1}, equal), (std::vector<int>{0, 0, 1, 2, 2, 1}));
}
