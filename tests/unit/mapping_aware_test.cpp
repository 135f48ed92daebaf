// MapLib's communication-aware strategies: placements worked out by hand on a line of 4 nodes
// (mesh:4x1x1; central node 1), and properties every strategy must have.
// The hand case: pairs {0,3} 100 B, {3,1} 50 B, {1,2} 10 B each way, so graph weights 200, 100,
// 20 and weighted degrees r0 200, r1 120, r2 20, r3 300. Rules: libs/mapping/README.md.
#include "input_error.hpp"
#include "mapping.hpp"
#include "mapping_metrics.hpp"
#include "mapping_target_support.hpp"
#include "mapping_test_support.hpp"

#include <gtest/gtest.h>

using namespace haec::mapping;
using namespace haec::mapping::test;

namespace {

const Strategy kAware[] = {Strategy::Bokhari,    Strategy::TopoAware,   Strategy::Greedy, Strategy::FhGreedy,
                           Strategy::GreedyAllC, Strategy::Bipartition, Strategy::PaCMap};

CommMatrix chain()
{
  CommMatrix m = matrix(4);
  both(m, 0, 3, 1, 100);
  both(m, 3, 1, 1, 50);
  both(m, 1, 2, 1, 10);
  return m;
}

std::vector<int> place(Strategy s, const CommMatrix& m, const Target& t, int ranks = -1)
{
  Request req;
  req.strategy = s;
  req.ranks    = ranks < 0 ? m.ranks : ranks;
  req.matrix   = &m;
  req.target   = &t;
  return map_ranks(req, t.nodes);
}

} // namespace

TEST(MappingAware, GreedyHandCase)
{
  // r3 (heaviest) on the central node 1; edge 3-0 puts r0 on the nearest free node (0 before 2);
  // edge 3-1 puts r1 on node 2; edge 1-2 puts r2 on node 3.
  auto mc = machine("mesh:4x1x1");
  EXPECT_EQ(place(Strategy::Greedy, chain(), mc.target), (std::vector<int>{0, 2, 3, 1}));
}

TEST(MappingAware, GreedyAllCHandCase)
{
  // r3 -> most central node 1; r0 (200 to r3) -> node 0 (1 hop, lowest); r1 (100) -> node 2; r2 -> 3.
  auto mc = machine("mesh:4x1x1");
  EXPECT_EQ(place(Strategy::GreedyAllC, chain(), mc.target), (std::vector<int>{0, 2, 3, 1}));
}

TEST(MappingAware, FhGreedyHandCase)
{
  auto mc = machine("mesh:4x1x1");
  EXPECT_EQ(place(Strategy::FhGreedy, chain(), mc.target), (std::vector<int>{0, 2, 3, 1}));
}

TEST(MappingAware, PaCMapHandCase)
{
  // Densest node (radius floor(4^(1/3)) + 1 = 2): nodes 1 and 2 (1 + 1 + 1/8), node 1 first. Graph
  // center: the path 0-3-1-2 has eccentricities 3, 2, 3, 2 (r0..r3), r1 first. Then r3 (100 to r1)
  // -> node 0, r0 (200 to r3) -> node 2, r2 -> node 3.
  auto mc = machine("mesh:4x1x1");
  EXPECT_EQ(place(Strategy::PaCMap, chain(), mc.target), (std::vector<int>{2, 1, 3, 0}));
}

TEST(MappingAware, TopoAwareHandCase)
{
  // Step 1: every criticality 0: r0 on the first node 0. Step 2: r3's f = 200 x hops to node 0 over
  // free nodes 1..3 = 200, 400, 600: criticality 400 - 200 > 0: r3 on node 1. Step 3: r1's f =
  // 100 x hops to node 1 over nodes 2, 3: r1 on node 2. Step 4: r2 on node 3.
  auto mc = machine("mesh:4x1x1");
  EXPECT_EQ(place(Strategy::TopoAware, chain(), mc.target), (std::vector<int>{0, 2, 3, 1}));
}

TEST(MappingAware, BipartitionHandCase)
{
  // Nodes {0,1} | {2,3}; ranks: grown from the peripheral rank 2 (r1 joins): {1,2} | {0,3} (cut 100,
  // no positive exchange). Then {1,2} on {0} | {1}: grown from r2 -> r2 on 0, r1 on 1; {0,3} on
  // {2} | {3}: grown from r3 -> r3 on 2, r0 on 3. Every pair ends one hop apart.
  auto mc = machine("mesh:4x1x1");
  EXPECT_EQ(place(Strategy::Bipartition, chain(), mc.target), (std::vector<int>{3, 1, 0, 2}));
}

TEST(MappingAware, BokhariHandCase)
{
  // From sweep (cardinality 1: only 1-2 adjacent): r0 <-> r2 (gain 1, first of two), then r3 <->
  // r0 (gain 1): all three edges adjacent (cardinality 3), which no jump beats.
  auto mc = machine("mesh:4x1x1");
  EXPECT_EQ(place(Strategy::Bokhari, chain(), mc.target), (std::vector<int>{3, 1, 0, 2}));
}

TEST(MappingAware, ValidDeterministicAndWithinCapacity)
{
  auto mc = machine("haec-box:3x3x3");
  for (int ranks : {10, 27, 60}) {
    CommMatrix m = matrix(ranks);
    for (int r = 0; r < ranks; ++r) { // a ring plus long chords, unequal weights
      both(m, r, (r + 1) % ranks, 2, 1000 + 10 * r);
      both(m, r, (r * 7 + 3) % ranks, 1, 300);
    }
    const int capacity = (ranks + 26) / 27;
    for (Strategy s : kAware) {
      const auto a = place(s, m, mc.target);
      ASSERT_EQ(a.size(), static_cast<size_t>(ranks)) << strategy_name(s);
      std::vector<int> load(27, 0);
      for (int n : a) {
        ASSERT_GE(n, 0);
        ASSERT_LT(n, 27);
        ++load[n];
      }
      for (int l : load)
        EXPECT_LE(l, capacity) << strategy_name(s) << " with " << ranks << " ranks";
      EXPECT_EQ(place(s, m, mc.target), a) << strategy_name(s) << " is not deterministic";
    }
  }
}

TEST(MappingAware, StencilOnItsOwnShapeHasDilationOne)
{
  // A 4x4x4 7-point stencil on a 4x4x4 mesh: the optimum puts every pair one hop apart
  // (hop-bytes = bytes). Topo-aware and Bokhari find it from their starts.
  auto mc            = machine("mesh:4x4x4");
  const CommMatrix m = stencil3d(4, 4, 4, 1000);
  for (Strategy s : {Strategy::TopoAware, Strategy::Bokhari}) {
    const auto metrics = compute_mapping_metrics(m, place(s, m, mc.target), mc.target);
    EXPECT_EQ(*metrics.hop_bytes, *metrics.total_bytes) << strategy_name(s);
    EXPECT_EQ(*metrics.max_dilation, 1) << strategy_name(s);
  }
}

TEST(MappingAware, NeedMatrixAndTarget)
{
  auto mc      = machine("mesh:2x2x2");
  CommMatrix m = matrix(8);
  for (Strategy s : kAware) {
    Request req;
    req.strategy = s;
    req.ranks    = 8;
    req.target   = &mc.target;
    EXPECT_THROW(map_ranks(req, mc.target.nodes), haec::InputError) << strategy_name(s); // no matrix
    req.matrix = &m;
    req.target = nullptr;
    EXPECT_THROW(map_ranks(req, mc.target.nodes), haec::InputError) << strategy_name(s); // no target
    req.target = &mc.target;
    req.ranks  = 9;
    EXPECT_THROW(map_ranks(req, mc.target.nodes), haec::InputError) << strategy_name(s); // 8x8 matrix
  }
}

TEST(MappingAware, QuadraticOnesDeclineHugeInputs)
{
  auto mc      = machine("torus:16x16x16");
  CommMatrix m = matrix(4096);
  for (int r = 0; r < 4096; ++r)
    for (int k = 1; k <= 80; ++k) // up to 160 partners each: 2E x N > 2^31 row updates
      both(m, r, (r + k * 61) % 4096, 1, 8);
  try {
    place(Strategy::TopoAware, m, mc.target);
    FAIL() << "no exception";
  } catch (const haec::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("row updates"), std::string::npos) << e.what();
  }
  try {
    place(Strategy::Bokhari, m, mc.target);
    FAIL() << "no exception";
  } catch (const haec::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("limit 2048"), std::string::npos) << e.what();
  }
}
