// Host power profiles: SimGrid 3.32's wattage_per_state read exactly as host_energy.cpp reads
// it, the thesis's idle:one_core:all_cores calibration converted, and the bad inputs refused.
#include "input_error.hpp"
#include "power_profile.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace haec::power;

namespace {

PropertyLookup props(const std::map<std::string, std::string>& m)
{
  return [m](const std::string& name) -> const char* {
    auto it = m.find(name);
    return it == m.end() ? nullptr : it->second.c_str();
  };
}

// The taurus-8 calibration of thesis 002 Figure 8.7 (EP, idle:one_core:all_cores per pstate).
const char* kTaurus8 = "92.75:114.62:174.38, 92.75:113.25:168.62, 92.88:112.25:162.88, 92.88:110.75:157.12, "
                       "92.88:110.38:151.75, 92.88:109.38:147.25, 92.88:108.62:142.75, 93:107.38:138.25, "
                       "93.12:106.75:134, 93:106.5:130.62, 93:105.12:127, 93.25:104.62:123.62";

std::string error_of(const std::map<std::string, std::string>& m, size_t pstates, int cores)
{
  try {
    parse_host_power("h0", props(m), pstates, cores);
  } catch (const haec::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

} // namespace

// The table of SimGrid's documentation (host_energy.cpp): 4 cores, 100:120:200, off 10.
TEST(PowerProfile, SimGridDocumentationTable)
{
  auto p = parse_host_power("HostA", props({{"wattage_per_state", "100.0:120.0:200.0"}, {"wattage_off", "10"}}), 1, 4);
  ASSERT_TRUE(p.has_profile());
  EXPECT_EQ(p.off_watts(), 10);
  EXPECT_EQ(p.watts(0, 0), 100); // idle
  EXPECT_EQ(p.watts(0, 1), 140);
  EXPECT_EQ(p.watts(0, 2), 160);
  EXPECT_EQ(p.watts(0, 3), 180);
  EXPECT_EQ(p.watts(0, 4), 200);
  EXPECT_EQ(p.watts(0, 9), 200); // more computations than cores: full load
  EXPECT_EQ(p.watts(0, 0.5), 130); // half a core (a polling loop at 0.5)
}

TEST(PowerProfile, SimGridPerPstateAndTwoValueForm)
{
  auto p = parse_host_power(
      "HostC", props({{"wattage_per_state", "95.0:120.0:200.0, 93.0:115.0:170.0, 90.0:110.0:150.0"}}), 3, 4);
  EXPECT_EQ(p.off_watts(), 0);
  EXPECT_EQ(p.watts(1, 0), 93);
  EXPECT_EQ(p.watts(1, 2), 142.5);
  EXPECT_EQ(p.watts(2, 4), 150);
  // "Idle:AllCores": epsilon is the idle value.
  auto q = parse_host_power("h", props({{"wattage_per_state", "100:200"}}), 1, 4);
  EXPECT_EQ(q.pstates()[0].epsilon, 100);
  EXPECT_EQ(q.watts(0, 1), 125);
}

// P_dynamic = (PN - P1) n / (n - 1), epsilon = PN - P_dynamic: one busy core gives P1 back.
TEST(PowerProfile, ThesisCalibrationConverted)
{
  auto p = parse_host_power("taurus-8", props({{"haec:wattage_calibration", kTaurus8}, {"wattage_off", "10"}}), 12, 12);
  ASSERT_EQ(p.pstates().size(), 12u);
  const auto& s0 = p.pstates()[0];
  EXPECT_DOUBLE_EQ(s0.slope, 65.192727272727272);     // 59.76 * 12 / 11
  EXPECT_DOUBLE_EQ(s0.epsilon, 109.18727272727273);   // 174.38 - 65.19272...
  EXPECT_NEAR(p.watts(0, 1), 114.62, 1e-12);
  EXPECT_NEAR(p.watts(0, 12), 174.38, 1e-12);
  EXPECT_NEAR(p.watts(0, 6), 109.18727272727273 + 65.192727272727272 / 2, 1e-12);
  EXPECT_EQ(p.watts(0, 0), 92.75);
  const auto& s11 = p.pstates()[11]; // 93.25:104.62:123.62
  EXPECT_DOUBLE_EQ(s11.slope, 19.0 * 12 / 11);
  EXPECT_NEAR(p.watts(11, 1), 104.62, 1e-12);
  EXPECT_NEAR(p.watts(11, 12), 123.62, 1e-12);
  EXPECT_EQ(p.off_watts(), 10);
  // The same numbers converted by hand into SimGrid's form give the same power everywhere.
  auto direct = from_simgrid(92.75, 174.38 - 59.76 * 12 / 11, 174.38);
  EXPECT_DOUBLE_EQ(direct.epsilon, s0.epsilon);
}

TEST(PowerProfile, NoPropertyMeansZeroWatts)
{
  auto p = parse_host_power("h", props({}), 3, 8);
  EXPECT_FALSE(p.has_profile());
  EXPECT_EQ(p.watts(2, 8), 0);
}

TEST(PowerProfile, WhitespaceAndLineBreaksAsInTheThesisXml)
{
  auto p = parse_host_power("h", props({{"wattage_per_state", " 92.88\n    :112.25:162.88 ,93: 105:127"}}), 2, 12);
  EXPECT_EQ(p.pstates()[0].idle, 92.88);
  EXPECT_EQ(p.pstates()[1].epsilon, 105);
}

TEST(PowerProfile, BadInputs)
{
  EXPECT_EQ(error_of({{"watt_per_state", "1:2:3"}}, 1, 4),
            "host h0 property watt_per_state: is the old SimGrid name, ignored by SimGrid 3.32 (0 W); rename it "
            "wattage_per_state");
  EXPECT_EQ(error_of({{"wattage_per_state", "1:2:3"}, {"watt_off", "10"}}, 1, 4),
            "host h0 property watt_off: is the old SimGrid name, ignored by SimGrid 3.32 (0 W); rename it wattage_off");
  EXPECT_NE(error_of({{"wattage_per_state", "1:2:3"}, {"haec:wattage_calibration", "1:2:3"}}, 1, 4)
                .find("has both wattage_per_state and haec:wattage_calibration"),
            std::string::npos);
  EXPECT_EQ(error_of({{"wattage_per_state", "95:120:200, 93:115:170"}}, 3, 4),
            "host h0 property wattage_per_state: 2 power states for 3 pstates; give one idle:epsilon:all_cores (or "
            "idle:all_cores) entry per pstate");
  EXPECT_EQ(error_of({{"wattage_per_state", "95:abc:200"}}, 1, 4),
            "host h0 property wattage_per_state (pstate 0): 'abc' is not a number of watts; write idle:epsilon:all_cores "
            "(or idle:all_cores) per pstate, comma separated");
  EXPECT_NE(error_of({{"wattage_per_state", "95:-1:200"}}, 1, 4).find("negative wattage -1"), std::string::npos);
  EXPECT_NE(error_of({{"wattage_per_state", "95:120:200:300"}}, 1, 4).find("has 4 values"), std::string::npos);
  EXPECT_NE(error_of({{"haec:wattage_calibration", "95:200"}}, 1, 4).find("has 2 values"), std::string::npos);
  EXPECT_EQ(error_of({{"wattage_per_state", "95:80:90"}}, 1, 4),
            "host h0 property wattage_per_state (pstate 0): all_cores 90 W is below idle 95 W; give all_cores >= idle");
  EXPECT_NE(error_of({{"wattage_per_state", "95:130:120"}}, 1, 4).find("below epsilon 130 W"), std::string::npos);
  EXPECT_NE(error_of({{"haec:wattage_calibration", "90:150:120"}}, 1, 4).find("below one_core 150 W"),
            std::string::npos);
  EXPECT_NE(error_of({{"haec:wattage_calibration", "0:10:200"}}, 1, 12).find("negative static power"),
            std::string::npos);
  EXPECT_NE(error_of({{"haec:wattage_calibration", "90:100:100"}}, 1, 1).find("single-core host"), std::string::npos);
  EXPECT_NE(error_of({{"wattage_per_state", "95:120:200"}, {"wattage_off", "ten"}}, 1, 4)
                .find("host h0 property wattage_off: 'ten' is not a number of watts"),
            std::string::npos);
  EXPECT_NE(error_of({{"wattage_per_state", "95:120:200,"}}, 1, 4).find("2 power states for 1 pstates"),
            std::string::npos);
}
