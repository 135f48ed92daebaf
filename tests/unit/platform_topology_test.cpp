// Nodes, links and dimension-order routes of haec::platform::Topology (libs/platform/model/topology.*).
#include "input_error.hpp"
#include "platform_spec.hpp"
#include "topology.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace haec::platform;

namespace {

Topology make(const std::string& spec)
{
  return Topology(parse_spec(spec));
}

std::vector<std::string> route_names(const Topology& t, std::array<int, 3> a, std::array<int, 3> b)
{
  std::vector<uint32_t> ids;
  t.route(t.node_at(a[0], a[1], a[2]), t.node_at(b[0], b[1], b[2]), ids);
  std::vector<std::string> names;
  for (auto id : ids)
    names.push_back(t.link_name(id));
  return names;
}

// Directed links counted by (type name, dim).
std::map<std::string, int> count_links(const Topology& t)
{
  std::map<std::string, int> c;
  for (auto const& l : t.links())
    c[t.spec().link_types[l.type].name + "/" + "xyz"[l.dim]]++;
  return c;
}

// Shortest hop counts from `src` over the directed links (independent of route()).
std::vector<int> bfs(const Topology& t, uint32_t src)
{
  std::vector<std::vector<uint32_t>> out(t.num_nodes());
  for (auto const& l : t.links())
    out[l.from].push_back(l.to);
  std::vector<int> dist(t.num_nodes(), -1);
  std::deque<uint32_t> q{src};
  dist[src] = 0;
  while (!q.empty()) {
    uint32_t n = q.front();
    q.pop_front();
    for (uint32_t m : out[n])
      if (dist[m] < 0) {
        dist[m] = dist[n] + 1;
        q.push_back(m);
      }
  }
  return dist;
}

} // namespace

TEST(PlatformTopology, NodeIdsAreXFastestAndHostNames)
{
  auto t = make("mesh:4x3x2");
  EXPECT_EQ(t.num_nodes(), 24u);
  EXPECT_EQ(t.node_at(1, 2, 1), 1u + 4 * (2 + 3 * 1));
  EXPECT_EQ(t.coords(21), (std::array<int, 3>{1, 2, 1}));
  EXPECT_EQ(t.host_name(21), "node-1-2-1");
  EXPECT_EQ(t.loopback_name(21), "lo-node-1-2-1");
  EXPECT_THROW(t.node_at(4, 0, 0), std::out_of_range);
  auto c = make("cluster:5");
  EXPECT_EQ(c.num_nodes(), 5u);
  EXPECT_EQ(c.host_name(3), "node-3");
  EXPECT_EQ(c.coords(3), (std::array<int, 3>{3, 0, 0}));
}

TEST(PlatformTopology, LinkCounts)
{
  // 4x4 torus board: 32 bidirectional wires = 64 simplex links per board; aligned wireless:
  // 16 wires between each pair of adjacent boards.
  auto c = count_links(make("haec-box:4x4x4"));
  EXPECT_EQ(c["optical/x"] + c["optical/y"], 4 * 64);
  EXPECT_EQ(c["optical/x"], 4 * 32);
  EXPECT_EQ(c["wireless/z"], 2 * 3 * 16);
  // Full wireless: (4-1)*16^2 = 768 wires.
  c = count_links(make("haec-box:4x4x4,wireless=full"));
  EXPECT_EQ(c["wireless/z"], 2 * 768);
  EXPECT_EQ(c["optical/x"] + c["optical/y"], 4 * 64);
  // Mesh boards: 2*4*3 = 24 wires per board.
  c = count_links(make("haec-box:4x4x4,board=mesh"));
  EXPECT_EQ(c["optical/x"] + c["optical/y"], 4 * 48);
  // Torus dimension of size 2: one wire between the two nodes; size 1: none.
  c = count_links(make("torus:2x1x4"));
  EXPECT_EQ(c["link/x"], 2 * 4);     // 4 rings of 2 nodes, one wire each
  EXPECT_EQ(c["link/y"], 0);
  EXPECT_EQ(c["link/z"], 2 * 2 * 4); // 2 rings of 4 nodes, 4 wires each
  EXPECT_EQ(make("torus:1x1x1").links().size(), 0u);
  EXPECT_EQ(make("cluster:7").links().size(), 14u);
  for (auto const* spec : {"haec-box:4x4x4", "haec-box:3x2x4,wireless=full", "torus:2x3x1", "mesh:3x3x3", "cluster:4"})
    EXPECT_EQ(static_cast<long long>(make(spec).links().size()), directed_link_count(parse_spec(spec))) << spec;
}

TEST(PlatformTopology, LinkNamesAreUniqueAndDocumented)
{
  for (auto const* spec : {"haec-box:4x4x4", "haec-box:3x3x3,wireless=full", "haec-box:2x2x3",
                           "torus:2x2x2", "torus:4x4x4", "mesh:3x3x3", "cluster:8"}) {
    auto t = make(spec);
    std::set<std::string> names;
    for (uint32_t id = 0; id < t.links().size(); ++id)
      names.insert(t.link_name(id));
    for (uint32_t n = 0; n < t.num_nodes(); ++n)
      names.insert(t.loopback_name(n));
    EXPECT_EQ(names.size(), t.links().size() + t.num_nodes()) << spec;
  }
  auto t = make("haec-box:3x3x3");
  std::vector<uint32_t> ids;
  t.route(t.node_at(1, 2, 0), t.node_at(2, 2, 0), ids);
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(t.link_name(ids[0]), "opt-x+-1-2-0");
  EXPECT_EQ(t.links()[ids[0]].type, 0);
  t.route(t.node_at(1, 2, 1), t.node_at(1, 2, 0), ids);
  EXPECT_EQ(t.link_name(ids[0]), "wl-z--1-2-1");
  EXPECT_EQ(t.links()[ids[0]].type, 1);
}

TEST(PlatformTopology, DorRoutesOnMesh3x3x3ByHand)
{
  auto t = make("mesh:3x3x3");
  EXPECT_EQ(route_names(t, {0, 0, 0}, {2, 1, 2}),
            (std::vector<std::string>{"link-x+-0-0-0", "link-x+-1-0-0", "link-y+-2-0-0", "link-z+-2-1-0",
                                      "link-z+-2-1-1"}));
  EXPECT_EQ(route_names(t, {2, 1, 2}, {0, 0, 0}),
            (std::vector<std::string>{"link-x--2-1-2", "link-x--1-1-2", "link-y--0-1-2", "link-z--0-0-2",
                                      "link-z--0-0-1"}));
  EXPECT_EQ(route_names(t, {1, 2, 1}, {1, 0, 1}), (std::vector<std::string>{"link-y--1-2-1", "link-y--1-1-1"}));
  EXPECT_TRUE(route_names(t, {1, 1, 1}, {1, 1, 1}).empty());
  EXPECT_EQ(t.dor_distance(t.node_at(0, 0, 0), t.node_at(2, 2, 2)), 6);
}

TEST(PlatformTopology, DorRoutesOnTorus4x4x4ByHand)
{
  auto t = make("torus:4x4x4");
  // x: 0 -> 3 is one hop backwards over the wrap link; y: distance 2 both ways, the tie goes +.
  EXPECT_EQ(route_names(t, {0, 0, 0}, {3, 2, 1}),
            (std::vector<std::string>{"link-x--0-0-0", "link-y+-3-0-0", "link-y+-3-1-0", "link-z+-3-2-0"}));
  // 3 -> 0 wraps forwards in every dimension.
  EXPECT_EQ(route_names(t, {3, 3, 3}, {0, 0, 0}),
            (std::vector<std::string>{"link-x+-3-3-3", "link-y+-0-3-3", "link-z+-0-0-3"}));
  EXPECT_EQ(route_names(t, {1, 0, 0}, {3, 0, 0}), (std::vector<std::string>{"link-x+-1-0-0", "link-x+-2-0-0"}));
  EXPECT_EQ(route_names(t, {3, 0, 0}, {1, 0, 0}), (std::vector<std::string>{"link-x+-3-0-0", "link-x+-0-0-0"}));
  EXPECT_EQ(route_names(t, {0, 1, 0}, {0, 0, 3}), (std::vector<std::string>{"link-y--0-1-0", "link-z--0-0-0"}));
  EXPECT_EQ(t.dor_distance(t.node_at(0, 0, 0), t.node_at(2, 2, 2)), 6);
  EXPECT_EQ(t.dor_distance(t.node_at(0, 0, 0), t.node_at(3, 3, 3)), 3);
}

TEST(PlatformTopology, TwoRingUsesItsSingleWire)
{
  auto t = make("torus:2x2x2");
  EXPECT_EQ(route_names(t, {0, 0, 0}, {1, 0, 0}), (std::vector<std::string>{"link-x+-0-0-0"}));
  EXPECT_EQ(route_names(t, {1, 0, 0}, {0, 0, 0}), (std::vector<std::string>{"link-x+-1-0-0"}));
  EXPECT_EQ(route_names(t, {1, 1, 1}, {0, 0, 0}),
            (std::vector<std::string>{"link-x+-1-1-1", "link-y+-0-1-1", "link-z+-0-0-1"}));
}

TEST(PlatformTopology, HaecBoxFullWirelessJumpsFirst)
{
  auto t = make("haec-box:3x3x3,wireless=full");
  EXPECT_EQ(route_names(t, {0, 0, 0}, {2, 1, 2}), (std::vector<std::string>{"wl-z+-0-0-0-2-1", "wl-z+-2-1-1-2-1"}));
  EXPECT_EQ(route_names(t, {2, 1, 2}, {0, 0, 0}), (std::vector<std::string>{"wl-z--2-1-2-0-0", "wl-z--0-0-1-0-0"}));
  EXPECT_EQ(route_names(t, {1, 1, 1}, {0, 2, 0}), (std::vector<std::string>{"wl-z--1-1-1-0-2"}));
  // Same board: optical x then y, shorter way round (3-ring: 0 -> 2 is one hop backwards).
  EXPECT_EQ(route_names(t, {0, 0, 1}, {2, 2, 1}), (std::vector<std::string>{"opt-x--0-0-1", "opt-y--2-0-1"}));
  EXPECT_EQ(t.dor_distance(t.node_at(0, 0, 0), t.node_at(2, 1, 2)), 2);
  EXPECT_EQ(t.dor_distance(t.node_at(0, 0, 0), t.node_at(1, 1, 0)), 2);
}

TEST(PlatformTopology, ClusterRouteGoesUpAndDown)
{
  auto t = make("cluster:8");
  std::vector<uint32_t> ids;
  t.route(1, 5, ids);
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(t.link_name(ids[0]), "cable-up-1");
  EXPECT_EQ(t.link_name(ids[1]), "cable-down-5");
  EXPECT_EQ(t.dor_distance(1, 5), 2);
  EXPECT_EQ(t.dor_distance(4, 4), 0);
  t.route(4, 4, ids);
  EXPECT_TRUE(ids.empty());
}

TEST(PlatformTopology, MaxHopsQuotedBySeed000)
{
  auto max_hops = [](const std::string& spec) {
    auto t = make(spec);
    int m  = 0;
    for (uint32_t a = 0; a < t.num_nodes(); ++a)
      for (uint32_t b = 0; b < t.num_nodes(); ++b)
        m = std::max(m, t.dor_distance(a, b));
    return m;
  };
  EXPECT_EQ(max_hops("haec-box:4x4x4,board=mesh"), 9);
  EXPECT_EQ(max_hops("haec-box:16x4x1,board=mesh"), 18);
  EXPECT_EQ(max_hops("haec-box:64x1x1,board=mesh"), 63);
  EXPECT_EQ(max_hops("haec-box:4x4x4"), 7); // torus boards: 2 + 2 + 3
  EXPECT_EQ(max_hops("haec-box:4x4x4,wireless=full"), 4);
}

// For every pair: the route is a connected path src -> dst, its length is dor_distance, each hop
// has the type its endpoints imply, and (DOR being minimal there) it is a shortest path.
TEST(PlatformTopology, RoutesMatchDorDistanceForAllPairs)
{
  for (auto const* spec :
       {"haec-box:3x3x3", "haec-box:4x4x4", "haec-box:3x3x3,board=mesh", "haec-box:4x4x4,board=mesh",
        "haec-box:3x3x3,wireless=full", "haec-box:4x4x4,wireless=full", "haec-box:4x4x4,board=mesh,wireless=full",
        "mesh:3x3x3", "mesh:4x4x4", "torus:3x3x3", "torus:4x4x4", "torus:2x3x4", "cluster:8"}) {
    auto t          = make(spec);
    const bool full = t.spec().wireless_full;
    std::vector<uint32_t> ids;
    for (uint32_t s = 0; s < t.num_nodes(); ++s) {
      auto shortest = bfs(t, s);
      for (uint32_t d = 0; d < t.num_nodes(); ++d) {
        t.route(s, d, ids);
        ASSERT_EQ(static_cast<int>(ids.size()), t.dor_distance(s, d)) << spec << " " << s << "->" << d;
        if (t.spec().kind == Kind::Cluster)
          continue;
        uint32_t cur = s;
        for (auto id : ids) {
          auto const& l = t.links()[id];
          ASSERT_EQ(l.from, cur) << spec;
          bool z_hop = t.coords(l.from)[2] != t.coords(l.to)[2];
          if (t.spec().kind == Kind::HaecBox) {
            ASSERT_EQ(l.type, z_hop ? 1 : 0) << spec;
          }
          cur = l.to;
        }
        ASSERT_EQ(cur, d) << spec;
        // Full wireless: two wireless hops can beat a long board route, so DOR is only minimal
        // across boards there.
        if (!full || t.coords(s)[2] != t.coords(d)[2]) {
          ASSERT_EQ(shortest[d], t.dor_distance(s, d)) << spec << " " << s << "->" << d;
        }
      }
    }
  }
}

TEST(PlatformTopology, ConstructorValidates)
{
  PlatformSpec s = parse_spec("torus:2x2x2");
  s.dims         = {2, -1, 2};
  EXPECT_THROW(Topology{s}, haec::InputError);
}
