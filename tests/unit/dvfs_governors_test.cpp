// Factory, parameters and the load-based governors, decisions hand-computed on taurus-8.
#include "dvfs_test_support.hpp"
#include "input_error.hpp"
#include "load_governors.hpp"

#include <gtest/gtest.h>

using namespace haec::dvfs;
using dvfs_test::taurus8;

namespace {
std::string error_of(const std::string& name, const GovernorParams& p, const HostModel& h)
{
  try {
    make_governor(name, p, h, "gov");
  } catch (const haec::InputError& e) {
    return e.what();
  }
  return "(no error)";
}
} // namespace

TEST(DvfsTable, OrdersBySpeedNotByIndex)
{
  PstateTable t(taurus8(12, true), "t"); // index 0 is 1.2 GHz here
  EXPECT_EQ(t.fastest(), 11);
  EXPECT_EQ(t.slowest(), 0);
  EXPECT_EQ(t.pstate(1), 10);
  EXPECT_EQ(t.level(11), 0);
  auto perf = make_governor("performance", {}, taurus8(12, true));
  EXPECT_EQ(perf->initial_pstate(), 11);
  auto save = make_governor("powersave", {}, taurus8(12, true));
  EXPECT_EQ(save->initial_pstate(), 0);
  // ondemand at load 0.5 on the reversed table: 1.8 GHz is index 6
  OndemandGovernor od(PstateTable(taurus8(12, true), "t"), 0.8);
  EXPECT_EQ(od.target(0.5), 6);
}

TEST(DvfsTable, AllowedRangeRestrictsChoices)
{
  GovernorParams p;
  p.min_pstate = 2; // 2.1 GHz
  p.max_pstate = 9; // 1.4 GHz
  EXPECT_EQ(make_governor("performance", p, taurus8())->initial_pstate(), 2);
  EXPECT_EQ(make_governor("powersave", p, taurus8())->initial_pstate(), 9);
  auto od = make_governor("ondemand", p, taurus8());
  // load 0.5 in 1.4..2.1 GHz: 1.75 GHz -> 1.8 GHz (index 5)
  EXPECT_EQ(od->on_sample(0.5).pstate, 5);
  EXPECT_EQ(od->on_sample(0.0).pstate, 9);
  EXPECT_EQ(od->on_sample(0.9).pstate, 2);
}

TEST(DvfsFactory, NamesAndErrors)
{
  const auto& names = governor_names();
  ASSERT_EQ(names.size(), 8u);
  for (auto const& n : names)
    EXPECT_EQ(make_governor(n, {}, taurus8())->name(), n);
  EXPECT_EQ(error_of("fast", {}, taurus8()),
            "gov: unknown governor 'fast'; use one of performance, powersave, ondemand, conservative, adagio, "
            "adagio-improved, lagrange, mix");
  GovernorParams p;
  p.max_pstate = 12;
  EXPECT_EQ(error_of("ondemand", p, taurus8()),
            "gov: allowed pstate range 0..12 is outside the host's 12 pstates; give 0 <= min <= max < 12");
  p            = {};
  p.min_pstate = 5;
  p.max_pstate = 4;
  EXPECT_NE(error_of("ondemand", p, taurus8()).find("range 5..4 is outside"), std::string::npos);
  p        = {};
  p.period = 0;
  EXPECT_EQ(error_of("ondemand", p, taurus8()),
            "gov: sampling period 0 is not positive; give a period in seconds, e.g. 0.1");
  p              = {};
  p.up_threshold = 1.5;
  EXPECT_EQ(error_of("ondemand", p, taurus8()),
            "gov: up threshold 1.5 is outside (0,1]; give a load fraction, e.g. 0.8");
  p                = {};
  p.down_threshold = 0;
  EXPECT_NE(error_of("conservative", p, taurus8()).find("down threshold 0 is outside (0,1]"), std::string::npos);
  p               = {};
  p.adagio_factor = 0.9;
  EXPECT_NE(error_of("adagio-improved", p, taurus8()).find("adagio factor 0.9 is below 1"), std::string::npos);
  p             = {};
  p.adagio_step = -1;
  EXPECT_NE(error_of("adagio-improved", p, taurus8()).find("adagio step -1 is negative"), std::string::npos);
  p                 = {};
  p.lagrange_memory = 0;
  EXPECT_NE(error_of("lagrange", p, taurus8()).find("lagrange memory 0 is below 1"), std::string::npos);
  HostModel bare = taurus8();
  bare.power     = {};
  EXPECT_EQ(error_of("mix", {}, bare), "gov: governor mix needs the host's power profile; give the host "
                                       "wattage_per_state (or haec:wattage_calibration)");
  EXPECT_EQ(error_of("lagrange", {}, bare).substr(0, 41), "gov: governor lagrange needs the host's p");
  EXPECT_EQ(error_of("adagio", {}, bare), "(no error)"); // Adagio needs no power model
}

TEST(DvfsFactory, ParamString)
{
  GovernorParams p;
  apply_params(p, "rho=5, overlay=0.9,mix-margin=0.05, lagrange_thesis=1,lagrange_premise=1,lagrange_growth=0,adagio_step=3,min_pstate=1,lagrange_memory=16", "params");
  EXPECT_EQ(p.rho, 5);
  EXPECT_EQ(p.overlay, 0.9);
  EXPECT_EQ(p.mix_margin, 0.05);
  EXPECT_TRUE(p.lagrange_thesis);
  EXPECT_TRUE(p.lagrange_premise);
  EXPECT_FALSE(p.lagrange_growth);
  EXPECT_EQ(p.adagio_step, 3);
  EXPECT_EQ(GovernorParams{}.adagio_step, 1);
  EXPECT_TRUE(GovernorParams{}.lagrange_growth);
  EXPECT_EQ(p.lagrange_memory, 16);
  EXPECT_EQ(GovernorParams{}.lagrange_memory, 1); // the last iteration only (README)
  EXPECT_EQ(p.min_pstate, 1);
  try {
    apply_params(p, "speed=3", "params");
    FAIL();
  } catch (const haec::InputError& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, 34), "params: unknown parameter 'speed';");
  }
  EXPECT_THROW(apply_params(p, "rho=abc", "params"), haec::InputError);
  EXPECT_THROW(apply_params(p, "rho", "params"), haec::InputError);
}

// Listing 2 with real arithmetic: freq = 1.2 + load * 1.1 GHz, rounded up to a pstate.
TEST(DvfsOndemand, ProportionalToLoad)
{
  auto g = make_governor("ondemand", {}, taurus8());
  EXPECT_TRUE(g->samples_load());
  EXPECT_EQ(g->on_sample(0.5).pstate, 5);  // 1.75 GHz -> 1.8 GHz
  EXPECT_EQ(g->on_sample(0.3).pstate, 7);  // 1.53 GHz -> 1.6 GHz
  EXPECT_EQ(g->on_sample(0.8).pstate, 2);  // not above 0.8: 2.08 GHz -> 2.1 GHz
  EXPECT_EQ(g->on_sample(0.81).pstate, 0); // above: fastest
  EXPECT_EQ(g->on_sample(0.0).pstate, 11);
  EXPECT_EQ(g->on_sample(1.0).pstate, 0);
  // SimGrid 3.32 (host_dvfs.cpp): max - (unsigned long)(load) * (max + 1) = 11 for any load < 1.
  const unsigned long max = 11;
  EXPECT_EQ(max - static_cast<unsigned long>(0.5) * (max + 1), 11u);
}

TEST(DvfsConservative, OneStepAtATime)
{
  auto g = make_governor("conservative", {}, taurus8());
  EXPECT_EQ(g->on_sample(0.1).pstate, 1); // below 0.2: one slower
  g->on_pstate_changed(1);
  EXPECT_EQ(g->on_sample(0.1).pstate, 2);
  g->on_pstate_changed(2);
  EXPECT_TRUE(g->on_sample(0.5).keeps()); // in between: keep
  EXPECT_EQ(g->on_sample(0.9).pstate, 1); // above 0.8: one faster
  g->on_pstate_changed(0);
  EXPECT_EQ(g->on_sample(0.9).pstate, 0); // already fastest
  g->on_pstate_changed(11);
  EXPECT_EQ(g->on_sample(0.0).pstate, 11); // already slowest
}

TEST(DvfsFixed, PerformanceAndPowersaveNeverMove)
{
  auto perf = make_governor("performance", {}, taurus8());
  auto save = make_governor("powersave", {}, taurus8());
  EXPECT_EQ(perf->initial_pstate(), 0);
  EXPECT_EQ(save->initial_pstate(), 11);
  EXPECT_FALSE(perf->samples_load());
  EXPECT_TRUE(perf->on_task_start(1, 1e9).keeps());
  EXPECT_TRUE(save->on_iteration({0, 1e9, 1, 0.5, 1.5}).keeps());
}
