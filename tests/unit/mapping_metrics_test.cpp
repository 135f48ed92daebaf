// Mapping metrics (seed 004 Table 1) on hand-computed examples.
#include "input_error.hpp"
#include "mapping.hpp"
#include "mapping_test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace haec::mapping;
using namespace haec::mapping::test;

namespace {

} // namespace

TEST(MappingMetrics, HandExample)
{
  // 4 ranks on a 3-node line (hops = |dx|), ranks 0,1 on node 0, rank 2 on node 1, rank 3 on node 2.
  CommMatrix m = matrix(4);
  set(m, 0, 1, 5); // node 0 -> 0: intra
  set(m, 1, 0, 3); // intra
  set(m, 1, 1, 7); // to itself: intra
  set(m, 0, 2, 2); // node 0 -> 1, 1 hop
  set(m, 2, 3, 4); // node 1 -> 2, 1 hop
  set(m, 3, 1, 1); // node 2 -> 0, 2 hops
  set(m, 3, 0, 6); // node 2 -> 0, 2 hops
  int asked_same_node = 0;
  auto hops           = [&](int a, int b) {
    asked_same_node += a == b;
    return std::abs(a - b);
  };
  Metrics r = compute_metrics(m, {0, 0, 1, 2}, hops);
  EXPECT_EQ(r.ieplc, 28u);      // 5+3+7+2+4+1+6
  EXPECT_EQ(r.ianlc, 15u);      // 5+3+7
  EXPECT_EQ(r.ienlc, 13u);      // 2+4+1+6
  EXPECT_EQ(r.ienlc_min, 2u);   // pairs {0,1}: 2, {1,2}: 4, {0,2}: 1+6 = 7
  EXPECT_EQ(r.ienlc_max, 7u);
  EXPECT_DOUBLE_EQ(r.ienlc_avg, 13.0 / 3.0);
  EXPECT_EQ(r.message_hops, 20u); // 2*1 + 4*1 + 1*2 + 6*2
  EXPECT_EQ(asked_same_node, 0);
}

// The nonzero cells alone, in another order, give the same figures (a run's own traffic).
TEST(MappingMetrics, SparseCellsEqualTheMatrix)
{
  const std::vector<MessageCount> cells = {{3, 0, 6}, {0, 2, 2}, {1, 1, 7}, {2, 3, 4}, {0, 1, 5}, {3, 1, 1}, {1, 0, 3}};
  CommMatrix m = matrix(4);
  for (auto const& c : cells)
    set(m, c.src, c.dst, c.messages);
  auto hops          = [](int a, int b) { return std::abs(a - b); };
  const Metrics dense = compute_metrics(m, {0, 0, 1, 2}, hops);
  const Metrics sparse = compute_metrics(cells, {0, 0, 1, 2}, hops);
  EXPECT_EQ(sparse.ieplc, 28u);
  EXPECT_EQ(sparse.ianlc, dense.ianlc);
  EXPECT_EQ(sparse.ienlc, dense.ienlc);
  EXPECT_EQ(sparse.ienlc_min, dense.ienlc_min);
  EXPECT_EQ(sparse.ienlc_max, dense.ienlc_max);
  EXPECT_EQ(sparse.ienlc_avg, dense.ienlc_avg);
  EXPECT_EQ(sparse.message_hops, 20u);
  // A cell outside the placement is an error, not a silent skip.
  EXPECT_THROW(compute_metrics(std::vector<MessageCount>{{0, 4, 1}}, {0, 0, 1, 2}, hops), haec::InputError);
}

TEST(MappingMetrics, NoInterNodeTraffic)
{
  CommMatrix m = matrix(2);
  set(m, 0, 1, 4);
  Metrics r = compute_metrics(m, {3, 3}, [](int, int) { return 1; });
  EXPECT_EQ(r.ieplc, 4u);
  EXPECT_EQ(r.ianlc, 4u);
  EXPECT_EQ(r.ienlc, 0u);
  EXPECT_EQ(r.ienlc_min, 0u);
  EXPECT_EQ(r.ienlc_max, 0u);
  EXPECT_EQ(r.ienlc_avg, 0.0);
  EXPECT_EQ(r.message_hops, 0u);
}

TEST(MappingMetrics, Errors)
{
  CommMatrix m = matrix(2);
  set(m, 0, 1, 1);
  EXPECT_THROW(compute_metrics(m, {0}, [](int, int) { return 1; }), haec::InputError);
  EXPECT_THROW(compute_metrics(m, {0, 1}, [](int, int) { return -1; }), haec::InputError);
}

// Seed 004 §4.1 in miniature: a 9x9 5-point stencil (81 ranks, rank = 9y + x, one message each
// way per edge: 144 edges, 288 messages) on the 3x3x3 box. Like lu.C.81 in Table 1, xyz has no
// intra-node message and block xyz keeps a share of them on the node.
TEST(MappingMetrics, StencilXyzVersusBlockXyz)
{
  auto nodes   = grid(3, 3, 3);
  CommMatrix m = matrix(81);
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 9; ++x) {
      int i = 9 * y + x;
      if (x < 8) {
        set(m, i, i + 1, 1);
        set(m, i + 1, i, 1);
      }
      if (y < 8) {
        set(m, i, i + 9, 1);
        set(m, i + 9, i, 1);
      }
    }
  Request req;
  req.ranks = 81;
  Metrics xyz = compute_metrics(m, map_ranks(req, nodes), manhattan(nodes));
  req.strategy  = Strategy::BlockXyz;
  Metrics block = compute_metrics(m, map_ranks(req, nodes), manhattan(nodes));

  // xyz: node = i mod 27 = 9(y mod 3) + x, i.e. node coords (x mod 3, x div 3, y mod 3): neighbours
  // never share a node. Hops: horizontal edges 1 hop, except x = 2->3, 5->6 (3 hops: x wraps 2->0,
  // y+1): per row 6*1 + 2*3 = 12, 9 rows, 2 directions = 216. Vertical edges 1 hop in z, except
  // y = 2->3, 5->6 (z 2->0, 2 hops): per column 6 + 4 = 10, 9 columns, 2 directions = 180.
  EXPECT_EQ(xyz.ieplc, 288u);
  EXPECT_EQ(xyz.ianlc, 0u);
  EXPECT_EQ(xyz.ienlc, 288u);
  EXPECT_EQ(xyz.message_hops, 396u);
  // Node pairs: horizontal edge x->x+1 joins nodes 9(y mod 3)+x, +1; rows with equal y mod 3 share
  // it: 8 * 3 = 24 pairs of 3 rows * 2 = 6 messages. Vertical edges at column x join y mod 3 = 0-1
  // (y = 0,3,6: 6 messages), 1-2 (y = 1,4,7: 6) and 2-0 (y = 2,5: 4): 27 pairs. 51 pairs, 4..6.
  EXPECT_EQ(xyz.ienlc_min, 4u);
  EXPECT_EQ(xyz.ienlc_max, 6u);
  EXPECT_DOUBLE_EQ(xyz.ienlc_avg, 288.0 / 51.0);

  // block xyz: 3 consecutive ranks per node (node = i div 3): in each row of 9, the 3 blocks hold
  // 2 edges each -> 6 of 8 horizontal edges per row are intra-node: 9 * 6 * 2 = 108 messages.
  // Node coords (x div 3, y mod 3, y div 3). Inter-node: 2 horizontal edges/row at 1 hop (36
  // messages); vertical edges 1 hop except y = 2->3, 5->6 (y 2->0, z+1: 3 hops):
  // 2 * 9 * (6*1 + 2*3) = 216; total hops 252. Pairs: 2 horizontal per row (1 edge, 2 messages)
  // = 18, 3 vertical per row transition (3 edges, 6 messages) = 24; 42 pairs, 2..6 messages.
  EXPECT_EQ(block.ieplc, 288u);
  EXPECT_EQ(block.ianlc, 108u);
  EXPECT_EQ(block.ienlc, 180u);
  EXPECT_EQ(block.message_hops, 252u);
  EXPECT_EQ(block.ienlc_min, 2u);
  EXPECT_EQ(block.ienlc_max, 6u);
  EXPECT_DOUBLE_EQ(block.ienlc_avg, 180.0 / 42.0);
  EXPECT_GT(block.ianlc, xyz.ianlc);
  EXPECT_LT(block.message_hops, xyz.message_hops);
}
