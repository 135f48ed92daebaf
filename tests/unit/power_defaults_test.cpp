// Every generated platform kind has a default node power profile (docs/MODELS.md §4.1): values
// derived from taurus-8 (002 Figure 8.7) by hand, the keys that replace them, and the cases that
// leave a node without one (which --power then refuses).
#include "input_error.hpp"
#include "platform_spec.hpp"
#include "power_profile.hpp"

#include <gtest/gtest.h>

using namespace haec;

namespace {

// The model the power plugin builds from a spec's node (its wattage_per_state and wattage_off).
power::HostPowerProfile profile_of(const platform::PlatformSpec& s)
{
  std::string joined;
  for (auto const& e : s.node.wattage_per_state)
    joined += (joined.empty() ? "" : ",") + e;
  const std::string off = std::to_string(s.node.wattage_off);
  return power::parse_host_power(
      "node-0",
      [&](const std::string& name) -> const char* {
        if (name == "wattage_per_state")
          return joined.c_str();
        return name == "wattage_off" ? off.c_str() : nullptr;
      },
      s.node.speeds.size(), s.node.cores);
}

bool has_power(const platform::PlatformSpec& s)
{
  return !s.node.wattage_per_state.empty() || !s.node.wattage_calibration.empty();
}

} // namespace

// taurus-8 pstate 0: idle 92.75, P1 114.62, PN 174.38 -> d = 59.76/11 = 5.4327273 W per core,
// P_static = 174.38 - 12 d = 109.1872727 W. pstate 11: 93.25, 104.62, 123.62 -> d = 19/11,
// P_static = 102.8927273 W.
TEST(PowerDefaults, HaecBoxNodeIsHalfATaurusNodeWithEightCores)
{
  auto s = platform::parse_spec("haec-box:2x2x2");
  ASSERT_EQ(s.node.speeds.size(), 12u);
  EXPECT_EQ(s.node.speeds[0], 1e9);
  EXPECT_NEAR(s.node.speeds[11], 1e9 * 1200 / 2300, 1e-3);
  auto p = profile_of(s);
  EXPECT_EQ(p.watts(0, 0), 46.375);
  EXPECT_NEAR(p.watts(0, 8), 54.5936364 + 8 * 5.4327273, 1e-6); // 98.0554545 W
  EXPECT_NEAR(p.watts(0, 4), 54.5936364 + 4 * 5.4327273, 1e-6); // 76.3245455 W
  EXPECT_EQ(p.watts(11, 0), 46.625);
  EXPECT_NEAR(p.watts(11, 8), 51.4463636 + 8 * 19.0 / 11, 1e-6); // 65.2645455 W
  EXPECT_EQ(p.off_watts(), 5);
  // ciorba2014's preset changes links only: the node keeps its profile.
  EXPECT_EQ(platform::parse_spec("haec-box:2x2x2,preset=ciorba2014").node.wattage_per_state, s.node.wattage_per_state);
}

TEST(PowerDefaults, GeminiNodeIsATaurusNodeWithSixteenCores)
{
  for (const char* spec : {"torus:2x2x2", "mesh:2x2x2"}) {
    auto s = platform::parse_spec(spec);
    ASSERT_EQ(s.node.speeds.size(), 12u) << spec;
    EXPECT_EQ(s.node.speeds[0], 2.3e9);
    EXPECT_EQ(s.node.speeds[11], 1.2e9);
    auto p = profile_of(s);
    EXPECT_EQ(p.watts(0, 0), 92.75);
    EXPECT_NEAR(p.watts(0, 16), 109.1872727 + 16 * 5.4327273, 1e-6); // 196.1109091 W
    EXPECT_NEAR(p.watts(11, 16), 102.8927273 + 16 * 19.0 / 11, 1e-6); // 130.5290909 W
    EXPECT_EQ(p.off_watts(), 10);
  }
}

TEST(PowerDefaults, ClusterNodeIsTaurus8)
{
  auto s = platform::parse_spec("cluster:2");
  EXPECT_EQ(s.node.wattage_calibration, platform::parse_spec("cluster:2,preset=taurus").node.wattage_calibration);
  EXPECT_EQ(s.node.wattage_off, 10);
}

// cores= prices the node for that many cores: taurus-8's per-core d and static power (above), not
// the default's all_cores figure spread over another core count.
TEST(PowerDefaults, CoresKeyDerivesTheProfileForThatManyCores)
{
  auto p = profile_of(platform::parse_spec("fat-tree:2;4,4;1,2;1,2,cores=12"));
  EXPECT_NEAR(p.watts(0, 12), 174.38, 1e-9);                     // taurus-8 itself at 12 cores
  EXPECT_NEAR(p.watts(0, 6), 109.1872727 + 6 * 5.4327273, 1e-6); // 141.7836364 W
  auto h = profile_of(platform::parse_spec("haec-box:2x2x2,cores=4"));
  EXPECT_NEAR(h.watts(0, 4), 54.5936364 + 4 * 5.4327273, 1e-6);  // 76.3245455 W
  auto c = profile_of(platform::parse_spec("cluster:2,cores=16,wattage-off=7"));
  EXPECT_NEAR(c.watts(0, 16), 109.1872727 + 16 * 5.4327273, 1e-6);
  EXPECT_EQ(c.off_watts(), 7);
}

TEST(PowerDefaults, KeysReplaceTheProfile)
{
  auto s = platform::parse_spec("haec-box:2x2x1,speeds=2Gf/1Gf,wattage=10:20:50/8:15:30,wattage-off=1");
  EXPECT_EQ(s.node.wattage_per_state, (std::vector<std::string>{"10:20:50", "8:15:30"}));
  EXPECT_EQ(s.node.wattage_off, 1);
  // Order does not matter; cluster's calibration gives way to wattage=.
  auto c = platform::parse_spec("cluster:2,wattage=10:50,speed=1Gf");
  EXPECT_TRUE(c.node.wattage_calibration.empty());
  EXPECT_EQ(c.node.wattage_per_state, (std::vector<std::string>{"10:50"}));
  // Same pstate count as the default: the default profile stays.
  EXPECT_TRUE(has_power(platform::parse_spec("torus:2x2x2,speeds=3Gf/2.9Gf/2.8Gf/2.7Gf/2.6Gf/2.5Gf/2.4Gf/2.3Gf/2.2Gf/2.1Gf/2Gf/1.9Gf")));
}

TEST(PowerDefaults, NodesWithoutAProfile)
{
  // Another pstate count than the default: the default no longer describes the node.
  auto s = platform::parse_spec("haec-box:2x2x1,speed=2Gf");
  EXPECT_FALSE(has_power(s));
  EXPECT_EQ(s.node.wattage_off, -1);
  EXPECT_FALSE(has_power(platform::parse_spec("mesh:2x2x2,speeds=2Gf/1Gf")));
  EXPECT_FALSE(platform::to_json(s)["node"].contains("wattage_per_state"));
  // A platform.json without power fields has none (the kind's default is not filled in).
  auto j = platform::to_json(platform::parse_spec("haec-box:2x2x1"));
  EXPECT_TRUE(has_power(platform::from_json(j, "p.json")));
  j["node"].erase("wattage_per_state");
  j["node"].erase("wattage_off");
  auto back = platform::from_json(j, "p.json");
  EXPECT_FALSE(has_power(back));
  EXPECT_EQ(back.node.wattage_off, -1);
}

TEST(PowerDefaults, BadKeys)
{
  auto message = [](const std::string& spec) {
    try {
      platform::parse_spec(spec);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(message("torus:2x2x2,wattage=10:20:50"),
            "torus:2x2x2,wattage=10:20:50: 1 wattage_per_state entries for 12 pstates; give one "
            "idle:epsilon:all_cores entry per speed");
  EXPECT_NE(message("haec-box:2x2x1,speed=1Gf,wattage=a:b").find("'a' is not a number"), std::string::npos);
  EXPECT_NE(message("haec-box:2x2x1,wattage-off=-3").find("wattage-off=-3 is negative"), std::string::npos);
  EXPECT_NE(message("cluster:2,preset=taurus-node,wattage-off=x").find("wattage-off"), std::string::npos);
}
