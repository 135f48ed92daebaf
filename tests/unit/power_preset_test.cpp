// cluster:N,preset=taurus carries the taurus-8 calibration (002 Figure 8.7) through the platform
// spec and platform.json, and the power model reads it back as docs/MODELS.md §4 converts it.
#include "input_error.hpp"
#include "platform_spec.hpp"
#include "power_profile.hpp"

#include <gtest/gtest.h>

using namespace haec;

TEST(PowerPreset, TaurusSpecAndJson)
{
  auto s = platform::parse_spec("cluster:4,preset=taurus");
  EXPECT_EQ(s.node.cores, 12);
  ASSERT_EQ(s.node.speeds.size(), 12u);
  EXPECT_EQ(s.node.speeds.front(), 2.3e9);
  EXPECT_EQ(s.node.speeds.back(), 1.2e9);
  ASSERT_EQ(s.node.wattage_calibration.size(), 12u);
  EXPECT_EQ(s.node.wattage_calibration[0], "92.75:114.62:174.38");
  EXPECT_EQ(s.node.wattage_calibration[11], "93.25:104.62:123.62");
  EXPECT_EQ(s.node.wattage_off, 10);
  auto j = platform::to_json(s);
  EXPECT_EQ(j["node"]["wattage_off"], 10.0);
  auto back = platform::from_json(j, "p.json");
  EXPECT_EQ(back.node.wattage_calibration, s.node.wattage_calibration);
  EXPECT_EQ(back.node.wattage_off, 10);
  // Issue 21: without the preset a cluster node is the taurus node all the same (MODELS.md §4.1).
  auto plain = platform::to_json(platform::parse_spec("cluster:4"));
  EXPECT_EQ(plain["node"], j["node"]);
  // Later keys still apply; cores change the conversion, not the entries.
  EXPECT_EQ(platform::parse_spec("cluster:2,preset=taurus,cores=6,link-lat=1us").node.cores, 6);
}

TEST(PowerPreset, TaurusPowerLevels)
{
  auto s = platform::parse_spec("cluster:1,preset=taurus");
  std::string joined;
  for (auto const& e : s.node.wattage_calibration)
    joined += (joined.empty() ? "" : ",") + e;
  auto p = power::parse_host_power(
      "node-0",
      [&](const std::string& name) -> const char* {
        if (name == "haec:wattage_calibration")
          return joined.c_str();
        return name == "wattage_off" ? "10" : nullptr;
      },
      s.node.speeds.size(), s.node.cores);
  EXPECT_EQ(p.off_watts(), 10);
  const double one[12]  = {114.62, 113.25, 112.25, 110.75, 110.38, 109.38, 108.62, 107.38, 106.75, 106.5, 105.12, 104.62};
  const double all[12]  = {174.38, 168.62, 162.88, 157.12, 151.75, 147.25, 142.75, 138.25, 134, 130.62, 127, 123.62};
  const double idle[12] = {92.75, 92.75, 92.88, 92.88, 92.88, 92.88, 92.88, 93, 93.12, 93, 93, 93.25};
  for (int ps = 0; ps < 12; ++ps) {
    EXPECT_EQ(p.watts(ps, 0), idle[ps]);
    EXPECT_NEAR(p.watts(ps, 1), one[ps], 1e-12) << "pstate " << ps;
    EXPECT_NEAR(p.watts(ps, 12), all[ps], 1e-12) << "pstate " << ps;
    EXPECT_NEAR(p.pstates()[ps].slope, (all[ps] - one[ps]) * 12 / 11, 1e-12);
  }
}

TEST(PowerPreset, BadInputs)
{
  auto message = [](const std::string& spec) {
    try {
      platform::parse_spec(spec);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(message("cluster:2,preset=taurus,speeds=2Gf/1Gf"),
            "cluster:2,preset=taurus,speeds=2Gf/1Gf: 12 wattage_calibration entries for 2 pstates; give one "
            "idle:one_core:all_cores entry per speed (preset=taurus sets 12 speeds)");
  EXPECT_EQ(message("cluster:2,preset=ciorba2014"), "cluster:2,preset=ciorba2014: unknown preset 'ciorba2014'; use preset=taurus or preset=taurus-node");
  EXPECT_NE(message("haec-box:2x2x2,preset=taurus").find("unknown preset 'taurus'; use preset=ciorba2014"),
            std::string::npos);
  EXPECT_NE(message("cluster:2,link-lat=1us,preset=taurus").find("preset must be the first key"), std::string::npos);
  auto j = platform::to_json(platform::parse_spec("cluster:2,preset=taurus"));
  j["node"]["wattage_calibration"][3] = "92:abc:150";
  EXPECT_THROW(platform::from_json(j, "p.json"), InputError);
  j = platform::to_json(platform::parse_spec("cluster:2,preset=taurus"));
  j["node"]["wattage_off"] = -1;
  EXPECT_THROW(platform::from_json(j, "p.json"), InputError);
  j["node"]["wattage_off"] = 10;
  j["node"]["wattage_calibration"].erase(0);
  EXPECT_THROW(platform::from_json(j, "p.json"), InputError);
}

// taurus-node: one core whose busy power is the taurus-8 all-cores power (SimGrid's form,
// converted exactly from the calibration with n = 12).
TEST(PowerPreset, TaurusNodeIsAWholeNodeOnOneCore)
{
  auto spec = haec::platform::parse_spec("cluster:2,preset=taurus-node");
  EXPECT_EQ(spec.node.cores, 1);
  ASSERT_EQ(spec.node.wattage_per_state.size(), 12u);
  EXPECT_TRUE(spec.node.wattage_calibration.empty());
  auto profile = haec::power::parse_host_power(
      "node-0",
      [&](const std::string& k) -> const char* {
        static std::string joined;
        if (k != "wattage_per_state")
          return nullptr;
        joined.clear();
        for (auto const& e : spec.node.wattage_per_state)
          joined += (joined.empty() ? "" : ",") + e;
        return joined.c_str();
      },
      12, 1);
  EXPECT_NEAR(profile.watts(0, 1), 174.38, 1e-9);  // busy = all cores of taurus-8 at 2.3 GHz
  EXPECT_NEAR(profile.watts(11, 1), 123.62, 1e-9); // and at 1.2 GHz
  EXPECT_EQ(profile.watts(0, 0), 92.75);
  EXPECT_NEAR(profile.pstates()[0].epsilon, 174.38 - (174.38 - 114.62) * 12 / 11, 1e-9);
}
