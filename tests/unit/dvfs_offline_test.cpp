// The offline optimum and the window plans it rests on, hand-computed; the thesis's Figure 9.4
// reasoning (MODELS.md §4).
#include "dvfs_test_support.hpp"
#include "input_error.hpp"
#include "offline_optimum.hpp"
#include "window_plan.hpp"

#include <gtest/gtest.h>

using namespace haec::dvfs;
using dvfs_test::ghz;
using dvfs_test::taurus8;

namespace {
// taurus-7, NAS-EP on all cores (002 Table 9.1): the same power busy on any core count; idle 93.73.
HostModel taurus7()
{
  const double w[12] = {179.25, 172.12, 166.25, 160.81, 155.12, 150.00,
                        144.75, 140.68, 136.00, 132.38, 128.88, 125.25};
  HostModel h;
  std::vector<haec::power::PstatePower> p;
  for (int i = 0; i < 12; ++i) {
    h.speeds.push_back(ghz(i));
    p.push_back(haec::power::from_simgrid(93.73, w[i], w[i]));
  }
  h.power = haec::power::HostPowerProfile(p, 10, 12);
  return h;
}
} // namespace

// docs/MODELS.md §4: 1 s of 2300 MHz work at 1200 MHz costs 240.06 J against 179.25 J. With no idle
// time to fill (fully loaded node) the optimum keeps the top pstate; with 1.5 s of waiting
// after it (Figure 9.4) it slows down to 1200 MHz and saves.
TEST(DvfsOffline, Figure94)
{
  const std::vector<PstateTable> hosts{PstateTable(taurus7(), "t7")};
  auto full = offline_optimum(hosts, {{{1.0, 1.0, 0.0}}});
  EXPECT_EQ(full.single_pstate[0][0], 0);
  EXPECT_NEAR(full.performance_j, 179.25, 1e-9);
  EXPECT_NEAR(full.single_j, 179.25, 1e-9);
  EXPECT_NEAR(full.mix_j, 179.25, 1e-9);
  EXPECT_EQ(full.saving(full.mix_j), 0);

  auto slack = offline_optimum(hosts, {{{1.0, 2.5, 1.5}}});
  EXPECT_NEAR(slack.performance_j, 179.25 + 1.5 * 93.73, 1e-9); // 319.845 J, Case 1
  EXPECT_EQ(slack.single_pstate[0][0], 11);
  const double t12 = 2.3 / 1.2; // 1.91667 s
  EXPECT_NEAR(t12 * 125.25, 240.0625, 1e-9);
  EXPECT_NEAR(slack.single_j, t12 * 125.25 + (2.5 - t12) * 93.73, 1e-9); // 294.74 J
  EXPECT_NEAR(slack.mix_j, slack.single_j, 1e-9); // nothing slower to mix with
  EXPECT_NEAR(slack.saving(slack.single_j), 1 - (t12 * 125.25 + (2.5 - t12) * 93.73) / 319.845, 1e-12); // 7.85 %
}

// Two hosts, two iterations, taurus-8 at full load; each value by hand.
TEST(DvfsOffline, HandComputedTwoHosts)
{
  const HostModel h = taurus8();
  const std::vector<PstateTable> hosts{PstateTable(h, "a"), PstateTable(h, "b")};
  auto P = [&](int p) { return h.power.watts(p, 12); };
  auto I = [&](int p) { return h.power.watts(p, 0); };
  // host a: critical (no slack); host b: 1 s of work, 0.5 s of slack, then 0.1 s of transfers.
  auto r = offline_optimum(hosts, {{{1.5, 1.6, 0.0}, {1.5, 1.6, 0.0}}, {{1.0, 1.6, 0.5}, {1.0, 1.6, 0.5}}});
  const double perf_a = 2 * (1.5 * P(0) + 0.1 * I(0));
  const double perf_b = 2 * (1.0 * P(0) + 0.6 * I(0));
  EXPECT_NEAR(r.performance_j, perf_a + perf_b, 1e-9);
  // b, single: the slowest pstate within 1.5 s is 1.6 GHz (1.4375 s); 1.5 GHz needs 1.5333 s.
  EXPECT_EQ(r.single_pstate[1][0], 7);
  EXPECT_EQ(r.single_pstate[0][0], 0);
  const double single_b = 2 * (1.4375 * P(7) + (1.6 - 1.4375) * I(7));
  EXPECT_NEAR(r.single_j, perf_a + single_b, 1e-9);
  // b, mix: 1 s at 1.5 GHz then 0.5 s at 1.6 GHz ends exactly at 1.5 s; idle 0.1 s at 1.6 GHz.
  const double mix_b = 2 * (1.0 * P(8) + 0.5 * P(7) + 0.1 * I(7));
  EXPECT_LT(mix_b, single_b);
  EXPECT_NEAR(r.mix_j, perf_a + mix_b, 1e-9);
  // static: one pstate per host for both iterations gives the same here.
  EXPECT_NEAR(r.static_j, r.single_j, 1e-9);
  EXPECT_EQ(r.static_pstate[1], 7);
  EXPECT_NEAR(r.saving(r.mix_j), 1 - (perf_a + mix_b) / (perf_a + perf_b), 1e-12);
}

// Static versus per-iteration: slack in one iteration only; the static pstate must fit both.
TEST(DvfsOffline, StaticMustFitEveryIteration)
{
  const HostModel h = taurus8();
  const std::vector<PstateTable> hosts{PstateTable(h, "a")};
  auto r = offline_optimum(hosts, {{{1.0, 2.0, 1.0}, {1.0, 1.0, 0.0}}});
  EXPECT_EQ(r.static_pstate[0], 0);
  EXPECT_EQ(r.single_pstate[0][0], 11); // 1.9167 s <= 2 s
  EXPECT_EQ(r.single_pstate[0][1], 0);
  EXPECT_LT(r.single_j, r.static_j);
  EXPECT_NEAR(r.static_j, r.performance_j, 1e-9);
}

TEST(DvfsOffline, RefusesHostsWithoutPower)
{
  HostModel h = taurus8();
  h.power     = {};
  EXPECT_THROW(offline_optimum({PstateTable(h, "a")}, {{{1, 1, 0}}}), haec::InputError);
  EXPECT_THROW(offline_optimum({PstateTable(taurus8(), "a")}, {{{-1, 1, 0}}}), haec::InputError);
}

// The mix ends exactly with the window: work and time balance to 1e-12 over many windows.
TEST(DvfsWindowPlan, MixHitsTheTargetExactly)
{
  const PstateTable t(taurus8(), "t");
  const WindowPlan w = cheapest_plan(t, 2.3e9, 1.5);
  EXPECT_EQ(w.first, 8);  // 1.5 GHz first
  EXPECT_EQ(w.second, 7); // then 1.6 GHz
  EXPECT_NEAR(w.first_seconds, 1.0, 1e-12);
  EXPECT_NEAR(w.second_seconds, 0.5, 1e-12);
  int mixes = 0;
  for (int k = 0; k < 2000; ++k) {
    const double flops  = 1e8 + 7.3e6 * k;
    const double window = flops / 2.3e9 * (1.0 + 0.001 * (k % 997));
    const WindowPlan p  = cheapest_plan(t, flops, window);
    ASSERT_TRUE(p.fits);
    const double work = p.first_seconds * t.speed(p.first) + (p.second >= 0 ? p.second_seconds * t.speed(p.second) : 0);
    EXPECT_NEAR(work / flops, 1.0, 1e-12);
    if (p.second >= 0) {
      ++mixes;
      EXPECT_NEAR(p.busy_seconds() / window, 1.0, 1e-12);
      EXPECT_LT(t.speed(p.first), t.speed(p.second));
    } else {
      EXPECT_LE(p.first_seconds, window * (1 + 1e-12));
    }
  }
  EXPECT_GT(mixes, 1000);
}

// At one busy core of twelve, taurus-8 gains almost nothing from slowing (the excess power per
// GHz is flat): the plan weighs that exactly instead of assuming slower is cheaper.
TEST(DvfsWindowPlan, RaceToIdleWhenSlowingCostsMore)
{
  HostModel h = taurus8(1);
  // Make 1.2 GHz cost as much as 2.3 GHz when busy: racing to idle is then best.
  auto p = h.power.pstates();
  p[11]  = haec::power::from_simgrid(93.25, 174.38, 174.38);
  h.power = haec::power::HostPowerProfile(p, 10, 12);
  const PstateTable t(h, "t");
  const WindowPlan w = cheapest_plan(t, 2.3e9, 2.0);
  EXPECT_NE(w.first, 11);
  EXPECT_EQ(w.second, -1);
  // Without a fitting pstate: the fastest, flagged.
  const WindowPlan late = cheapest_plan(t, 2.3e9, 0.5);
  EXPECT_FALSE(late.fits);
  EXPECT_EQ(late.first, 0);
  EXPECT_NEAR(late.first_seconds, 1.0, 1e-15);
}
