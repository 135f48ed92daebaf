// Counter-based node power (plugins/power/model/counter_model.hpp, docs/MODELS.md §9) against
// hand-computed values, and its integration by the energy meter.
#include "counter_model.hpp"
#include "energy_meter.hpp"
#include "input_error.hpp"

#include <gtest/gtest.h>

using namespace haec::power;

namespace {

// Two events, two pstates: 1 Gf and 0.5 Gf per core.
CounterCoefficients two_events()
{
  return CounterCoefficients({"PAPI_TOT_INS", "PAPI_L3_TCM"}, {{50, {2e-9, 1e-6}}, {40, {1.5e-9, 0.8e-6}}});
}

} // namespace

TEST(CounterModel, PowerIsStaticPlusCoefficientsTimesRates)
{
  const auto c = two_events();
  EXPECT_DOUBLE_EQ(c.watts(0, {0, 0}), 50);
  // 3e9 instructions/s and 2e6 misses/s: 50 + 6 + 2 W.
  EXPECT_DOUBLE_EQ(c.watts(0, {3e9, 2e6}), 58);
  EXPECT_DOUBLE_EQ(c.watts(1, {3e9, 2e6}), 40 + 4.5 + 1.6);
}

TEST(CounterModel, RatesArePerFlopCountsAtTheCoreSpeed)
{
  CounterNodePower node(two_events(), {1e9, 0.5e9}, 2);
  EXPECT_DOUBLE_EQ(node.watts(0), 50); // nothing runs: P_static
  // 2e9 instructions and 1e6 misses over 1e9 flops: 1 s at 1 Gf, so 2e9 instr/s and 1e6 misses/s.
  node.start(1, {2.0, 1e-3});
  EXPECT_DOUBLE_EQ(node.rates(0)[0], 2e9);
  EXPECT_DOUBLE_EQ(node.watts(0), 50 + 4 + 1);
  // A second computation on the other core: rates add up.
  node.start(2, {1.0, 4e-3});
  EXPECT_DOUBLE_EQ(node.watts(0), 50 + 2e-9 * 3e9 + 1e-6 * 5e6);
  // At pstate 1 (half speed) the same work is spread over twice the time: half the rates.
  EXPECT_DOUBLE_EQ(node.watts(1), 40 + 1.5e-9 * 1.5e9 + 0.8e-6 * 2.5e6);
  node.end(1);
  EXPECT_DOUBLE_EQ(node.watts(0), 50 + 2 + 4);
  node.end(7); // not running: ignored
  EXPECT_EQ(node.running(), 1u);
}

TEST(CounterModel, OversubscribedCoresShareTheirSpeed)
{
  CounterNodePower node(two_events(), {1e9, 0.5e9}, 1);
  node.start(1, {2.0, 0});
  node.start(2, {2.0, 0});
  // Two computations on one core: each runs at 0.5 Gf, 1e9 instructions/s each.
  EXPECT_DOUBLE_EQ(node.rates(0)[0], 2e9);
}

TEST(CounterModel, MeterIntegratesPiecewise)
{
  HostEnergyMeter meter(HostPowerProfile({from_simgrid(10, 20, 30)}, 7, 1), 2, 0);
  meter.use_counter_model(CounterNodePower(two_events(), {1e9, 0.5e9}, 1));
  meter.advance(1);                       // idle 1 s at P_static 50 W
  meter.start_counted(1, {2.0, 0}, 1);    // 54 W
  meter.set_pstate(1, 3);                 // 2 s at 54 W, then 40 + 1.5e-9 * 1e9 = 41.5 W
  meter.end_counted(1, 4);                // 1 s at 41.5 W
  meter.set_on(false, 5);                 // 1 s at 40 W
  meter.advance(7);                       // 2 s off at 7 W
  EXPECT_DOUBLE_EQ(meter.energy_j(), 50 + 2 * 54 + 41.5 + 40 + 14);
  EXPECT_DOUBLE_EQ(meter.busy_s(), 3);
  EXPECT_DOUBLE_EQ(meter.idle_s(), 2);
  EXPECT_DOUBLE_EQ(meter.off_s(), 2);
}

TEST(CounterModel, CoefficientsFileRoundTrips)
{
  const auto c    = two_events();
  const auto back = CounterCoefficients::parse(c.to_json("{\"r2\": 0.99}"), "c.json");
  EXPECT_EQ(back.events(), c.events());
  ASSERT_EQ(back.pstates().size(), 2u);
  EXPECT_EQ(back.pstates()[1].coefficients, c.pstates()[1].coefficients);
  EXPECT_EQ(back.pstates()[0].p_static, 50);
  EXPECT_EQ(back.index_of("PAPI_L3_TCM"), 1);
  EXPECT_EQ(back.index_of("PAPI_FP_OPS"), -1);
}

TEST(CounterModel, BadCoefficientFilesAreRefused)
{
  auto refused = [](const std::string& text, const std::string& part) {
    try {
      CounterCoefficients::parse(text, "c.json");
    } catch (const haec::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("c.json: ", 0), 0u) << e.what();
      return;
    }
    ADD_FAILURE() << "accepted: " << text;
  };
  refused("{", "not valid JSON");
  refused("{\"events\": [\"A\"], \"pstates\": [], \"x\": 1}", "unknown key 'x'");
  refused("{\"events\": [], \"pstates\": [{\"p_static\": 1, \"coefficients\": []}]}", "no \"events\"");
  refused("{\"events\": [\"A\", \"A\"], \"pstates\": [{\"p_static\": 1, \"coefficients\": [1, 2]}]}", "listed twice");
  refused("{\"events\": [\"A\"], \"pstates\": []}", "no \"pstates\"");
  refused("{\"events\": [\"A\"], \"pstates\": [{\"p_static\": 1, \"coefficients\": [1, 2]}]}", "2 coefficients for 1");
  refused("{\"events\": [\"A\"], \"pstates\": [{\"p_static\": -1, \"coefficients\": [1]}]}", "p_static is not");
  refused("{\"events\": [\"A\"], \"pstates\": [{\"p_static\": 1, \"coefficients\": [\"x\"]}]}", "coefficient 0");
}

TEST(CounterModel, RunEventsMustMatchTheCoefficientsBothWays)
{
  const auto c = two_events();
  EXPECT_EQ(match_events(c, {"PAPI_L3_TCM", "PAPI_TOT_INS"}, "c.json"), (std::vector<size_t>{1, 0}));
  EXPECT_THROW(match_events(c, {"PAPI_TOT_INS"}, "c.json"), haec::InputError);
  EXPECT_THROW(match_events(c, {"PAPI_TOT_INS", "PAPI_L3_TCM", "PAPI_FP_OPS"}, "c.json"), haec::InputError);
  try {
    match_events(c, {"PAPI_TOT_INS", "X"}, "c.json");
  } catch (const haec::InputError& e) {
    EXPECT_STREQ(e.what(), "c.json: has no coefficient for event X, which the computations count; fit coefficients "
                           "for every recorded event (haec calibrate power --counters)");
  }
}
