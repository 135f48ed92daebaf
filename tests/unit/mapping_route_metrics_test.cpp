// Hop-bytes, dilation, link load and wireless share (compute_mapping_metrics) against a case
// worked out by hand, and route profiles against the routes themselves.
#include "input_error.hpp"
#include "mapping_metrics.hpp"
#include "mapping_target_support.hpp"
#include "mapping_test_support.hpp"

#include <gtest/gtest.h>

using namespace haec::mapping;
using namespace haec::mapping::test;

namespace {

// haec-box:2x2x2 (2x2 boards: one optical wire per axis; aligned wireless), nodes x + 2y + 4z.
// r0 on (0,0,0), r1 on (1,0,0), r2 on (0,0,1), r3 on (1,1,1).
// 0->1: 2 messages, 1000 B (1 optical hop); 0->2: 1, 500 B (1 wireless hop); 3->0: 1, 100 B
// (x, y optical, z wireless: 3 hops); 1->1: 1, 50 B (stays on the node).
CommMatrix hand_matrix()
{
  CommMatrix m = matrix(4);
  set(m, 0, 1, 2, 1000);
  set(m, 0, 2, 1, 500);
  set(m, 3, 0, 1, 100);
  set(m, 1, 1, 1, 50);
  return m;
}
const std::vector<int> kHandAssignment = {0, 1, 4, 7};

} // namespace

TEST(MappingRouteMetrics, HandCaseOnTwoCubedHaecBox)
{
  auto mc      = machine("haec-box:2x2x2");
  const auto r = compute_mapping_metrics(hand_matrix(), kHandAssignment, mc.target);
  EXPECT_EQ(*r.total_bytes, 1650u);
  EXPECT_EQ(*r.hop_bytes, 1000u + 500u + 300u);
  EXPECT_DOUBLE_EQ(*r.avg_dilation, 1800.0 / 1650.0);
  EXPECT_EQ(*r.max_dilation, 3);
  EXPECT_EQ(*r.max_link_load, 1000u);                 // the optical x link out of (0,0,0)
  EXPECT_DOUBLE_EQ(*r.wireless_share, 600.0 / 1800.0); // 500 x 1 + 100 x 1 wireless byte-hops
  EXPECT_EQ(r.counts.ieplc, 5u);
  EXPECT_EQ(r.counts.ianlc, 1u);
  EXPECT_EQ(r.counts.ienlc, 4u);
  EXPECT_EQ(r.counts.message_hops, 2u * 1 + 1u * 1 + 1u * 3);
  EXPECT_EQ(r.counts.ienlc_min, 1u);
  EXPECT_EQ(r.counts.ienlc_max, 2u);
  EXPECT_DOUBLE_EQ(r.counts.ienlc_avg, 4.0 / 3.0);
  EXPECT_EQ(r.nodes_used, 4);
  EXPECT_EQ(r.max_ranks_per_node, 1);
}

TEST(MappingRouteMetrics, LinkLoadAddsUpOnSharedLinks)
{
  // mesh:4x1x1: 0->3 and 1->2 share the link 1->2; 2->1 runs on the other direction's link.
  auto mc      = machine("mesh:4x1x1");
  CommMatrix m = matrix(4);
  set(m, 0, 3, 1, 700);
  set(m, 1, 2, 1, 300);
  set(m, 2, 1, 1, 900);
  const auto r = compute_mapping_metrics(m, {0, 1, 2, 3}, mc.target);
  EXPECT_EQ(*r.max_link_load, 1000u);
  EXPECT_EQ(*r.hop_bytes, 700u * 3 + 300 + 900);
  EXPECT_FALSE(r.wireless_share); // no wireless links on a mesh: not applicable, not 0
}

TEST(MappingRouteMetrics, AbsentWhatTheInputsCannotGive)
{
  auto mc = machine("haec-box:2x2x2");
  // A SimGrid XML platform: hop counts only.
  const Target xml = target_from_nodes(mc.target.nodes, mc.target.hops);
  auto r           = compute_mapping_metrics(hand_matrix(), kHandAssignment, xml);
  EXPECT_EQ(*r.hop_bytes, 1800u);
  EXPECT_FALSE(r.max_link_load);
  EXPECT_FALSE(r.wireless_share);
  // Sizes only (a MapLib .size.csv without its .count.csv): no message count.
  CommMatrix sizes = hand_matrix();
  sizes.has_messages = false;
  std::fill(sizes.messages.begin(), sizes.messages.end(), 0);
  r = compute_mapping_metrics(sizes, kHandAssignment, mc.target);
  EXPECT_FALSE(r.counts.has_messages);
  EXPECT_EQ(*r.hop_bytes, 1800u);
  EXPECT_EQ(*r.max_dilation, 3);
  // Counts only: no byte figure.
  CommMatrix counts = hand_matrix();
  counts.has_bytes  = false;
  std::fill(counts.bytes.begin(), counts.bytes.end(), 0);
  r = compute_mapping_metrics(counts, kHandAssignment, mc.target);
  EXPECT_FALSE(r.hop_bytes);
  EXPECT_FALSE(r.avg_dilation);
  EXPECT_FALSE(r.max_link_load);
  EXPECT_EQ(*r.max_dilation, 3);
  EXPECT_EQ(r.counts.message_hops, 6u);
}

TEST(MappingRouteMetrics, RejectsAssignmentsThatDoNotFit)
{
  auto mc = machine("haec-box:2x2x2");
  EXPECT_THROW(compute_mapping_metrics(hand_matrix(), {0, 1, 4}, mc.target), haec::InputError);
  EXPECT_THROW(compute_mapping_metrics(hand_matrix(), {0, 1, 4, 8}, mc.target), haec::InputError);
}

TEST(MappingTarget, ProfilesCountTheRoutesLinkClasses)
{
  for (const char* spec : {"haec-box:3x3x3", "haec-box:3x3x3,wireless=full", "haec-box:4x4x2,board=mesh",
                           "mesh:3x2x4", "torus:4x3x2", "torus:2x2x2", "cluster:5"}) {
    auto mc          = machine(spec);
    const Target& t  = mc.target;
    const int n      = static_cast<int>(t.nodes.size());
    std::vector<uint32_t> route;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        t.route(a, b, route);
        RouteProfile expected;
        for (uint32_t link : route)
          ++expected.hops[t.link_class_of.at(link)];
        ASSERT_EQ(t.profile(a, b).hops, expected.hops) << spec << " " << a << "->" << b;
        ASSERT_EQ(t.hops(a, b), static_cast<int>(route.size())) << spec << " " << a << "->" << b;
      }
  }
}

TEST(MappingTarget, LinkClassesOfTheSpec)
{
  auto mc = machine("haec-box:2x2x2");
  ASSERT_EQ(mc.target.link_classes.size(), 2u);
  EXPECT_EQ(mc.target.link_classes[0].name, "optical");
  EXPECT_EQ(mc.target.link_classes[1].name, "wireless");
  EXPECT_DOUBLE_EQ(mc.target.link_classes[0].bandwidth, 250e9 / 8);
  EXPECT_EQ(mc.target.shape, Shape::HaecBox);
  EXPECT_EQ(mc.target.cores, 8);
}
