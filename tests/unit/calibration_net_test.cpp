// The network calibration (calibration/model): SMPI 3.32's charges as the forward model
// (smpi_costs), its exact inversion (net_fit), the checks that refuse untrustworthy fits and the
// held-out validation (net_checks). Samples are generated from known settings, as SMPI would
// produce them (verified against SMPI itself by tests/integration/test_calibrate_closed_loop.sh).
#include "input_error.hpp"
#include "net_checks.hpp"
#include "net_fit.hpp"
#include "smpi_costs.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace haec::calibration;

namespace {

// The thesis's taurus calibration (its Figure 4.8).
const char* const kThesis =
    "--cfg=smpi/os:0:3.79946267082783e-06:1.09809596167633e-10;1420:4.06752467953734e-06:8.98782555257323e-11;"
    "33500:6.01204627458251e-06:7.10122202865045e-11;65536:7.28270630967833e-05:1.9683266729216e-10;320000:0:0\n"
    "--cfg=smpi/ois:0:3.65848336553355e-06:1.33280621516301e-10;1420:3.83673729379869e-06:7.84867337035856e-11;"
    "33500:5.57232433176236e-06:6.5668893954931e-11;65536:4.17803219267394e-06:2.37460347640595e-12;"
    "320000:4.70677307448713e-06:3.38065421824938e-13\n"
    "--cfg=smpi/or:0:3.51809764924934e-06:3.01847204118237e-10;1420:8.16124874852713e-06:2.66840481979518e-10;"
    "33500:1.49347740713389e-05:1.97645004617501e-10;65536:5.88893263987424e-05:1.29160163208845e-09;320000:0:0\n"
    "--cfg=smpi/bw-factor:0:0.0489825651012801;1420:0.824385608826111;33500:0.600278012183156;65536:1;"
    "320000:0.536759617074721\n"
    "--cfg=smpi/lat-factor:0:1;1420:2.16408517748122;33500:1.76905573216394;65536:2.9114462429055;"
    "320000:2.5981998109037\n"
    "--cfg=smpi/async-small-thresh:65536\n--cfg=smpi/send-is-detached-thresh:320000\n";

// calibration-net's grid: `count` sizes log-spaced over [1, 4 MiB], rounded, duplicates dropped.
std::vector<long long> grid(int count)
{
  std::vector<long long> g;
  for (int i = 0; i < count; ++i) {
    long long v = i == 0 ? 1 : static_cast<long long>(std::pow(4194304.0, static_cast<double>(i) / (count - 1)) + 0.5);
    if (g.empty() || v > g.back())
      g.push_back(v);
  }
  return g;
}

// What calibration-net records under SMPI with these settings, each sample multiplied by
// exp(N(0, noise)).
std::vector<Sample> samples_from(const SmpiNet& n, const std::vector<long long>& sizes, int reps, double noise = 0,
                                 unsigned seed = 1)
{
  std::mt19937 rng(seed);
  std::normal_distribution<double> z(0, 1);
  std::vector<Sample> v;
  for (int r = 0; r < reps; ++r)
    for (long long p : sizes)
      for (Op op : kAllOps)
        v.push_back({op_name(op), p, 0, n.op_time(op, static_cast<double>(p)) * std::exp(noise * z(rng))});
  return v;
}

double max_error(const SmpiNet& fitted, const SmpiNet& truth, const std::vector<long long>& sizes)
{
  double e = 0;
  for (long long p : sizes)
    for (Op op : kAllOps) {
      const double t = truth.op_time(op, static_cast<double>(p));
      e = std::max(e, std::fabs(fitted.op_time(op, static_cast<double>(p)) - t) / t);
    }
  return e;
}

} // namespace

TEST(CalibrationSmpiCosts, LooksUpLikeSimGrid)
{
  const SmpiNet n = parse_smpi_cfg(kThesis, 1.25e9, 30e-6, 0);
  // smpi_host.cpp: payload 1420 still uses the first segment, 1421 the second.
  EXPECT_DOUBLE_EQ(n.os.at(1420), 3.79946267082783e-06 + 1.09809596167633e-10 * 1420);
  EXPECT_DOUBLE_EQ(n.os.at(1421), 4.06752467953734e-06 + 8.98782555257323e-11 * 1421);
  EXPECT_DOUBLE_EQ(n.os.at(0), 3.79946267082783e-06);
  // network_smpi.cpp: the network size S = p + 16; S <= 0 would get 1, S <= 1420 the first factor.
  EXPECT_DOUBLE_EQ(n.bw.at(1420), 0.0489825651012801);
  EXPECT_DOUBLE_EQ(n.bw.at(1421), 0.824385608826111);
  // 100 B: S = 116, eager and detached: Send = os, Recv = or, PingPong = 2 (os + transfer + or).
  const double t = 30e-6 * 1.0 + 116 / (1.25e9 * 0.0489825651012801);
  EXPECT_DOUBLE_EQ(n.transfer(100), t);
  EXPECT_DOUBLE_EQ(n.op_time(Op::Send, 100), n.os.at(100));
  EXPECT_DOUBLE_EQ(n.op_time(Op::Recv, 100), n.orecv.at(100));
  EXPECT_DOUBLE_EQ(n.op_time(Op::Ssend, 100), n.os.at(100) + t);
  EXPECT_DOUBLE_EQ(n.op_time(Op::PingPong, 100), 2 * (n.os.at(100) + t + n.orecv.at(100)));
  // 100000 B: A <= p < D: the receive waits for the transfer and adds or; the send returns.
  EXPECT_DOUBLE_EQ(n.op_time(Op::Recv, 100000), n.transfer(100000) + n.orecv.at(100000));
  EXPECT_DOUBLE_EQ(n.op_time(Op::Send, 100000), n.os.at(100000));
  // 1 MB: rendezvous: every blocking operation is the transfer, os and or are not charged.
  EXPECT_DOUBLE_EQ(n.op_time(Op::Send, 1e6), n.transfer(1e6));
  EXPECT_DOUBLE_EQ(n.op_time(Op::PingPong, 1e6), 2 * n.transfer(1e6));
  EXPECT_DOUBLE_EQ(n.op_time(Op::Isend, 1e6), n.ois.at(1e6));
  EXPECT_THROW(parse_smpi_cfg("--cfg=smpi/os:0:1e-6:0\n", 1e9, 1e-5, 0), std::invalid_argument);
}

TEST(CalibrationNet, RecoversTheThesisSettingsExactly)
{
  const SmpiNet truth = parse_smpi_cfg(kThesis, 1.25e9, 30e-6, 0);
  const auto sizes    = grid(80);
  NetOptions opt;
  opt.reverse_share = 0;
  const NetCalibration c = calibrate_network(samples_from(truth, sizes, 3), "mem", opt);
  EXPECT_TRUE(c.problems.empty()) << c.problems.front().what;
  ASSERT_EQ(c.segments.size(), 5u);
  // Every breakpoint at the geometric mean of the two sizes around the true one, shared by all
  // quantities: 1391 sizes (1250, 1547] -> os switches at > 1391, the factors at S > 1407.
  const std::vector<long long> payload = {0, 1391, 30546, 66113, 309698}, network = {0, 1407, 30562, 66129, 309714};
  EXPECT_EQ(c.settings.os.thresholds, payload);
  EXPECT_EQ(c.settings.ois.thresholds, payload);
  EXPECT_EQ(c.settings.orecv.thresholds, payload);
  EXPECT_EQ(c.settings.bw.thresholds, network);
  EXPECT_EQ(c.settings.lat.thresholds, network);
  for (size_t k = 0; k < 5; ++k) {
    EXPECT_NEAR(c.settings.os.startup[k], truth.os.startup[k], 1e-9 * truth.os.startup[k] + 1e-20);
    EXPECT_NEAR(c.settings.orecv.per_byte[k], truth.orecv.per_byte[k], 1e-9 * truth.orecv.per_byte[k] + 1e-25);
    EXPECT_NEAR(c.settings.bw.values[k], truth.bw.values[k], 1e-9);
    EXPECT_NEAR(c.settings.lat.values[k], truth.lat.values[k], 1e-9);
  }
  EXPECT_EQ(c.settings.async_small, 66114); // sqrt(60031 * 72813)
  EXPECT_EQ(c.settings.detached, 309699);   // sqrt(281206 * 341079)
  // or above D is never charged: 0, as the thesis writes it.
  EXPECT_EQ(c.settings.orecv.text().substr(c.settings.orecv.text().rfind(';')), ";309698:0:0");
  EXPECT_NEAR(c.settings.bandwidth, 1.25e9, 1);
  EXPECT_NEAR(c.settings.latency, 30e-6, 1e-15);
  EXPECT_LT(max_error(c.settings, truth, sizes), 1e-8);
}

TEST(CalibrationNet, ProtocolThresholdsInsideSegmentsAndCrosstraffic)
{
  // A and D fall inside segments (they need not coincide with a breakpoint); SHARED route.
  const SmpiNet truth = parse_smpi_cfg("--cfg=smpi/os:0:2.5e-06:1.5e-10;8192:6e-06:9e-11;262144:2e-05:6e-11\n"
                                       "--cfg=smpi/ois:0:1.2e-06:8e-11;8192:2.4e-06:3e-11;262144:3e-06:5e-12\n"
                                       "--cfg=smpi/or:0:3e-06:2.5e-10;8192:7.5e-06:2e-10;262144:1.5e-05:1.5e-10\n"
                                       "--cfg=smpi/bw-factor:0:0.35;8192:1;262144:0.75\n"
                                       "--cfg=smpi/lat-factor:0:1;8192:1.8;262144:2.6\n"
                                       "--cfg=smpi/async-small-thresh:4096\n"
                                       "--cfg=smpi/send-is-detached-thresh:65536\n",
                                       1.25e9, 20e-6, 0.05);
  const auto sizes       = grid(80);
  const NetCalibration c = calibrate_network(samples_from(truth, sizes, 2), "mem"); // default share 0.05
  EXPECT_TRUE(c.problems.empty());
  EXPECT_EQ(c.segments.size(), 3u);
  EXPECT_EQ(c.settings.async_small, 4433);
  EXPECT_EQ(c.settings.detached, 66114);
  EXPECT_NEAR(c.settings.bandwidth, 1.25e9, 1e-3);
  EXPECT_LT(max_error(c.settings, truth, sizes), 1e-8);
}

TEST(CalibrationNet, TooFewSizesAreRefusedNotPrinted)
{
  // 20 sizes leave one size between the thesis's 33500 and 65536: no fit can resolve it.
  const SmpiNet truth    = parse_smpi_cfg(kThesis, 1.25e9, 30e-6, 0);
  const NetCalibration c = calibrate_network(samples_from(truth, grid(20), 5), "small.csv");
  ASSERT_FALSE(c.problems.empty());
  EXPECT_NE(c.problems.front().fix.find("--count"), std::string::npos);
}

TEST(CalibrationNet, NoisyMeasurementsStillFitWithinTheNoise)
{
  // 3 % lognormal noise on every sample, 15 repetitions: the medians carry ~1 %.
  const SmpiNet truth = parse_smpi_cfg(kThesis, 1.25e9, 30e-6, 0);
  const auto sizes    = grid(80);
  NetOptions opt;
  opt.reverse_share      = 0;
  const auto samples     = samples_from(truth, sizes, 15, 0.03, 7);
  const NetCalibration c = calibrate_network(samples, "noisy.csv", opt);
  EXPECT_TRUE(c.problems.empty()) << c.problems.front().what;
  EXPECT_EQ(c.segments.size(), 5u);
  EXPECT_LT(max_error(c.settings, truth, sizes), 0.05);
  const HeldOut h = held_out_validation(samples, "noisy.csv", opt);
  ASSERT_TRUE(h.computed) << h.reason;
  EXPECT_GT(h.error.median, 0.001); // the other half's own noise
  EXPECT_LT(h.error.median, 0.03);
}

TEST(CalibrationNet, OutliersDoNotMoveTheMedians)
{
  const SmpiNet truth = parse_smpi_cfg(kThesis, 1.25e9, 30e-6, 0);
  auto samples        = samples_from(truth, grid(80), 5);
  for (size_t i = 0; i < samples.size(); i += 7) // one of the 5 samples of an (op, size) 50x slower at most
    samples[i].duration *= 50;
  NetOptions opt;
  opt.reverse_share = 0;
  EXPECT_LT(max_error(calibrate_network(samples, "mem", opt).settings, truth, grid(80)), 1e-8);
}

TEST(CalibrationNet, RouteThatDoesNotMatchIsAProblemNamingTheFix)
{
  // SPLITDUPLEX truth fitted as if the route had a 5 % reverse share: bw-factor 1.05.
  const SmpiNet truth = parse_smpi_cfg(kThesis, 1.25e9, 30e-6, 0);
  NetOptions opt;
  opt.bandwidth          = 1.25e9;
  opt.latency            = 30e-6;
  const NetCalibration c = calibrate_network(samples_from(truth, grid(80), 1), "mem", opt);
  ASSERT_EQ(c.problems.size(), 1u);
  EXPECT_NE(c.problems[0].what.find("bw-factor 1.05"), std::string::npos) << c.problems[0].what;
  EXPECT_NE(c.problems[0].fix.find("--no-crosstraffic"), std::string::npos);
  // A route latency above the measured one: lat-factor < 1.
  opt.reverse_share = 0;
  opt.latency       = 40e-6;
  const NetCalibration d = calibrate_network(samples_from(truth, grid(80), 1), "mem", opt);
  ASSERT_FALSE(d.problems.empty());
  EXPECT_NE(d.problems[0].fix.find("--latency"), std::string::npos);
}

TEST(CalibrationNet, NeedsSsendAndEnoughSizes)
{
  const SmpiNet truth = parse_smpi_cfg(kThesis, 1.25e9, 30e-6, 0);
  std::vector<Sample> old;
  for (const auto& s : samples_from(truth, grid(80), 1))
    if (s.op != "MPI_Ssend")
      old.push_back(s);
  try {
    calibrate_network(old, "old.csv");
    FAIL();
  } catch (const haec::InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("old.csv: has no MPI_Ssend samples; measure again", 0), 0u) << e.what();
  }
  EXPECT_THROW(calibrate_network(samples_from(truth, {8, 16}, 1), "two.csv"), haec::InputError);
  const HeldOut h = held_out_validation(samples_from(truth, grid(80), 1), "one.csv", {});
  EXPECT_FALSE(h.computed);
  EXPECT_NE(h.reason.find("--reps 2"), std::string::npos);
}
