// A spec key that cannot act on the platform it is given for (a link type the platform has no link
// of, routes between racks on one rack, a board too small for torus and mesh to differ, ...) is
// refused; the same key on a platform that has the part it sets is accepted and changes it.
#include "input_error.hpp"
#include "platform_spec.hpp"

#include <gtest/gtest.h>

using namespace haec;
using namespace haec::platform;

namespace {

std::string refusal(const std::string& spec)
{
  try {
    parse_spec(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(PlatformKeysAct, KeysOnAMissingPartAreRefused)
{
  const std::pair<const char*, const char*> cases[] = {
      {"hierarchical:2x2x1,l3=2", "key 'l3' cannot act: the platform has no level-3 link (one rack)"},
      {"hierarchical:2x2x1,indirect=0", "key 'indirect' cannot act: the platform has 1 rack"},
      {"hierarchical:3x3x2,indirect=0", "key 'indirect' cannot act: the platform has 2 racks"},
      {"hierarchical:2x2x1,l3-bw=1Gbps", "key 'l3-bw' cannot act"},
      {"hierarchical:1x3x3,l1-bw=1Gbps", "no level-1 link (one switch per board)"},
      {"hierarchical:3x1x3,l2-lat=1us", "no level-2 link (one board per rack)"},
      {"haec-box:1x1x3,optical-ber=1e-9", "no optical link (one node per board)"},
      {"haec-box:4x4x1,wireless-bw=1Gbps", "no wireless link (one board)"},
      {"haec-box:4x4x1,wireless=aligned", "key 'wireless' cannot act: the platform has one board"},
      {"haec-box:1x1x4,wireless=full", "one node per board"},
      {"haec-box:2x2x4,board=torus", "key 'board' cannot act"},
      {"haec-box:1x2x4,board=mesh", "key 'board' cannot act"},
      {"torus:1x1x1,link-lat=1us", "no link (one node"},
      {"cluster:1,link-bw=1Gbps", "no link (one node"},
      {"fat-tree:1;8;1;1,reduce=20", "key 'reduce' cannot act: the platform has one level"},
  };
  for (const auto& [spec, message] : cases)
    EXPECT_NE(refusal(spec).find(message), std::string::npos) << spec << ": " << refusal(spec);
}

TEST(PlatformKeysAct, TheSameKeysActWhereThePlatformHasThePart)
{
  EXPECT_EQ(parse_spec("hierarchical:2x2x2,l3=2").l3_links, 2);
  EXPECT_EQ(parse_spec("hierarchical:2x2x3,indirect=0").indirect_routes, 0);
  EXPECT_EQ(parse_spec("hierarchical:2x2x3,indirect=1").indirect_routes, 1);
  EXPECT_DOUBLE_EQ(parse_spec("hierarchical:2x1x1,l1-bw=1GBps").link_types[0].bandwidth, 1e9);
  EXPECT_DOUBLE_EQ(parse_spec("haec-box:2x1x1,optical-bw=8Gbps").link_types[0].bandwidth, 1e9);
  EXPECT_DOUBLE_EQ(parse_spec("haec-box:1x1x2,wireless-bw=8Gbps").link_types[1].bandwidth, 1e9);
  EXPECT_TRUE(parse_spec("haec-box:2x2x2,wireless=full").wireless_full);
  EXPECT_FALSE(parse_spec("haec-box:3x1x1,board=mesh").board_torus);
  EXPECT_DOUBLE_EQ(parse_spec("cluster:2,link-bw=8Gbps").link_types[0].bandwidth, 1e9);
  EXPECT_DOUBLE_EQ(parse_spec("fat-tree:2;4,4;1,2;1,2,reduce=25").fat_tree.reduce_percent, 25);
  // Keys of the node and the loopback act on any platform, one node included.
  EXPECT_EQ(parse_spec("cluster:1,cores=4,loopback-lat=1ns").node.cores, 4);
  EXPECT_EQ(parse_spec("haec-box:1x1x1,cores=2").node.cores, 2);
}
