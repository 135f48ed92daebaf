// MARS's topologies (seed 003 §2.2, §2.7): fat-tree specs and hop counts, hierarchical links and
// shortest routes, each against values worked out by hand in the comments.
#include "fat_tree.hpp"
#include "input_error.hpp"
#include "platform_spec.hpp"
#include "topology.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace haec::platform;

namespace {

Topology make(const std::string& spec)
{
  return Topology(parse_spec(spec));
}

std::vector<std::string> route_names(const Topology& t, uint32_t a, uint32_t b)
{
  std::vector<uint32_t> ids;
  t.route(a, b, ids);
  std::vector<std::string> names;
  for (uint32_t id : ids)
    names.push_back(t.link_name(id));
  return names;
}

} // namespace

TEST(PlatformMars, FatTreeSpecParsesSimGridsString)
{
  auto s = parse_spec("fat-tree:2;4,4;1,2;1,2,reduce=25,cores=4");
  EXPECT_EQ(s.kind, Kind::FatTree);
  EXPECT_EQ(s.fat_tree.levels, 2);
  EXPECT_EQ(s.fat_tree.down, (std::vector<int>{4, 4}));
  EXPECT_EQ(s.fat_tree.up, (std::vector<int>{1, 2}));
  EXPECT_EQ(s.fat_tree.parallel, (std::vector<int>{1, 2}));
  EXPECT_EQ(s.fat_tree.reduce_percent, 25);
  EXPECT_EQ(s.node.cores, 4);
  EXPECT_EQ(s.dims, (std::array<int, 3>{16, 1, 1})); // 4 * 4 nodes
  EXPECT_EQ(fat_tree_text(s.fat_tree), "2;4,4;1,2;1,2");
  EXPECT_FALSE(s.node.wattage_per_state.empty()); // the default node power profile, as mesh/torus
}

TEST(PlatformMars, FatTreeCountsByHand)
{
  // 2;4,4;1,2;1,2: 16 nodes; level 1: 1*4 = 4 switches, 16 node cables (1 up, 1 parallel each);
  // level 2: 1*2 = 2 switches, 4 switches * 2 up * 2 parallel = 16 cables; 32 cables, 64 simplex.
  auto s = parse_spec("fat-tree:2;4,4;1,2;1,2");
  EXPECT_EQ(fat_tree_nodes(s.fat_tree), 16);
  EXPECT_EQ(fat_tree_switches(s.fat_tree, 1), 4);
  EXPECT_EQ(fat_tree_switches(s.fat_tree, 2), 2);
  EXPECT_EQ(directed_link_count(s), 64);
  // 2 levels of 16-port switches (8 down, 8 up): 64 nodes, 8 + 8 switches, 2*(64 + 64) links.
  auto k = parse_spec("fat-tree:2;8,8;1,8;1,1");
  EXPECT_EQ(fat_tree_nodes(k.fat_tree), 64);
  EXPECT_EQ(fat_tree_switches(k.fat_tree, 1), 8);
  EXPECT_EQ(fat_tree_switches(k.fat_tree, 2), 8);
  EXPECT_EQ(directed_link_count(k), 256);
}

TEST(PlatformMars, FatTreeHopsByHand)
{
  auto t = make("fat-tree:3;2,3,4;1,2,2;1,1,1"); // 24 nodes: groups of 2 (level 1), 6 (level 2)
  EXPECT_EQ(t.dor_distance(0, 0), 0);
  EXPECT_EQ(t.dor_distance(0, 1), 2);   // same leaf switch: up, down
  EXPECT_EQ(t.dor_distance(0, 2), 4);   // 0/2 != 2/2 but 0/6 == 2/6
  EXPECT_EQ(t.dor_distance(5, 4), 2);   // 5/2 == 4/2
  EXPECT_EQ(t.dor_distance(5, 6), 6);   // 5/6 != 6/6: up to the top
  EXPECT_EQ(t.dor_distance(23, 0), 6);
  EXPECT_EQ(t.host_name(7), "node-7");
  EXPECT_THROW({ std::vector<uint32_t> r; t.route(0, 1, r); }, std::logic_error);
}

TEST(PlatformMars, FatTreeReducePerLevel)
{
  auto s = parse_spec("fat-tree:3;2,2,2;1,2,2;1,1,1,reduce=50,link-bw=8GBps");
  EXPECT_DOUBLE_EQ(fat_tree_level_bandwidth(s.fat_tree, s.link_types[0].bandwidth, 1), 8e9);
  EXPECT_DOUBLE_EQ(fat_tree_level_bandwidth(s.fat_tree, s.link_types[0].bandwidth, 2), 4e9);
  EXPECT_DOUBLE_EQ(fat_tree_level_bandwidth(s.fat_tree, s.link_types[0].bandwidth, 3), 2e9);
}

TEST(PlatformMars, FatTreeBadInput)
{
  for (const char* bad : {"fat-tree:2;4,4;1;1,2", "fat-tree:2;4,4;1,2", "fat-tree:0;;;", "fat-tree:2;4,0;1,2;1,2",
                          "fat-tree:2;4,-4;1,2;1,2", "fat-tree:2;4,4;1,2;1,2,reduce=100",
                          "fat-tree:2;4,4;1,2;1,2,reduce=-5", "fat-tree:2;4,4;1,2;1,2,l3=2",
                          "fat-tree:9;2,2,2,2,2,2,2,2,2;1,1,1,1,1,1,1,1,1;1,1,1,1,1,1,1,1,1",
                          "fat-tree:2;65536,65536;1,1;1,1", "torus:2x2x2,reduce=25"})
    EXPECT_THROW(parse_spec(bad), haec::InputError) << bad;
}

TEST(PlatformMars, FatTreeJsonRoundTrip)
{
  auto s = parse_spec("fat-tree:2;4,4;1,2;1,2,reduce=25");
  auto back = from_json(to_json(s), "test");
  EXPECT_EQ(back.fat_tree.down, s.fat_tree.down);
  EXPECT_EQ(back.fat_tree.parallel, s.fat_tree.parallel);
  EXPECT_EQ(back.fat_tree.reduce_percent, 25);
  EXPECT_EQ(back.dims, s.dims);
}

TEST(PlatformMars, HierarchicalLinksByHand)
{
  // 3 switches per board, 2 boards per rack, 3 racks, l3=2: level 1: 6 boards * 3*2 = 36 simplex;
  // level 2: 3 racks * 1 board pair * 2 = 6; level 3: 3 rack pairs * 2 cables * 2 = 12.
  auto t = make("hierarchical:3x2x3,l3=2");
  int per_level[3] = {0, 0, 0};
  for (auto const& l : t.links())
    ++per_level[l.type];
  EXPECT_EQ(per_level[0], 36);
  EXPECT_EQ(per_level[1], 6);
  EXPECT_EQ(per_level[2], 12);
  EXPECT_EQ(directed_link_count(t.spec()), 54);
}

TEST(PlatformMars, HierarchicalRoutesByHand)
{
  // 2x2x2: node id = s + 2 (b + 2 r). Board 0 and 1 of a rack meet through their switch 0; rack 0
  // and 1 through switch 0 of board 0 (ids 0 and 4). (1,1,0) -> (1,1,1): l1 to (0,1,0), l2 to
  // (0,0,0), l3 to (0,0,1), l2 to (0,1,1), l1 to (1,1,1): 5 hops.
  auto t = make("hierarchical:2x2x2");
  const uint32_t a = t.node_at(1, 1, 0), b = t.node_at(1, 1, 1);
  EXPECT_EQ(t.dor_distance(a, b), 5);
  EXPECT_EQ(route_names(t, a, b), (std::vector<std::string>{"l1-3-2", "l2-2-0", "l3-0-4-0", "l2-4-6", "l1-6-7"}));
  EXPECT_EQ(t.dor_distance(t.node_at(0, 0, 0), t.node_at(1, 0, 0)), 1); // same board
  EXPECT_EQ(t.dor_distance(t.node_at(0, 0, 0), t.node_at(0, 1, 0)), 1); // the l2 cable
  EXPECT_EQ(t.dor_distance(t.node_at(1, 0, 0), t.node_at(1, 1, 0)), 3); // l1, l2, l1
  EXPECT_EQ(t.dor_distance(t.node_at(0, 0, 0), t.node_at(0, 0, 1)), 1); // the l3 cable
  EXPECT_EQ(t.host_name(7), "node-1-1-1");
}

TEST(PlatformMars, HierarchicalParallelL3ShortensRoutes)
{
  // 2x2x2 with l3=2: the second rack-pair cable joins switch 1 of board 0 (ids 1 and 5), so
  // (1,0,0) -> (1,0,1) takes 1 hop instead of l1, l3, l1.
  auto one = make("hierarchical:2x2x2"), two = make("hierarchical:2x2x2,l3=2");
  EXPECT_EQ(one.dor_distance(1, 5), 3);
  EXPECT_EQ(two.dor_distance(1, 5), 1);
  EXPECT_EQ(route_names(two, 1, 5), (std::vector<std::string>{"l3-1-5-1"}));
}

TEST(PlatformMars, HierarchicalRoutesAreShortestAndConnected)
{
  auto t = make("hierarchical:3x3x4,l3=2");
  std::vector<uint32_t> ids;
  for (uint32_t s = 0; s < t.num_nodes(); ++s)
    for (uint32_t d = 0; d < t.num_nodes(); ++d) {
      t.route(s, d, ids);
      ASSERT_EQ(static_cast<int>(ids.size()), t.dor_distance(s, d));
      uint32_t cur = s;
      for (uint32_t id : ids) {
        ASSERT_EQ(t.links()[id].from, cur);
        cur = t.links()[id].to;
      }
      ASSERT_EQ(cur, d);
      // Within a rack at most l1, l2, l1; across racks at most l1 l2 l1 l3 l1 l2 l1.
      auto cs = t.coords(s), cd = t.coords(d);
      ASSERT_LE(ids.size(), cs[2] == cd[2] ? (cs[1] == cd[1] ? 1u : 3u) : 7u);
    }
}

TEST(PlatformMars, HierarchicalBadInput)
{
  for (const char* bad : {"hierarchical:2x2", "hierarchical:0x2x2", "hierarchical:2x2x2,l3=0", "hierarchical:2x2x2,l3=5",
                          "hierarchical:2x2x2,link-bw=1Gbps", "mesh:2x2x2,l3=2"})
    EXPECT_THROW(parse_spec(bad), haec::InputError) << bad;
  auto s = parse_spec("hierarchical:2x2x2,l3=3,l2-bw=1GBps");
  EXPECT_EQ(s.link_types[1].bandwidth, 1e9);
  EXPECT_EQ(from_json(to_json(s), "t").l3_links, 3);
}
