// Per-message routing on the hierarchical network (seed 003 §2.4, §3.3): candidate paths and the
// four policies, against paths and choices worked out by hand in the comments.
#include "input_error.hpp"
#include "message_router.hpp"
#include "platform_spec.hpp"
#include "route_candidates.hpp"
#include "route_policy.hpp"
#include "topology.hpp"

#include <gtest/gtest.h>

using namespace haec::platform;

namespace {

std::vector<std::string> names(const Topology& t, const Path& p)
{
  std::vector<std::string> out;
  for (uint32_t id : p)
    out.push_back(t.link_name(id));
  return out;
}

using Names = std::vector<std::string>;

} // namespace

TEST(PlatformRouting, TwoShortestPathsThroughParallelCables)
{
  // 3x1x2,l3=2: one board per rack, its 3 switches fully joined; rack 0's cables to rack 1 leave
  // from switches 0 and 1 (k = 0, 1) and land on 3 and 4. Node 2 -> node 5: l1 to 0, l3 to 3, l1
  // to 5, or l1 to 1, l3 to 4, l1 to 5: both 3 hops. The static route (BFS, lowest link id) is the
  // first; the other follows.
  Topology t(parse_spec("hierarchical:3x1x2,l3=2"));
  RouteCandidates c(t);
  const auto& paths = c.of(2, 5);
  ASSERT_EQ(paths.size(), 2u);
  std::vector<uint32_t> fixed;
  t.route(2, 5, fixed);
  EXPECT_EQ(paths[0], fixed);
  EXPECT_EQ(names(t, paths[0]), (Names{"l1-2-0", "l3-0-3-0", "l1-3-5"}));
  EXPECT_EQ(names(t, paths[1]), (Names{"l1-2-1", "l3-1-4-1", "l1-4-5"}));
  // 0 -> 3 is the k = 0 cable alone; 0 -> 4 has l3 then l1, or l1 then l3: two paths.
  EXPECT_EQ(c.of(0, 3).size(), 1u);
  EXPECT_EQ(names(t, c.of(0, 4)[0]), (Names{"l1-0-1", "l3-1-4-1"}));
  EXPECT_EQ(names(t, c.of(0, 4)[1]), (Names{"l3-0-3-0", "l1-3-4"}));
  EXPECT_EQ(c.of(1, 1), (std::vector<Path>{Path{}}));
}

TEST(PlatformRouting, IndirectRouteCrossesAThirdRack)
{
  // 3x1x3, l3=1: cables 0-3 (racks 0-1), 1-6 (racks 0-2), 4-7 (racks 1-2). Node 2 -> node 5:
  // direct l1 2-0, l3 0-3, l1 3-5; through rack 2: l1 2-1, l3 1-6, l1 6-7, l3 7-4, l1 4-5.
  Topology t(parse_spec("hierarchical:3x1x3,indirect=1"));
  RouteCandidates c(t);
  const auto& paths = c.of(2, 5);
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_EQ(names(t, paths[0]), (Names{"l1-2-0", "l3-0-3-0", "l1-3-5"}));
  EXPECT_EQ(names(t, paths[1]), (Names{"l1-2-1", "l3-1-6-0", "l1-6-7", "l3-7-4-0", "l1-4-5"}));
  EXPECT_EQ(c.of(0, 2).size(), 1u); // same rack: no detour
}

TEST(PlatformRouting, DetourRacksFollowTheDestination)
{
  EXPECT_EQ(RouteCandidates::detour_racks(0, 1, 5, 3), (std::vector<uint32_t>{2, 3, 4}));
  EXPECT_EQ(RouteCandidates::detour_racks(1, 0, 5, 3), (std::vector<uint32_t>{2, 3, 4})); // 1 is the source
  EXPECT_EQ(RouteCandidates::detour_racks(3, 1, 5, 2), (std::vector<uint32_t>{2, 4}));
  EXPECT_EQ(RouteCandidates::detour_racks(0, 1, 5, 0), (std::vector<uint32_t>{}));
}

TEST(PlatformRouting, IndirectCountIsChecked)
{
  for (const char* bad : {"hierarchical:2x2x2,indirect=1", "hierarchical:2x2x5,indirect=4", "torus:2x2x2,indirect=1",
                          "hierarchical:2x2x5,indirect=-1", "hierarchical:2x2x5,indirect=x"})
    EXPECT_THROW(parse_spec(bad), haec::InputError) << bad;
  auto s = parse_spec("hierarchical:2x2x5,indirect=3");
  EXPECT_EQ(s.indirect_routes, 3);
  EXPECT_EQ(from_json(to_json(s), "t").indirect_routes, 3);
  EXPECT_EQ(from_json(to_json(parse_spec("hierarchical:2x2x5")), "t").indirect_routes, 0);
}

TEST(PlatformRouting, PolicyNamesAndSupport)
{
  EXPECT_EQ(parse_routing_policy("round-robin", "x"), RoutingPolicy::RoundRobin);
  EXPECT_EQ(routing_policy_name(RoutingPolicy::Adaptive), "adaptive");
  EXPECT_THROW(parse_routing_policy("ecmp", "--routing ecmp"), haec::InputError);
  EXPECT_THROW(check_routing_supported(parse_spec("fat-tree:2;4,4;1,2;1,2"), RoutingPolicy::Random, "r"),
               haec::InputError);
  EXPECT_THROW(check_routing_supported(parse_spec("torus:4x4x4"), RoutingPolicy::Adaptive, "r"), haec::InputError);
  EXPECT_NO_THROW(check_routing_supported(parse_spec("torus:4x4x4"), RoutingPolicy::Static, "r"));
  EXPECT_NO_THROW(check_routing_supported(parse_spec("hierarchical:2x2x2"), RoutingPolicy::Random, "r"));
}

TEST(PlatformRouting, RoundRobinTakesTurns)
{
  EXPECT_EQ(round_robin_choice(0, 3), 0u);
  EXPECT_EQ(round_robin_choice(4, 3), 1u);
  EXPECT_EQ(round_robin_choice(5, 1), 0u);
}

TEST(PlatformRouting, RandomIsAFunctionOfSeedPairAndCount)
{
  EXPECT_EQ(random_choice(7, 2, 5, 11, 4), random_choice(7, 2, 5, 11, 4));
  int ones = 0, differ = 0;
  for (uint64_t m = 0; m < 1000; ++m) {
    const size_t a = random_choice(1, 2, 5, m, 2);
    ASSERT_LT(a, 2u);
    ones += static_cast<int>(a);
    differ += a != random_choice(2, 2, 5, m, 2);
  }
  EXPECT_GT(ones, 430); // a fair coin: 500 +- 3.5 sigma
  EXPECT_LT(ones, 570);
  EXPECT_GT(differ, 400); // another seed, another sequence
}

TEST(PlatformRouting, AdaptiveTakesTheLeastLoadedBottleneck)
{
  // Candidate 0 = links {0, 1}, candidate 1 = links {2, 3, 4}.
  const std::vector<Path> c = {{0, 1}, {2, 3, 4}};
  std::vector<double> bw(5, 10.0), bytes(5, 0.0);
  EXPECT_EQ(adaptive_choice(c, bytes, bw), 0u); // idle: the shorter
  bytes[0] = 100;                               // 10 s to drain on candidate 0
  EXPECT_EQ(adaptive_choice(c, bytes, bw), 1u);
  bytes[3] = 50, bw[0] = 100; // 1 s against 5 s
  EXPECT_EQ(adaptive_choice(c, bytes, bw), 0u);
  const std::vector<Path> same = {{0}, {2}};
  EXPECT_EQ(adaptive_choice(same, std::vector<double>(5, 0.0), bw), 0u); // equal: the lower index
}

TEST(PlatformRouting, RouterStateChangesOnlyOnStartAndEnd)
{
  Topology t(parse_spec("hierarchical:3x1x2,l3=2"));
  const auto paths = RouteCandidates(t).of(2, 5);
  MessageRouter rr(t, RoutingPolicy::RoundRobin, 1);
  EXPECT_EQ(rr.next(2, 5), paths[0]);
  EXPECT_EQ(rr.next(2, 5), paths[0]); // asking again draws nothing
  rr.start(2, 5, 100);
  EXPECT_EQ(rr.next(2, 5), paths[1]);
  EXPECT_EQ(rr.next(5, 2).size(), 3u); // the reverse pair has its own turn
  rr.start(2, 5, 100);
  EXPECT_EQ(rr.next(2, 5), paths[0]);
  EXPECT_EQ(rr.messages(2, 5), 2u);

  MessageRouter ad(t, RoutingPolicy::Adaptive, 1);
  const uint64_t first = ad.start(2, 5, 1000); // idle: the static route
  EXPECT_EQ(ad.in_flight(paths[0][1]), 1000);
  EXPECT_EQ(ad.next(2, 5), paths[1]); // its links now carry 1000 bytes
  ad.end(first);
  EXPECT_EQ(ad.in_flight(paths[0][1]), 0);
  EXPECT_EQ(ad.next(2, 5), paths[0]);

  MessageRouter st(t, RoutingPolicy::Static, 1);
  st.start(2, 5, 1);
  EXPECT_EQ(st.next(2, 5), paths[0]);
}

TEST(PlatformRouting, EveryCandidateIsAConnectedRouteOfItsKind)
{
  // 3x3x4, l3=3, indirect=2, every pair: candidates are connected walks from src to dst; the
  // shortest ones (all but the last `indirect`) have the static route's length and are distinct;
  // each indirect one crosses exactly its detour rack with two l3 hops and never returns to a rack
  // it left. Parallel cables give many pairs several shortest paths.
  Topology t(parse_spec("hierarchical:3x3x4,l3=3,indirect=2"));
  RouteCandidates c(t);
  const uint32_t rack = 9;
  size_t multi = 0;
  for (uint32_t s = 0; s < t.num_nodes(); ++s)
    for (uint32_t d = 0; d < t.num_nodes(); ++d) {
      if (s == d)
        continue;
      const auto& paths = c.of(s, d);
      const size_t indirect = s / rack != d / rack ? 2 : 0;
      ASSERT_GE(paths.size(), 1 + indirect);
      const size_t shortest = paths.size() - indirect;
      multi += shortest > 1;
      const auto detours    = RouteCandidates::detour_racks(s / rack, d / rack, 4, 2);
      for (size_t i = 0; i < paths.size(); ++i) {
        uint32_t cur = s, l3 = 0;
        std::vector<uint32_t> racks{s / rack};
        for (uint32_t id : paths[i]) {
          ASSERT_EQ(t.links()[id].from, cur);
          cur = t.links()[id].to;
          l3 += t.links()[id].dim == 2;
          if (cur / rack != racks.back())
            racks.push_back(cur / rack);
        }
        ASSERT_EQ(cur, d);
        if (i < shortest) {
          ASSERT_EQ(static_cast<int>(paths[i].size()), t.dor_distance(s, d)) << s << "->" << d << " #" << i;
          for (size_t j = 0; j < i; ++j)
            ASSERT_NE(paths[i], paths[j]);
        } else {
          ASSERT_EQ(l3, 2u);
          ASSERT_EQ(racks, (std::vector<uint32_t>{s / rack, detours[i - shortest], d / rack}));
        }
      }
    }
  EXPECT_GT(multi, 100u);
}
