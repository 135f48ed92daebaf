// min-md placements worked out by hand (rules in libs/mapping/README.md):
// pairs by decreasing messages (both directions), ties by (a, b); partner placed -> nearest free
// node to the partner (Manhattan on coords, lowest index on ties); none placed -> first rank nearest
// the origin, second nearest the first; rounds of capacity 1, 2, ... (round-robin); silent ranks last.
#include "input_error.hpp"
#include "mapping.hpp"
#include "mapping_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

using namespace haec::mapping;
using namespace haec::mapping::test;

namespace {

std::vector<int> min_md(const CommMatrix& m, const std::vector<Node>& nodes)
{
  Request req;
  req.strategy = Strategy::MinMd;
  req.ranks    = m.ranks;
  req.matrix   = &m;
  return map_ranks(req, nodes);
}

// 2-D 5-point stencil (non-periodic) of W x H ranks, rank = y*W + x, one message each way per edge.
CommMatrix stencil(int W, int H)
{
  CommMatrix m = matrix(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      int i = y * W + x;
      if (x + 1 < W) {
        set(m, i, i + 1, 1);
        set(m, i + 1, i, 1);
      }
      if (y + 1 < H) {
        set(m, i, i + W, 1);
        set(m, i + W, i, 1);
      }
    }
  return m;
}

} // namespace

TEST(MappingMinMd, RingOnThreeByThree)
{
  // 3x3x1 grid, node index = x + 3y. Ring 0-1-2-3-4-5-0, weights (both directions summed):
  // {0,1}=20 {1,2}=18 {2,3}=16 {3,4}=14 {4,5}=12 {0,5}=10.
  auto nodes = grid(3, 3, 1);
  CommMatrix m = matrix(6);
  const int w[6][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}};
  const uint64_t k[6] = {10, 9, 8, 7, 6, 5}; // each direction; pair weight = 2k
  for (int e = 0; e < 6; ++e) {
    set(m, w[e][0], w[e][1], k[e]);
    set(m, w[e][1], w[e][0], k[e]);
  }
  // {0,1}: none placed: 0 -> origin node 0 (0,0); 1 -> distance 1 from node 0: nodes 1 (1,0) and
  //        3 (0,1), lowest index -> node 1.
  // {1,2}: 2 next to node 1: free at distance 1 are 2 (2,0) and 4 (1,1) -> node 2.
  // {2,3}: 3 next to node 2 (2,0): free at distance 1 is only 5 (2,1) -> node 5.
  // {3,4}: 4 next to node 5 (2,1): 4 (1,1) and 8 (2,2) -> node 4.
  // {4,5}: 5 next to node 4 (1,1): 3 (0,1) and 7 (1,2) -> node 3.
  // {0,5}: both placed. Every ring edge now spans one hop.
  auto a = min_md(m, nodes);
  EXPECT_EQ(a, (std::vector<int>{0, 1, 2, 5, 4, 3}));
  auto mm = compute_metrics(m, a, manhattan(nodes));
  EXPECT_EQ(mm.message_hops, 90u); // 2*(10+9+8+7+6+5) messages x 1 hop
  // xyz puts 3 on (0,1) and 5 on (2,1): {2,3} and {0,5} take 3 hops: 64 + 16*3 + 10*3 = 142.
  Request xyz;
  xyz.ranks = 6;
  EXPECT_EQ(compute_metrics(m, map_ranks(xyz, nodes), manhattan(nodes)).message_hops, 142u);
}

TEST(MappingMinMd, StarWidensTheRadius)
{
  // Rank 0 talks to 1..4 with weights 40, 30, 20, 10 on the 3x3x1 grid.
  // {0,1}: 0 -> node 0, 1 -> node 1 (1,0).  {0,2}: 2 -> node 3 (0,1), the other distance-1 node.
  // {0,3}: no free node at distance 1 of node 0; radius 2: nodes 2 (2,0), 4 (1,1), 6 (0,2) -> 2.
  // {0,4}: radius 2 again: 4 (1,1) -> node 4.
  auto nodes = grid(3, 3, 1);
  CommMatrix m = matrix(5);
  set(m, 0, 1, 40);
  set(m, 2, 0, 30); // direction does not matter
  set(m, 0, 3, 15);
  set(m, 3, 0, 5);
  set(m, 4, 0, 10);
  EXPECT_EQ(min_md(m, nodes), (std::vector<int>{0, 1, 3, 2, 4}));
}

TEST(MappingMinMd, RoundRobinRoundsAndSilentRanks)
{
  // 3x1x1 line (nodes 0,1,2 at x = 0,1,2); 6 ranks; {0,1}=50, {2,3}=40, {1,2}=30, {3,4}=20;
  // rank 5 never communicates.
  // {0,1}: 0 -> node 0, 1 -> node 1.
  // {2,3}: 2 -> free node nearest the origin: node 2. 3 -> no node is free in round 1, so round 2
  //        starts (capacity 2); nearest to node 2 is node 2 itself (radius 0) -> node 2.
  // {1,2}: both placed.  {3,4}: 4 near node 2 (full): radius 1 -> node 1.
  // rank 5: lowest-index free node: node 0.
  auto nodes = grid(3, 1, 1);
  CommMatrix m = matrix(6);
  set(m, 0, 1, 50);
  set(m, 2, 3, 40);
  set(m, 1, 2, 30);
  set(m, 3, 4, 20);
  EXPECT_EQ(min_md(m, nodes), (std::vector<int>{0, 1, 2, 2, 1, 0}));
}

TEST(MappingMinMd, TiesGoByRankPairAndSilentRanksFillInXyzOrder)
{
  // 2x2x1 grid: nodes 0 (0,0), 1 (1,0), 2 (0,1), 3 (1,1). Pairs {2,3} and {0,3} both weigh 2;
  // (0,3) < (2,3), so {0,3} is first: 0 -> node 0, 3 -> node 1. {2,3}: 2 next to node 1: node 3.
  // Rank 1 is silent: lowest free node -> node 2. Ranks 4, 5 silent: round 2 -> nodes 0, 1.
  auto nodes = grid(2, 2, 1);
  CommMatrix m = matrix(6);
  set(m, 2, 3, 2);
  set(m, 0, 3, 1);
  set(m, 3, 0, 1);
  set(m, 1, 1, 99); // messages to itself do not make a pair
  EXPECT_EQ(min_md(m, nodes), (std::vector<int>{0, 2, 3, 1, 0, 1}));
}

TEST(MappingMinMd, StencilOnHaecBoxEightyOneTwentySevenThirty)
{
  // Whole-mapping numbers below were cross-checked against an independent Python implementation
  // of the same rules (identical assignments). min-md is greedy, not optimal: for the 9x3 stencil
  // xyz folds each row of 9 onto one 3x3 board and is 2 hops better.
  struct Case {
    int W, H;
    uint64_t ianlc, ienlc, hops, xyz_hops;
  } cases[] = {{9, 9, 36, 252, 334, 396}, {9, 3, 0, 84, 110, 108}, {6, 5, 6, 92, 130, 182}};
  auto nodes = grid(3, 3, 3);
  Request xyz;
  for (const Case& c : cases) {
    CommMatrix m = stencil(c.W, c.H);
    auto a       = min_md(m, nodes);
    ASSERT_EQ(a.size(), static_cast<size_t>(c.W * c.H));
    // Rounds keep loads within one of each other.
    std::vector<int> load(27, 0);
    for (int n : a)
      ++load.at(n);
    int lo = *std::min_element(load.begin(), load.end()), hi = *std::max_element(load.begin(), load.end());
    EXPECT_LE(hi - lo, 1) << c.W << "x" << c.H;
    xyz.ranks = c.W * c.H;
    auto mx   = compute_metrics(m, map_ranks(xyz, nodes), manhattan(nodes));
    auto mm   = compute_metrics(m, a, manhattan(nodes));
    EXPECT_EQ(mm.ianlc, c.ianlc) << c.W << "x" << c.H;
    EXPECT_EQ(mm.ienlc, c.ienlc) << c.W << "x" << c.H;
    EXPECT_EQ(mm.message_hops, c.hops) << c.W << "x" << c.H;
    EXPECT_EQ(mx.message_hops, c.xyz_hops) << c.W << "x" << c.H;
  }
  // First placements of the 9x9 stencil (all pairs weigh 2, so (a,b) order decides):
  // {0,1}: 0 -> node 0, 1 -> node 1 (1,0,0). {0,9}: 9 -> node 3 (0,1,0). {1,2}: 2 next to node 1 ->
  // node 2. {1,10}: 10 -> node 4 (1,1,0). {2,3}: 3 next to node 2 (2,0,0): node 5 (2,1,0).
  // {2,11}: 11 next to node 2: node 11 (2,0,1).
  auto a = min_md(stencil(9, 9), nodes);
  EXPECT_EQ(a[0], 0);
  EXPECT_EQ(a[1], 1);
  EXPECT_EQ(a[9], 3);
  EXPECT_EQ(a[2], 2);
  EXPECT_EQ(a[10], 4);
  EXPECT_EQ(a[3], 5);
  EXPECT_EQ(a[11], 11);
}

TEST(MappingMinMd, NeedsMatchingMatrix)
{
  auto nodes   = grid(2, 1, 1);
  CommMatrix m = matrix(3);
  m.messages.resize(4); // not 3x3
  Request req;
  req.strategy = Strategy::MinMd;
  req.ranks    = 3;
  req.matrix   = &m;
  EXPECT_THROW(map_ranks(req, nodes), haec::InputError);
}
