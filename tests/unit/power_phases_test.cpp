// Sockets and workload phases of the power model (plugins/power/model): hand-computed values
// on the taurus-8 pstate 0 calibration (MODELS.md §4: 92.75:114.62:174.38, 12 cores).
#include "energy_meter.hpp"
#include "input_error.hpp"
#include "power_profile.hpp"
#include "workloads.hpp"

#include <gtest/gtest.h>

#include <map>

using namespace haec::power;

namespace {

HostPowerProfile taurus(int sockets, const char* socket_w)
{
  std::map<std::string, std::string> props = {{"haec:wattage_calibration", "92.75:114.62:174.38,92.75:113.25:168.62"}};
  if (sockets > 1) {
    props["haec:sockets"]        = std::to_string(sockets);
    props["haec:socket_wattage"] = socket_w;
  }
  return parse_host_power(
      "node-0", [&](const std::string& k) { auto it = props.find(k); return it == props.end() ? nullptr : it->second.c_str(); },
      2, 12);
}

} // namespace

TEST(PowerSockets, TwoSocketsKeepTheCalibratedEndPointsAndAddTheStep)
{
  auto p = taurus(2, "5");
  // slope = (174.38 - 114.62 - 5) * 12 / 11 = 59.738181..., eps = 174.38 - slope - 5 = 109.641818...
  const double slope = (174.38 - 114.62 - 5) * 12.0 / 11.0;
  EXPECT_NEAR(p.pstates()[0].slope, slope, 1e-12);
  EXPECT_NEAR(p.pstates()[0].epsilon, 174.38 - slope - 5, 1e-12);
  EXPECT_NEAR(p.watts(0, 1), 114.62, 1e-12);
  EXPECT_NEAR(p.watts(0, 6), 139.510909090909, 1e-9);
  EXPECT_NEAR(p.watts(0, 7), 149.489090909091, 1e-9); // the second socket wakes: + slope/12 + 5 W
  EXPECT_NEAR(p.watts(0, 12), 174.38, 1e-12);
  EXPECT_NEAR(p.watts(0, 30), 174.38, 1e-12); // capped at all cores
  EXPECT_EQ(p.watts(0, 0), 92.75);
  // Without sockets: the plain conversion, bit for bit.
  auto flat = taurus(1, "");
  EXPECT_EQ(flat.pstates()[0].slope, 174.38 - (174.38 - (174.38 - 114.62) * 12.0 / 11.0));
  EXPECT_NEAR(flat.watts(0, 7) - flat.watts(0, 6), flat.pstates()[0].slope / 12, 1e-12); // no step
}

TEST(PowerSockets, PerPstateWattageAndSimGridForm)
{
  auto p = taurus(2, "5,4");
  EXPECT_NEAR(p.watts(1, 7) - p.watts(1, 6), p.pstates()[1].slope / 12 + 4, 1e-12);
  auto s = from_simgrid(90, 100, 160, 2, 6); // SimGrid form: slope = 160 - 100 - 6 = 54
  EXPECT_DOUBLE_EQ(s.slope, 54);
  HostPowerProfile h({s}, 0, 4, 2);
  EXPECT_DOUBLE_EQ(h.watts(0, 2), 100 + 0.5 * 54);      // first socket full
  EXPECT_DOUBLE_EQ(h.watts(0, 3), 100 + 0.75 * 54 + 6); // second socket awake
  EXPECT_DOUBLE_EQ(h.watts(0, 4), 160);
}

TEST(PowerSockets, BadSocketPropertiesAreOneLineErrors)
{
  EXPECT_THROW(taurus(5, "5"), haec::InputError);  // 5 does not divide 12
  EXPECT_THROW(taurus(2, "-1"), haec::InputError); // negative watts
  EXPECT_THROW(taurus(2, "5,4,3"), haec::InputError); // 3 values for 2 pstates
  EXPECT_THROW(taurus(2, "80"), haec::InputError);  // step larger than all_cores - one_core
  std::map<std::string, std::string> props = {{"wattage_per_state", "90:100:160"}, {"haec:sockets", "2"}};
  auto lookup = [&](const std::string& k) { auto it = props.find(k); return it == props.end() ? nullptr : it->second.c_str(); };
  try {
    parse_host_power("h", lookup, 1, 4);
    FAIL() << "sockets without haec:socket_wattage accepted";
  } catch (const haec::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("host h property haec:sockets"), std::string::npos) << e.what();
  }
}

TEST(WorkloadPhases, ChooseByRegionThenRankThenHostThenDefault)
{
  auto w = WorkloadSet::parse(R"({"profiles": {"a": {"dynamic_scale": 0.5}, "b": {"all_cores": [150, 140]}},
    "default": "a", "hosts": {"node-1": "b"}, "ranks": {"3": "b", "5-7": "a"}, "regions": {"X>Y": "b"}})",
                              "w.json");
  const int a = 0, b = 1; // profiles in name order
  EXPECT_EQ(w.choose("X>Y", 5, "node-0"), b);
  EXPECT_EQ(w.choose("X>Z", 3, "node-0"), b);
  EXPECT_EQ(w.choose("", 6, "node-1"), a);
  EXPECT_EQ(w.choose("", 1, "node-1"), b);
  EXPECT_EQ(w.choose("", 1, "node-0"), a);
  EXPECT_EQ(w.max_rank(), 7);
  auto none = WorkloadSet::parse(R"({"profiles": {"a": {"dynamic_scale": 2}}})", "n.json");
  EXPECT_EQ(none.choose("X>Y", 0, "h"), -1); // nothing named: the host's own model
}

TEST(WorkloadPhases, SlopesFromScaleOrAllCoresWatts)
{
  auto host = taurus(1, "");
  auto w    = WorkloadSet::parse(R"({"profiles": {"a": {"dynamic_scale": 0.5}, "b": {"all_cores": [150, 140]}}})", "w");
  auto sa   = w.slopes(0, host, "node-0");
  EXPECT_EQ(sa[0], host.pstates()[0].slope * 0.5);
  auto sb = w.slopes(1, host, "node-0");
  EXPECT_DOUBLE_EQ(sb[0], 150 - host.pstates()[0].epsilon);
  EXPECT_DOUBLE_EQ(host.watts(0, 12, sb[0]), 150);
  auto low = WorkloadSet::parse(R"({"profiles": {"c": {"all_cores": [100, 100]}}})", "low.json");
  EXPECT_THROW(low.slopes(0, host, "node-0"), haec::InputError); // below P_static (109.19 W)
  auto shortlist = WorkloadSet::parse(R"({"profiles": {"c": {"all_cores": [150]}}})", "s.json");
  try {
    shortlist.slopes(0, host, "node-0");
    FAIL();
  } catch (const haec::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("s.json"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("1 all_cores values for 2 pstates"), std::string::npos) << e.what();
  }
}

TEST(WorkloadPhases, BadFilesAreRejected)
{
  for (const char* text : {"", "[1]", R"({"profiles": {}})", R"({"profiles": {"a": {"dynamic_scale": -1}}})",
                           R"({"profiles": {"a": {"scale": 1}}})", R"({"profiles": {"a": {}}, "default": "b"})",
                           R"({"profiles": {"a": {}}, "ranks": {"x": "a"}})", R"({"profiles": {"a": {}}, "ranks": {"5-2": "a"}})",
                           R"({"profiles": {"a": {}}, "ranks": {"1-3": "a", "3": "a"}})", R"({"profiles": {"a": {}}, "extra": 1})",
                           R"({"profiles": {"a": {"dynamic_scale": 1, "all_cores": [1]}}})"})
    EXPECT_THROW(WorkloadSet::parse(text, "bad.json"), haec::InputError) << text;
}

TEST(WorkloadPhases, MeterMixesWorkloadsByShareAndOneWorkloadIsThePlainModel)
{
  auto host = taurus(1, "");
  HostEnergyMeter plain(host, 2), phased(host, 2);
  const int same = phased.add_workload({host.pstates()[0].slope * 1.0, host.pstates()[1].slope * 1.0});
  plain.start_computation(1, 0.0);
  phased.start_computation(1, 0.0, same);
  plain.start_computation(1, 0.3);
  phased.start_computation(1, 0.3, same);
  plain.end_computation(1, 1.1);
  phased.end_computation(1, 1.1, same);
  plain.advance(2.0);
  phased.advance(2.0);
  EXPECT_EQ(plain.energy_j(), phased.energy_j()); // bit for bit

  HostEnergyMeter mixed(host, 2);
  const int half = mixed.add_workload({host.pstates()[0].slope * 0.5, host.pstates()[1].slope * 0.5});
  mixed.start_computation(1, 0.0);       // base workload
  mixed.start_computation(1, 0.0, half); // half P_dynamic
  // P = eps + 2/12 * (slope + slope / 2) / 2
  const auto& p0 = host.pstates()[0];
  EXPECT_NEAR(mixed.watts(), p0.epsilon + 2.0 / 12 * (0.75 * p0.slope), 1e-12);
  mixed.advance(1.0);
  EXPECT_NEAR(mixed.energy_j(), p0.epsilon + 2.0 / 12 * (0.75 * p0.slope), 1e-12);
  mixed.end_computation(1, 1.0); // only the half one left
  EXPECT_NEAR(mixed.watts(), p0.epsilon + 1.0 / 12 * 0.5 * p0.slope, 1e-12);
  mixed.end_computation(1, 1.0, 0); // not running: ignored
  mixed.end_computation(1, 1.0, half);
  EXPECT_EQ(mixed.watts(), 92.75);
}
