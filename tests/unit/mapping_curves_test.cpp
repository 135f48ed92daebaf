// MapLib's oblivious orders: the 4x4x4 orders MapLib published (github.com/unibas-dmi-hpc/MapLib,
// mapping-matters-Mappings/*/cgMAPmesh/*.{peano,gray,hilbert,scan}.mesh.4x4x4.csv: rank r is the
// r-th node, node = x + 4(y + 4z)), and the curves' published properties on other sizes.
#include "input_error.hpp"
#include "mapping.hpp"
#include "mapping_target_support.hpp"
#include "mapping_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

using namespace haec::mapping;
using namespace haec::mapping::test;

namespace {

std::vector<int> order(Strategy s, const std::vector<Node>& nodes)
{
  Request req;
  req.strategy = s;
  req.ranks    = static_cast<int>(nodes.size());
  return map_ranks(req, nodes);
}

int manhattan(const Node& a, const Node& b)
{
  return std::abs(a.coords[0] - b.coords[0]) + std::abs(a.coords[1] - b.coords[1]) + std::abs(a.coords[2] - b.coords[2]);
}

int axes_changed(const Node& a, const Node& b)
{
  return (a.coords[0] != b.coords[0]) + (a.coords[1] != b.coords[1]) + (a.coords[2] != b.coords[2]);
}

bool is_permutation_of_nodes(const std::vector<int>& a, size_t n)
{
  std::set<int> seen(a.begin(), a.end());
  return a.size() == n && seen.size() == n && *seen.begin() == 0 && *seen.rbegin() == static_cast<int>(n) - 1;
}

} // namespace

TEST(MappingCurves, MapLibPublishedOrdersOnFourCubed)
{
  const auto nodes = grid(4, 4, 4);
  const std::vector<int> peano = {0,  1,  4,  5,  16, 17, 20, 21, 2,  3,  6,  7,  18, 19, 22, 23, 8,  9,  12, 13, 24, 25,
                                  28, 29, 10, 11, 14, 15, 26, 27, 30, 31, 32, 33, 36, 37, 48, 49, 52, 53, 34, 35, 38, 39,
                                  50, 51, 54, 55, 40, 41, 44, 45, 56, 57, 60, 61, 42, 43, 46, 47, 58, 59, 62, 63};
  const std::vector<int> gray = {0,  1,  17, 16, 20, 21, 5,  4,  7,  6,  22, 23, 19, 18, 2,  3,  51, 50, 34, 35, 39, 38,
                                 54, 55, 52, 53, 37, 36, 32, 33, 49, 48, 60, 61, 45, 44, 40, 41, 57, 56, 59, 58, 42, 43,
                                 47, 46, 62, 63, 15, 14, 30, 31, 27, 26, 10, 11, 8,  9,  25, 24, 28, 29, 13, 12};
  const std::vector<int> hilbert = {0,  1,  17, 16, 20, 21, 5,  4,  8,  24, 28, 12, 13, 29, 25, 9,  10, 26, 30, 14, 15, 31,
                                    27, 11, 7,  3,  2,  6,  22, 18, 19, 23, 39, 35, 34, 38, 54, 50, 51, 55, 59, 43, 47, 63,
                                    62, 46, 42, 58, 57, 41, 45, 61, 60, 44, 40, 56, 52, 53, 37, 36, 32, 33, 49, 48};
  const std::vector<int> scan = {0,  1,  2,  3,  7,  6,  5,  4,  8,  9,  10, 11, 15, 14, 13, 12, 28, 29, 30, 31, 27, 26,
                                 25, 24, 20, 21, 22, 23, 19, 18, 17, 16, 32, 33, 34, 35, 39, 38, 37, 36, 40, 41, 42, 43,
                                 47, 46, 45, 44, 60, 61, 62, 63, 59, 58, 57, 56, 52, 53, 54, 55, 51, 50, 49, 48};
  EXPECT_EQ(order(Strategy::Peano, nodes), peano);
  EXPECT_EQ(order(Strategy::Gray, nodes), gray);
  EXPECT_EQ(order(Strategy::Hilbert, nodes), hilbert);
  EXPECT_EQ(order(Strategy::Scan, nodes), scan);
  EXPECT_EQ(order(Strategy::Sweep, nodes), order(Strategy::Xyz, nodes)); // MapLib's sweep is x fastest
}

TEST(MappingCurves, HilbertIsContinuousAndFillsSubcubes)
{
  for (int side : {2, 4, 8, 16}) {
    const auto nodes = grid(side, side, side);
    const auto h     = order(Strategy::Hilbert, nodes);
    ASSERT_TRUE(is_permutation_of_nodes(h, nodes.size()));
    for (size_t i = 1; i < h.size(); ++i)
      ASSERT_EQ(manhattan(nodes[h[i - 1]], nodes[h[i]]), 1) << "side " << side << " position " << i;
    // Locality: every aligned run of 8 consecutive positions fills a 2x2x2 cube.
    for (size_t b = 0; b < h.size(); b += 8) {
      std::set<std::array<int, 3>> corner;
      for (size_t i = b; i < b + 8; ++i)
        corner.insert({nodes[h[i]].coords[0] / 2, nodes[h[i]].coords[1] / 2, nodes[h[i]].coords[2] / 2});
      EXPECT_EQ(corner.size(), 1u) << "side " << side << " run " << b;
    }
  }
}

TEST(MappingCurves, PeanoIsMortonOrder)
{
  // MapLib's Peano: bits of x, y, z interleaved (x least significant) give the position.
  const auto nodes = grid(8, 8, 8);
  const auto p     = order(Strategy::Peano, nodes);
  for (size_t pos = 0; pos < p.size(); ++pos) {
    std::array<int, 3> c{};
    for (int bit = 0; bit < 3; ++bit)
      for (int axis = 0; axis < 3; ++axis)
        c[static_cast<size_t>(axis)] |= static_cast<int>((pos >> (3 * bit + axis)) & 1) << bit;
    EXPECT_EQ(nodes[p[pos]].coords, c) << "position " << pos;
  }
}

TEST(MappingCurves, GrayChangesOneCoordinateAtATime)
{
  for (int side : {2, 4, 8}) {
    const auto nodes = grid(side, side, side);
    const auto g     = order(Strategy::Gray, nodes);
    ASSERT_TRUE(is_permutation_of_nodes(g, nodes.size()));
    for (size_t i = 1; i < g.size(); ++i)
      EXPECT_EQ(axes_changed(nodes[g[i - 1]], nodes[g[i]]), 1) << "side " << side << " position " << i;
  }
}

TEST(MappingCurves, ScanSnakesThroughAnyBox)
{
  const auto nodes = grid(3, 5, 2);
  const auto s     = order(Strategy::Scan, nodes);
  ASSERT_TRUE(is_permutation_of_nodes(s, nodes.size()));
  for (size_t i = 1; i < s.size(); ++i)
    EXPECT_EQ(manhattan(nodes[s[i - 1]], nodes[s[i]]), 1) << "position " << i;
  EXPECT_EQ(s[0], 0);
  EXPECT_EQ(s[3], 5); // the second row runs back: (2,1,0)
}

TEST(MappingCurves, AnyBoxSizeKeepsTheCubesOrder)
{
  // 3x3x3 (the seed-004 box) and 5x3x2: the order of the enclosing 2^k cube, restricted to nodes.
  for (auto dims : {std::array<int, 3>{3, 3, 3}, std::array<int, 3>{5, 3, 2}, std::array<int, 3>{16, 1, 1}})
    for (Strategy s : {Strategy::Peano, Strategy::Gray, Strategy::Hilbert, Strategy::Sweep, Strategy::Scan}) {
      const auto nodes = grid(dims[0], dims[1], dims[2]);
      const auto o     = order(s, nodes);
      EXPECT_TRUE(is_permutation_of_nodes(o, nodes.size())) << strategy_name(s);
    }
  const auto cube = grid(4, 4, 4), box = grid(3, 3, 3);
  const auto h4 = order(Strategy::Hilbert, cube), h3 = order(Strategy::Hilbert, box);
  std::vector<int> kept; // the 4x4x4 order's cells with every coordinate < 3, as 3x3x3 indices
  for (int n : h4)
    if (cube[n].coords[0] < 3 && cube[n].coords[1] < 3 && cube[n].coords[2] < 3)
      kept.push_back(cube[n].coords[0] + 3 * (cube[n].coords[1] + 3 * cube[n].coords[2]));
  EXPECT_EQ(h3, kept);
}

TEST(MappingCurves, MoreRanksThanNodesGoRoundRobin)
{
  const auto nodes = grid(2, 2, 2);
  Request req;
  req.strategy = Strategy::Hilbert;
  req.ranks    = 20;
  const auto a = map_ranks(req, nodes);
  const auto o = order(Strategy::Hilbert, nodes);
  for (int r = 0; r < 20; ++r)
    EXPECT_EQ(a[r], o[r % 8]);
}

TEST(MappingCurves, NoMatrixNeeded)
{
  for (Strategy s : {Strategy::Sweep, Strategy::Scan, Strategy::Peano, Strategy::Hilbert, Strategy::Gray})
    EXPECT_FALSE(needs_matrix(s)) << strategy_name(s);
}
