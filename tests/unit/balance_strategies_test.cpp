// Load-balancing strategies (plugins/balance/model): hand-computed assignments.
#include "input_error.hpp"
#include "balance_strategies.hpp"

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
} // namespace

TEST(GreedyLB, HeaviestFirstToLeastLoaded)
{
  // 6 ranks on 2 nodes, all on node 0: loads 5 4 3 3 2 1 -> greedy: 5->n0, 4->n1, 3(r2)->n1 (4<5),
  // 3(r3)->n0 (5<7), 2->n1 (7<8? n1=7, n0=8) -> n1, 1 -> n0 (8 vs 9).
  auto r  = loads({5, 4, 3, 3, 2, 1}, {0, 0, 0, 0, 0, 0});
  auto to = GreedyLB().assign(r, 2);
  EXPECT_EQ(to, (std::vector<int>{0, 1, 1, 0, 1, 0}));
  auto nl = node_loads(r, to, 2);
  EXPECT_EQ(nl, (std::vector<double>{9, 9}));
  EXPECT_DOUBLE_EQ(imbalance(nl), 1.0);
  EXPECT_DOUBLE_EQ(imbalance(node_loads(r, {0, 0, 0, 0, 0, 0}, 2)), 2.0);
}

TEST(GreedyLB, KeepsRanksWhenMovingDoesNotHelpAndHonoursPins)
{
  // Already balanced: nobody moves.
  auto r = loads({2, 2, 2, 2}, {0, 1, 0, 1});
  EXPECT_EQ(GreedyLB().assign(r, 2), (std::vector<int>{0, 1, 0, 1}));
  // A pinned heavy rank stays; the others fill around it.
  auto p    = loads({6, 3, 3}, {1, 1, 1});
  p[0].pinned = true;
  EXPECT_EQ(GreedyLB().assign(p, 2), (std::vector<int>{1, 0, 0}));
}

TEST(RefineLB, MovesOnlyFromOverloadedNodes)
{
  // Node loads 10 / 4 / 4 (mean 6, limit 6.3): move the heaviest rank of node 0 that fits under
  // the limit on node 1: 4 doesn't (4+4=8), 2 does -> node loads 8/6/4; then node 0 (8) again:
  // receiver node 2 (4): rank of 4 doesn't fit (8), the other 2 fits -> 6/6/6.
  auto r  = loads({4, 2, 2, 2, 2, 2, 2}, {0, 0, 0, 0, 1, 1, 2});
  r[6].load = 4;
  auto to = RefineLB(1.05).assign(r, 3);
  auto nl = node_loads(r, to, 3);
  EXPECT_EQ(nl, (std::vector<double>{6, 6, 6}));
  EXPECT_EQ(to[0], 0); // the heavy rank never moved
  int moved = 0;
  for (size_t i = 0; i < r.size(); ++i)
    moved += to[i] != r[i].node;
  EXPECT_EQ(moved, 2);
  // Within tolerance: nothing moves.
  auto ok = loads({3, 3.1}, {0, 1});
  EXPECT_EQ(RefineLB(1.05).assign(ok, 2), (std::vector<int>{0, 1}));
}

TEST(Balance, FactoryAndBadInput)
{
  EXPECT_EQ(make_strategy("greedy", 1.05, "--balance")->name(), "greedy");
  EXPECT_EQ(make_strategy("refine", 1.2, "--balance")->name(), "refine");
  try {
    make_strategy("rotate", 1.05, "--balance");
    FAIL();
  } catch (const haec::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("use greedy or refine"), std::string::npos);
  }
  EXPECT_THROW(make_strategy("refine", 0.9, "--balance"), haec::InputError);
}
