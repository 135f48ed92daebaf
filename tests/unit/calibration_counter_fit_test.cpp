// Fitting the counter power model (calibration/model/counter_fit.hpp, nnls.hpp): Lawson-Hanson
// against hand-solved problems, and coefficients recovered within 1 % from synthetic, noisy
// (seeded) power and counter logs; the refusals of an under-determined fit.
#include "counter_fit.hpp"
#include "input_error.hpp"
#include "nnls.hpp"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

using namespace haec::calibration;

TEST(Nnls, KeepsTheUnconstrainedSolutionWhenItIsPositive)
{
  Eigen::MatrixXd A(3, 2);
  A << 1, 0, 0, 1, 1, 1;
  Eigen::VectorXd b(3);
  b << 1, 2, 3;
  const auto r = nnls(A, b);
  ASSERT_TRUE(r.converged);
  EXPECT_NEAR(r.x(0), 1, 1e-12);
  EXPECT_NEAR(r.x(1), 2, 1e-12);
}

TEST(Nnls, ClampsANegativeCoefficientAndRefitsTheRest)
{
  // Unconstrained: x = (2, -1) fits exactly. With x >= 0: x1 = 0, x0 = argmin (x0-2)^2 + (x0-1)^2... by hand:
  // rows (1,0)->2, (1,1)->1, (0,1)->-1; with x1 = 0 the residual is (x0-2)^2 + (x0-1)^2 + 1, x0 = 1.5.
  Eigen::MatrixXd A(3, 2);
  A << 1, 0, 1, 1, 0, 1;
  Eigen::VectorXd b(3);
  b << 2, 1, -1;
  const auto r = nnls(A, b);
  ASSERT_TRUE(r.converged);
  EXPECT_NEAR(r.x(0), 1.5, 1e-12);
  EXPECT_EQ(r.x(1), 0);
}

namespace {

struct Truth {
  std::vector<double> p_static{50, 40};
  std::vector<std::vector<double>> c{{2e-9, 1e-6}, {1.5e-9, 0.7e-6}};
};

// 100 s per pstate in 0.1 s intervals with independent random rates; the wattmeter samples every
// 10 ms with Gaussian noise of 0.5 W; counters carry 0.1 % noise.
void synthetic(const Truth& t, std::string& power_csv, std::string& counters_csv, unsigned seed)
{
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> ins(0, 2e10), miss(0, 5e7);
  std::normal_distribution<double> watt_noise(0, 0.5), count_noise(1, 0.001);
  std::ostringstream power, counters;
  power << "time,watts\n";
  counters << "start_s,end_s,pstate,PAPI_TOT_INS,PAPI_L3_TCM\n";
  double time = 0;
  for (size_t p = 0; p < 2; ++p)
    for (int i = 0; i < 1000; ++i, time += 0.1) {
      const double r1 = ins(rng), r2 = miss(rng);
      const double watts = t.p_static[p] + t.c[p][0] * r1 + t.c[p][1] * r2;
      for (int s = 0; s < 10; ++s)
        power << time + s * 0.01 << ',' << watts + watt_noise(rng) << '\n';
      counters << time << ',' << time + 0.1 << ',' << p << ',' << r1 * 0.1 * count_noise(rng) << ','
               << r2 * 0.1 * count_noise(rng) << '\n';
    }
  power << time << ",50\n";
  power_csv    = power.str();
  counters_csv = counters.str();
}

} // namespace

TEST(CounterFit, RecoversKnownCoefficientsWithinOnePercent)
{
  const Truth t;
  std::string power, counters;
  synthetic(t, power, counters, 20261124);
  const auto fit = fit_counter_model(parse_power_log(power, "p.csv"), parse_counter_samples(counters, "c.csv"), "fit");
  ASSERT_EQ(fit.pstates.size(), 2u);
  EXPECT_EQ(fit.events, (std::vector<std::string>{"PAPI_TOT_INS", "PAPI_L3_TCM"}));
  for (size_t p = 0; p < 2; ++p) {
    const auto& f = fit.pstates[p];
    EXPECT_NEAR(f.p_static, t.p_static[p], 0.01 * t.p_static[p]) << p;
    for (size_t k = 0; k < 2; ++k)
      EXPECT_NEAR(f.coefficients[k], t.c[p][k], 0.01 * t.c[p][k]) << p << " " << k;
    EXPECT_EQ(f.fitted, 800u);
    EXPECT_EQ(f.held_out, 200u);
    EXPECT_GT(f.r2, 0.99);
    EXPECT_LT(f.held_out_rms_w, 0.5); // the interval means carry about 0.16 W of noise
  }
  EXPECT_EQ(fit.skipped, 0u);
}

TEST(CounterFit, MeanPowerIntegratesTheLog)
{
  const auto log = parse_power_log("time,watts\n0,10\n1,20\n3,0\n", "p.csv");
  EXPECT_DOUBLE_EQ(mean_power(log, 0.5, 1.5), 15);
  EXPECT_DOUBLE_EQ(mean_power(log, 0, 3), 50.0 / 3);
}

namespace {

std::string refusal(const std::string& power, const std::string& counters)
{
  try {
    fit_counter_model(parse_power_log(power, "p.csv"), parse_counter_samples(counters, "c.csv"), "fit");
  } catch (const haec::InputError& e) {
    return e.what();
  }
  return "accepted";
}

std::string rows(int n, const std::function<std::string(int)>& row)
{
  std::string s = "start_s,end_s,pstate,A,B\n";
  for (int i = 0; i < n; ++i)
    s += row(i) + "\n";
  return s;
}

const std::string kLog = "time,watts\n0,10\n100,10\n";

} // namespace

TEST(CounterFit, RefusesWhatItCannotDetermine)
{
  auto varied = [](int i) {
    return std::to_string(i) + "," + std::to_string(i + 1) + ",0," + std::to_string(i % 3) + "," + std::to_string(i % 7);
  };
  EXPECT_NE(refusal(kLog, rows(2, varied)).find("2 fitted intervals for 3 unknowns"), std::string::npos);
  EXPECT_NE(refusal(kLog, rows(20, [](int i) { return std::to_string(i) + "," + std::to_string(i + 1) + ",0," +
                                                        std::to_string(i) + ",0"; }))
                .find("event B is never counted in pstate 0"),
            std::string::npos);
  // B = 2 A: the samples cannot separate them.
  EXPECT_NE(refusal(kLog, rows(20, [](int i) { return std::to_string(i) + "," + std::to_string(i + 1) + ",0," +
                                                        std::to_string(i) + "," + std::to_string(2 * i); }))
                .find("cannot tell the events apart"),
            std::string::npos);
  EXPECT_NE(refusal("time,watts\n200,10\n300,10\n", rows(20, varied)).find("does not cover any counter interval"),
            std::string::npos);
  EXPECT_NE(refusal(kLog, rows(20, [&](int i) { return i < 10 ? varied(i) : varied(i).replace(varied(i).find(",0,"), 3, ",2,"); }))
                .find("pstate 1 has no interval"),
            std::string::npos);
  EXPECT_EQ(refusal(kLog, rows(20, varied)), "accepted");
}

TEST(CounterFit, BadSampleFilesAreRefusedWithTheirLine)
{
  auto bad = [](const std::string& text) {
    try {
      parse_counter_samples(text, "c.csv");
    } catch (const haec::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(bad("time,watts\n").find("c.csv: header is not"), std::string::npos);
  EXPECT_NE(bad("start_s,end_s,pstate,A,A\n").find("twice"), std::string::npos);
  EXPECT_NE(bad("start_s,end_s,pstate,A\n1,1,0,5\n").find("c.csv:2: end_s 1 is not after"), std::string::npos);
  EXPECT_NE(bad("start_s,end_s,pstate,A\n0,1,0,-5\n").find("c.csv:2: count -5"), std::string::npos);
  EXPECT_NE(bad("start_s,end_s,pstate,A\n0,1,0\n").find("c.csv:2"), std::string::npos);
  EXPECT_NE(bad("start_s,end_s,pstate,A\n").find("holds no interval"), std::string::npos);
}
