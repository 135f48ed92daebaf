// The calibration fitter (calibration/model): segmented regression, SMPI-style lookups, sample
// parsing errors, power profiles and RAPL detection (the network fit: calibration_net_test.cpp).
#include "input_error.hpp"
#include "power_fit.hpp"
#include "rapl.hpp"
#include "samples.hpp"
#include "segmented.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace haec::calibration;

// Three exact lines with jumps at 100 and 1000 (SMPI thresholds: x <= 100 is segment 1).
static double truth(double x)
{
  return x <= 100 ? 1e-6 + 1e-9 * x : x <= 1000 ? 5e-6 + 5e-10 * x : 2e-5 + 1e-10 * x;
}

TEST(CalibrationSegments, FindsExactBreakpointsAndCoefficients)
{
  std::vector<double> xs = {1, 3, 10, 30, 100, 300, 600, 1000, 3000, 10000, 30000};
  std::vector<double> ys;
  for (double x : xs)
    ys.push_back(truth(x));
  auto segs = fit_segments(xs, ys);
  ASSERT_EQ(segs.size(), 3u);
  EXPECT_EQ(xs[segs[0].last], 100);
  EXPECT_EQ(xs[segs[1].last], 1000);
  EXPECT_NEAR(segs[1].intercept, 5e-6, 1e-15);
  EXPECT_NEAR(segs[2].slope, 1e-10, 1e-19);
  EXPECT_DOUBLE_EQ(evaluate(segs, xs, 100), segs[0].at(100)); // inclusive upper bound
  EXPECT_DOUBLE_EQ(evaluate(segs, xs, 101), segs[1].at(101));
}

TEST(CalibrationSegments, MediansIgnoreOutliers)
{
  std::vector<Sample> samples;
  std::vector<double> xs = {1, 3, 10, 30, 100, 300, 600, 1000, 3000, 10000, 30000};
  for (double x : xs)
    for (int r = 0; r < 5; ++r) // one sample in five is 50x slower (a context switch)
      samples.push_back({"MPI_Isend", static_cast<long long>(x), 0, r == 2 ? 50 * truth(x) : truth(x)});
  Series s  = median_series(samples, "MPI_Isend");
  auto segs = fit_segments(s.sizes, s.medians);
  ASSERT_EQ(segs.size(), 3u);
  EXPECT_NEAR(segs[0].slope, 1e-9, 1e-18);
  EXPECT_EQ(s.total(), 55);
}

TEST(CalibrationSamples, ErrorsNameFileAndLine)
{
  EXPECT_THROW(parse_samples("", "s.csv"), haec::InputError);
  try {
    parse_samples("op,size,start,duration\nMPI_Send,8,0,1e-6\nMPI_Send,16,0.1\n", "s.csv");
    FAIL();
  } catch (const haec::InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("s.csv:3: has 3 fields", 0), 0u) << e.what();
  }
  EXPECT_THROW(parse_samples("op,size,start,duration\nMPI_Bcast,8,0,1\n", "s.csv"), haec::InputError);
  EXPECT_THROW(parse_samples("op,size,start,duration\nMPI_Send,8,0,-1\n", "s.csv"), haec::InputError);
}

TEST(CalibrationPower, SteadyLevelAndProfile)
{
  // 10 s at 100 W with a 5 s ramp at 50 W on either side: the trimmed mean is 100 W.
  auto log = parse_power_log("time,watts\n0,50\n5,100\n15,50\n20,50\n", "a.csv");
  EXPECT_NEAR(steady_power(log, "a.csv", 0.25), 100.0, 1e-12);
  // taurus-8 pstate 0 of plugins/power/README.md: 92.75 idle, 114.62 one core, 174.38 all 12
  auto p = power_profile({{92.75, 114.62, 174.38}}, 12, "m.csv");
  EXPECT_EQ(p.wattage_calibration, "92.75:114.62:174.38");
  // P_dyn = (174.38 - 114.62) * 12 / 11 = 65.192727..., epsilon = 109.187272...
  EXPECT_EQ(p.wattage_per_state, "92.75:109.1872727:174.38");
  EXPECT_THROW(power_profile({{92.75, 180, 174.38}}, 12, "m.csv"), haec::InputError);
  EXPECT_THROW(parse_power_log("time,watts\n0,50\n0,60\n", "b.csv"), haec::InputError);
  EXPECT_THROW(parse_manifest("pstate,load,file\n0,idle,a.csv\n0,one,b.csv\n", "m.csv"), haec::InputError);
}

TEST(CalibrationRapl, DetectsZonesInAFakeTree)
{
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("haec_rapl_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::remove_all(root);
  EXPECT_TRUE(find_rapl_zones(root.string()).empty());
  EXPECT_NE(rapl_status_line(root.string(), {}).find("no RAPL counters"), std::string::npos);
  const fs::path z = root / "sys/class/powercap/intel-rapl:0";
  fs::create_directories(z);
  fs::create_directories(root / "sys/class/powercap/intel-rapl:0:0"); // subzone: not listed
  std::ofstream(z / "name") << "package-0\n";
  std::ofstream(z / "energy_uj") << "1000\n";
  std::ofstream(z / "max_energy_range_uj") << "262143328850\n";
  auto zones = find_rapl_zones(root.string());
  ASSERT_EQ(zones.size(), 1u);
  EXPECT_EQ(zones[0].name, "package-0");
  EXPECT_DOUBLE_EQ(zones[0].max_energy_uj, 262143328850.0);
  EXPECT_DOUBLE_EQ(rapl_watts(1e6, 3e6, 2.0, 0), 1.0);
  EXPECT_DOUBLE_EQ(rapl_watts(262143328850.0 - 1e6, 1e6, 1.0, 262143328850.0), 2.0); // wrap-around
  fs::remove_all(root);
}
