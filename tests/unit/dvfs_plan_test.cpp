// The coordinated plan (lagrange_plan): the linear program (plan_lp.hpp) and the receding
// horizon over reported computations (plan_horizon.hpp), hand-computed.
#include "dvfs_test_support.hpp"
#include "plan_horizon.hpp"
#include "plan_lp.hpp"
#include "plan_pstates.hpp"

#include <gtest/gtest.h>

using namespace haec::dvfs;

namespace {

// Two levels: the fastest at 100 W beyond idle; half speed (2 s per second of work) at `slow_watts`.
std::vector<PlanLevel> two_levels(double slow_watts) { return {{1.0, 100.0}, {2.0, slow_watts}}; }

// Rank 0's computation A (1 s of work) sends a message (0.5 s on the network) to rank 1's B
// (1 s of work); both due by 3 s. Slowing A by d costs 100 - 40 d J (30 W at half speed), B
// 100 - 20 d (40 W): dA + 0.5 + dB <= 3, so A takes the 0.5 s of float: 1.5 s, 0.5 s at the
// fastest and 1 s at half speed; B races. 180 J in all.
PlanProblem message_between_two_ranks()
{
  PlanProblem p;
  p.levels = {two_levels(30), two_levels(40)};
  PlanTask a, b;
  a.rank = 0, a.work = 1, a.due = 3;
  b.rank = 1, b.work = 1, b.due = 3;
  p.tasks = {a, b};
  p.edges = {PlanEdge{0, 1, 0.5}};
  return p;
}

} // namespace

TEST(DvfsPlan, FloatGoesToTheCheaperSlowing)
{
  const auto s = solve_plan(message_between_two_ranks());
  ASSERT_TRUE(s.has_value());
  EXPECT_NEAR((*s)[0][0], 0.5, 1e-9);
  EXPECT_NEAR((*s)[0][1], 1.0, 1e-9);
  EXPECT_NEAR((*s)[1][0], 1.0, 1e-9);
  EXPECT_NEAR((*s)[1][1], 0.0, 1e-9);
}

TEST(DvfsPlan, AFixedComputationLeavesTheFloatToTheOther)
{
  PlanProblem p    = message_between_two_ranks();
  p.tasks[0].fixed = 1; // A already runs at the fastest: B gets the 0.5 s (0.5 s fast, 1 s at half speed)
  const auto s = solve_plan(p);
  ASSERT_TRUE(s.has_value());
  EXPECT_NEAR((*s)[0][0], 1.0, 1e-9);
  EXPECT_NEAR((*s)[0][1], 0.0, 1e-9);
  EXPECT_NEAR((*s)[1][0], 0.5, 1e-9);
  EXPECT_NEAR((*s)[1][1], 1.0, 1e-9);
}

TEST(DvfsPlan, NoPlanWhenTheDueCannotBeMet)
{
  PlanProblem p  = message_between_two_ranks();
  p.tasks[1].due = 2.4; // racing, B ends at 2.5
  EXPECT_FALSE(solve_plan(p).has_value());
}

namespace {

// Rank 0 computes 1 s per iteration back to back and sends it to rank 1, which computes 0.5 s
// and waits 0.5 s for the next message. Iterations 0..last reported.
HorizonPlanner pipeline_of_two(int horizon, double cap, size_t last,
                               size_t max_tasks = std::numeric_limits<size_t>::max(), size_t lookahead = 0,
                               size_t scale_ranks = 0)
{
  HorizonPlanner planner(horizon, cap, max_tasks, HorizonPlanner::Solver::flow, lookahead, scale_ranks);
  planner.rank_levels(0, two_levels(30));
  planner.rank_levels(1, two_levels(30));
  for (size_t it = 0; it <= last; ++it) {
    const double t = static_cast<double>(it);
    planner.computation(0, it, 0, t, t + 1, 1.0);
    planner.message(0, it, 1, it, 0.0);
    planner.computation(1, it, 0, t + 1, t + 1.5, 0.5);
  }
  return planner;
}

// The default solver (plan_flow.hpp) counts time in 1e-9 of the plan's span (a few seconds here).
constexpr double kPlanTolerance = 1e-7;

} // namespace

// After iteration 2: iteration 3 is under way (not planned), 4 and 5 are planned. Rank 0 is
// critical (stretch 1). Rank 1's computation of iteration 4 starts at 5 and may end by its racing
// end 5.5 plus cap x the racing iteration (1 s): 5.9 with cap 0.4, stretch 0.9 / 0.5 = 1.8; its
// last one (iteration 5) is due by its racing end: stretch 1 (without a lookahead; with it, below).
TEST(DvfsPlan, HorizonSlowsTheRankWithFloatWithinTheCap)
{
  HorizonPlanner planner = pipeline_of_two(2, 0.4, 2);
  ASSERT_TRUE(planner.plan_after(2));
  EXPECT_EQ(planner.plans(), 1u);
  EXPECT_LT(planner.stretch(1, 3, 0), 0); // under way
  EXPECT_NEAR(planner.stretch(0, 4, 0), 1.0, kPlanTolerance);
  EXPECT_NEAR(planner.stretch(1, 4, 0), 1.8, kPlanTolerance);
  EXPECT_NEAR(planner.stretch(1, 5, 0), 1.0, kPlanTolerance);
  EXPECT_LT(planner.stretch(1, 6, 0), 0); // beyond the horizon
}

// Without a cap rank 1 takes its whole wait in iteration 4: 1 s for 0.5 s of work, the next
// message arrives at 6, when its last computation must start to end by 6.5.
TEST(DvfsPlan, HorizonWithoutCapTakesTheWholeWait)
{
  HorizonPlanner planner = pipeline_of_two(2, -1, 2);
  ASSERT_TRUE(planner.plan_after(2));
  EXPECT_NEAR(planner.stretch(1, 4, 0), 2.0, kPlanTolerance);
  EXPECT_NEAR(planner.stretch(1, 5, 0), 1.0, kPlanTolerance);
}

// With a lookahead, rank 1's last planned computation (iteration 5, starting at 6) may end when
// its next computation must start for the lookahead's last one to end racing: rank 1 waits 0.5 s
// per iteration for rank 0, so at 7 s with one iteration of lookahead, as with three. 1 s for
// 0.5 s of work: stretch 2, the cheapest (60 J per second of work against 100 J racing).
// Iteration 4 keeps 1.8 (the cap), rank 0 (critical) races.
TEST(DvfsPlan, HorizonEndTakesTheFreeFloat)
{
  for (size_t lookahead : {1, 3}) {
    HorizonPlanner planner = pipeline_of_two(2, 0.4, 2, std::numeric_limits<size_t>::max(), lookahead);
    ASSERT_TRUE(planner.plan_after(2));
    EXPECT_NEAR(planner.stretch(0, 4, 0), 1.0, kPlanTolerance);
    EXPECT_NEAR(planner.stretch(0, 5, 0), 1.0, kPlanTolerance);
    EXPECT_NEAR(planner.stretch(1, 4, 0), 1.8, kPlanTolerance);
    EXPECT_NEAR(planner.stretch(1, 5, 0), 2.0, kPlanTolerance);
  }
}

// From scale_ranks ranks on, the plan covers one iteration more and the cap grows as
// cap x ranks / scale_ranks.
TEST(DvfsPlan, HorizonAndCapGrowWithTheRankCount)
{
  EXPECT_EQ(HorizonPlanner::scaled_horizon(3, 64, 16), 3);
  EXPECT_EQ(HorizonPlanner::scaled_horizon(3, 64, 64), 4);
  EXPECT_EQ(HorizonPlanner::scaled_horizon(3, 64, 1024), 4);
  EXPECT_EQ(HorizonPlanner::scaled_horizon(3, 0, 1024), 3); // as given
  EXPECT_DOUBLE_EQ(HorizonPlanner::scaled_cap(0.4, 64, 16), 0.4);
  EXPECT_DOUBLE_EQ(HorizonPlanner::scaled_cap(0.4, 64, 64), 0.4);
  EXPECT_DOUBLE_EQ(HorizonPlanner::scaled_cap(0.4, 64, 256), 1.6);
  EXPECT_DOUBLE_EQ(HorizonPlanner::scaled_cap(0.4, 64, 1024), 6.4);
  EXPECT_DOUBLE_EQ(HorizonPlanner::scaled_cap(0.4, 0, 1024), 0.4); // as given
  EXPECT_DOUBLE_EQ(HorizonPlanner::scaled_cap(-1, 64, 1024), -1);  // no cap stays none
}

// The pipeline of two (2 ranks), horizon 2, cap 0.2. As given (scale_ranks 0): rank 1's
// computation of iteration 4 (starting at 5, racing end 5.5) may end by 5.7, stretch 0.7 / 0.5 =
// 1.4; iteration 5's, the last planned, races. Scaled from 2 ranks: horizon 3 (iterations 4-6),
// cap 0.2 x 1: 1.4 in iterations 4 and 5 (5's starts at 6, due 6.7), 1 in 6. Scaled from one rank:
// horizon 3, cap 0.2 x 2 = 0.4: 1.8, 1.8, 1. Rank 0 (critical) races throughout.
TEST(DvfsPlan, ScaledPlanCoversMoreAndTakesMoreFloat)
{
  struct Case {
    size_t scale_ranks;
    double s4, s5, s6; // rank 1's stretches (s6 < 0: not planned)
  };
  for (const Case c : {Case{0, 1.4, 1.0, -1}, Case{2, 1.4, 1.4, 1.0}, Case{1, 1.8, 1.8, 1.0}}) {
    HorizonPlanner planner = pipeline_of_two(2, 0.2, 2, std::numeric_limits<size_t>::max(), 0, c.scale_ranks);
    ASSERT_TRUE(planner.plan_after(2));
    EXPECT_NEAR(planner.stretch(0, 4, 0), 1.0, kPlanTolerance);
    EXPECT_NEAR(planner.stretch(1, 4, 0), c.s4, kPlanTolerance) << "scale_ranks " << c.scale_ranks;
    EXPECT_NEAR(planner.stretch(1, 5, 0), c.s5, kPlanTolerance) << "scale_ranks " << c.scale_ranks;
    if (c.s6 < 0)
      EXPECT_LT(planner.stretch(1, 6, 0), 0);
    else
      EXPECT_NEAR(planner.stretch(1, 6, 0), c.s6, kPlanTolerance) << "scale_ranks " << c.scale_ranks;
    EXPECT_LT(planner.stretch(1, 7, 0), 0);
  }
}

TEST(DvfsPlan, NoPlanWithoutTheIterationBefore)
{
  HorizonPlanner planner = pipeline_of_two(2, 0.4, 2);
  EXPECT_FALSE(planner.plan_after(0)); // no iteration -1
  EXPECT_FALSE(planner.plan_after(7)); // not reported
  EXPECT_EQ(planner.plans(), 0u);
  EXPECT_THROW(HorizonPlanner(0, 0.4), std::invalid_argument);
}

// Rank 1 starts 0.1 s after the message arrives (waiting for something the messages do not
// show, e.g. a blocking send's receiver): its end of iteration 2, 3.6 s, against 3.5 s in the
// racing schedule of the messages, is not explained, so no plan, ever.
TEST(DvfsPlan, RefusedWhereTheMessagesDoNotExplainTheSchedule)
{
  HorizonPlanner planner(2, 0.4);
  planner.rank_levels(0, two_levels(30));
  planner.rank_levels(1, two_levels(30));
  for (size_t it = 0; it <= 3; ++it) {
    const double t = static_cast<double>(it);
    planner.computation(0, it, 0, t, t + 1, 1.0);
    planner.message(0, it, 1, it, 0.0);
    planner.computation(1, it, 0, t + 1.1, t + 1.6, 0.5);
  }
  EXPECT_FALSE(planner.plan_after(2));
  EXPECT_TRUE(planner.refused());
  EXPECT_FALSE(planner.plan_after(3));
  EXPECT_EQ(planner.plans(), 0u);
  EXPECT_LT(planner.stretch(1, 4, 0), 0);
}

TEST(DvfsPlan, ExplainedScheduleIsPlanned)
{
  HorizonPlanner planner = pipeline_of_two(2, 0.4, 2);
  EXPECT_TRUE(planner.plan_after(2));
  EXPECT_FALSE(planner.refused());
}

// A computation with more work than the plan predicted keeps the planned seconds: rank 1's 0.5 s
// of work planned at 1.8 (0.9 s), now 0.6 s: 1.5; 1 s of work: 0.9 s are not enough, it races
// (1). Less work keeps the stretch.
TEST(DvfsPlan, MoreWorkThanPredictedKeepsThePlannedSeconds)
{
  HorizonPlanner planner = pipeline_of_two(2, 0.4, 2);
  ASSERT_TRUE(planner.plan_after(2));
  EXPECT_NEAR(planner.stretch(1, 4, 0, 0.6), 1.5, kPlanTolerance);
  EXPECT_NEAR(planner.stretch(1, 4, 0, 1.0), 1.0, kPlanTolerance);
  EXPECT_NEAR(planner.stretch(1, 4, 0, 0.4), 1.8, kPlanTolerance);
}

// Rank 0's computation of iteration 3 ends 0.1 s late (4.1 s): the run's lag grew since the last
// plan, so the next one plans no lateness. Rank 1's computation of iteration 5 starts at 6.1 s
// (rank 0 stays 0.1 s late) and is due by 6.6 s, racing from that state: stretch 1 (with the cap,
// 6.5 + 0.4: it would take 1.6).
TEST(DvfsPlan, NoLatenessPlannedAfterTheRunsLagGrew)
{
  HorizonPlanner planner = pipeline_of_two(2, 0.4, 2);
  ASSERT_TRUE(planner.plan_after(2));
  planner.computation(0, 3, 0, 3, 4.1, 1.0);
  planner.message(0, 3, 1, 3, 0.0);
  planner.computation(1, 3, 0, 4.1, 4.6, 0.5);
  ASSERT_TRUE(planner.plan_after(3));
  EXPECT_NEAR(planner.stretch(1, 5, 0), 1.0, kPlanTolerance);
  // On time, the same plan takes the cap: 1.8.
  HorizonPlanner on_time = pipeline_of_two(2, 0.4, 3);
  ASSERT_TRUE(on_time.plan_after(2));
  ASSERT_TRUE(on_time.plan_after(3));
  EXPECT_NEAR(on_time.stretch(1, 5, 0), 1.8, kPlanTolerance);
}

// Two ranks with one computation each per iteration, horizon 2: a plan holds the iteration under
// way and the two planned, 6 computations. A limit of 5 refuses it for good (the adapter races),
// a limit of 6 plans.
TEST(DvfsPlan, TooLargeAPlanIsRefused)
{
  HorizonPlanner small = pipeline_of_two(2, 0.4, 3, 5);
  EXPECT_FALSE(small.plan_after(2));
  EXPECT_TRUE(small.too_large());
  EXPECT_TRUE(small.refused());
  EXPECT_FALSE(small.plan_after(3));
  EXPECT_EQ(small.plans(), 0u);
  HorizonPlanner fits = pipeline_of_two(2, 0.4, 3, 6);
  EXPECT_TRUE(fits.plan_after(2));
  EXPECT_FALSE(fits.too_large());
}

// taurus-8 priced at all cores (docs/MODELS.md §4): 2.3 GHz 174.38 W busy, 92.75 W idle; 1.2 GHz
// 123.62 W busy. The plan prices the fastest level at 174.38 - 92.75 = 81.63 W for 1 s per second
// of work, the slowest at 123.62 - 92.75 = 30.87 W for 2.3 / 1.2 s.
TEST(DvfsPlan, LevelsFromThePstateTable)
{
  const PstateTable t(dvfs_test::taurus8(12), "t");
  const auto levels = plan_levels(t);
  ASSERT_EQ(levels.size(), 12u);
  EXPECT_NEAR(levels[0].seconds_per_work, 1.0, 1e-12);
  EXPECT_NEAR(levels[0].extra_watts, 81.63, 1e-9);
  EXPECT_NEAR(levels[11].seconds_per_work, 2.3 / 1.2, 1e-12);
  EXPECT_NEAR(levels[11].extra_watts, 30.87, 1e-9);
}

// No stretch, or no work: race at the fastest pstate (index 0 here), nothing timed. Stretched twice
// (2 s for 2.3 Gflop): the slowest pstate alone, 1.2 GHz busy 1.917 s then idle 0.083 s, 244.7 J,
// is the cheapest (1.3 GHz 1.769 s busy at 127 W then idle at 93 W: 246.2 J).
TEST(DvfsPlan, StretchToPstates)
{
  const PstateTable t(dvfs_test::taurus8(12), "t");
  for (const Plan& race : {stretched_plan(t, 2.3e9, 1.0), stretched_plan(t, 0, 2.0), stretched_plan(t, 2.3e9, -1)}) {
    EXPECT_EQ(race.pstate, 0);
    EXPECT_EQ(race.then_pstate, -1);
  }
  const Plan slowest = stretched_plan(t, 2.3e9, 2.0);
  EXPECT_EQ(slowest.pstate, 11);
  EXPECT_EQ(slowest.then_pstate, -1);
  EXPECT_EQ(slowest.first_seconds, 0);
}
