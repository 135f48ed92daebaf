// The coordinated plan's program solved as a minimum-cost circulation (plan_flow.hpp): hand-computed
// cases, and the exact linear program (plan_lp.hpp, GLPK) on random small programs.
#include "dvfs_test_support.hpp"
#include "plan_flow.hpp"
#include "plan_horizon.hpp"
#include "plan_lp.hpp"
#include "plan_pstates.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

using namespace haec::dvfs;

namespace {

std::vector<PlanLevel> two_levels(double slow_watts) { return {{1.0, 100.0}, {2.0, slow_watts}}; }

// As DvfsPlan.FloatGoesToTheCheaperSlowing: A (rank 0, 1 s of work) sends to B (rank 1, 1 s) with
// 0.5 s on the network, both due by 3 s. Slowing A saves 40 J per second (100 J at 1 s, 60 J at
// 2 s), B 20 J: A takes the 0.5 s of float (80 J), B races (100 J).
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

// Levels (seconds per work, watts): energy per second of work 100 J at 1, 75 J at 1.25, 60 J at 2;
// 84 J at 1.5 lies above the chord (70 J) and 75 J at 3 is dearer than at 2: neither is on the curve.
std::vector<PlanLevel> kinked_levels() { return {{1.0, 100.0}, {1.5, 56.0}, {1.25, 60.0}, {2.0, 30.0}, {3.0, 25.0}}; }

double energy(const PlanProblem& p, const std::vector<double>& seconds)
{
  double e = 0;
  for (size_t k = 0; k < p.tasks.size(); ++k)
    e += curve_energy(energy_curve(p.levels[p.tasks[k].rank]), p.tasks[k].work, seconds[k]);
  return e;
}

} // namespace

TEST(DvfsPlanFlow, EnergyCurveIsTheLowerHullDownToTheCheapest)
{
  const auto c = energy_curve(kinked_levels());
  ASSERT_EQ(c.size(), 3u);
  EXPECT_DOUBLE_EQ(c[0].stretch, 1.0);
  EXPECT_DOUBLE_EQ(c[0].energy, 100.0);
  EXPECT_DOUBLE_EQ(c[1].stretch, 1.25);
  EXPECT_DOUBLE_EQ(c[1].energy, 75.0);
  EXPECT_DOUBLE_EQ(c[2].stretch, 2.0);
  EXPECT_DOUBLE_EQ(c[2].energy, 60.0);
  // 2 s of work in 2.5 s: stretch 1.25, 150 J; in 3 s: stretch 1.5, a third of the way to 2: 70 J a second.
  EXPECT_NEAR(curve_energy(c, 2, 2.5), 150.0, 1e-12);
  EXPECT_NEAR(curve_energy(c, 2, 3.0), 140.0, 1e-12);
  // A slower level that costs more: racing is the cheapest, the curve is one point.
  EXPECT_EQ(energy_curve({{1.0, 100.0}, {2.0, 40.0}, {1.5, 70.0}}).size(), 2u); // 105 J at 1.5: above
  EXPECT_EQ(energy_curve({{1.0, 50.0}, {2.0, 30.0}}).size(), 1u);               // 60 J at 2: dearer
}

TEST(DvfsPlanFlow, FloatGoesToTheCheaperSlowing)
{
  const auto s = flow_plan(message_between_two_ranks());
  ASSERT_TRUE(s.has_value());
  EXPECT_NEAR((*s)[0], 1.5, 1e-6);
  EXPECT_NEAR((*s)[1], 1.0, 1e-6);
  EXPECT_NEAR(energy(message_between_two_ranks(), *s), 180.0, 1e-4);
}

TEST(DvfsPlanFlow, AFixedComputationLeavesTheFloatToTheOther)
{
  PlanProblem p    = message_between_two_ranks();
  p.tasks[0].fixed = 1;
  const auto s     = flow_plan(p);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ((*s)[0], 1.0);
  EXPECT_NEAR((*s)[1], 1.5, 1e-6);
}

TEST(DvfsPlanFlow, NoPlanWhenTheDueCannotBeMet)
{
  PlanProblem p  = message_between_two_ranks();
  p.tasks[1].due = 2.4; // racing, B ends at 2.5
  EXPECT_FALSE(flow_plan(p).has_value());
  p.tasks[1].due = 2.5; // met exactly racing: a plan, racing
  const auto s   = flow_plan(p);
  ASSERT_TRUE(s.has_value());
  EXPECT_NEAR((*s)[0], 1.0, 1e-6);
  EXPECT_NEAR((*s)[1], 1.0, 1e-6);
}

// Two computations of 1 s of work one after the other on a rank, 0.5 s of float to share. The
// first quarter second of each slowing saves 100 J per second, beyond it 20 J: each takes 0.25 s
// (75 + 75 = 150 J); one taking the whole float would cost 70 + 100 = 170 J.
TEST(DvfsPlanFlow, ConvexCurveSplitsTheFloatAtTheKink)
{
  PlanProblem p;
  p.levels = {kinked_levels()};
  PlanTask first, second;
  first.work = second.work = 1;
  second.due               = 2.5;
  p.tasks                  = {first, second};
  p.edges                  = {PlanEdge{0, 1, 0.0}};
  const auto s             = flow_plan(p);
  ASSERT_TRUE(s.has_value());
  EXPECT_NEAR((*s)[0], 1.25, 1e-6);
  EXPECT_NEAR((*s)[1], 1.25, 1e-6);
  EXPECT_NEAR(energy(p, *s), 150.0, 1e-4);
}

namespace {

// A random program: `ranks` ranks with taurus-8's levels (or a random subset of them), `per_rank`
// computations each in sequence, messages from earlier computations of other ranks, some fixed,
// every rank's last computation due by its racing end plus a random float (none for some).
PlanProblem random_program(std::mt19937& rng, size_t ranks, size_t per_rank)
{
  const auto all = plan_levels(PstateTable(dvfs_test::taurus8(12), "t"));
  std::uniform_real_distribution<double> u(0, 1);
  PlanProblem p;
  for (size_t r = 0; r < ranks; ++r) {
    std::vector<PlanLevel> levels;
    for (auto const& l : all)
      if (levels.empty() || u(rng) < 0.6)
        levels.push_back(l);
    p.levels.push_back(levels);
  }
  for (size_t i = 0; i < per_rank; ++i)
    for (size_t r = 0; r < ranks; ++r) {
      PlanTask t;
      t.rank     = r;
      t.work     = 0.05 + u(rng);
      t.earliest = i == 0 ? 10 * u(rng) : 0;
      if (u(rng) < 0.1)
        t.fixed = t.work * (1 + 0.5 * u(rng));
      const size_t k = p.tasks.size();
      if (i > 0)
        p.edges.push_back(PlanEdge{k - ranks, k, 0.01 * u(rng)});
      for (size_t from = 0; from + ranks < k; ++from) // earlier computations of other ranks
        if (p.tasks[from].rank != r && u(rng) < 2.0 / static_cast<double>(k))
          p.edges.push_back(PlanEdge{from, k, 0.2 * u(rng)});
      p.tasks.push_back(t);
    }
  // Racing ends (the tasks are in topological order), then the dues.
  std::vector<double> end(p.tasks.size());
  for (size_t k = 0; k < p.tasks.size(); ++k) {
    double start = p.tasks[k].earliest;
    for (auto const& e : p.edges)
      if (e.to == k)
        start = std::max(start, end[e.from] + e.delay);
    end[k] = start + (p.tasks[k].fixed >= 0 ? p.tasks[k].fixed : p.tasks[k].work);
  }
  for (size_t k = p.tasks.size() - ranks; k < p.tasks.size(); ++k)
    if (u(rng) < 0.9)
      p.tasks[k].due = end[k] + (u(rng) < 0.2 ? 0.0 : 2 * u(rng));
  return p;
}

// The latest end of a plan's schedule past its due (<= 0: every due met).
double worst_lateness(const PlanProblem& p, const std::vector<double>& seconds)
{
  std::vector<double> end(p.tasks.size());
  double worst = -1e300;
  for (size_t k = 0; k < p.tasks.size(); ++k) {
    double start = p.tasks[k].earliest;
    for (auto const& e : p.edges)
      if (e.to == k)
        start = std::max(start, end[e.from] + e.delay);
    end[k] = start + seconds[k];
    if (std::isfinite(p.tasks[k].due))
      worst = std::max(worst, end[k] - p.tasks[k].due);
  }
  return worst;
}

} // namespace

// 200 random programs of 2-6 ranks x 1-5 computations: the flow's energy is the linear program's
// (within 1e-6 relative: the flow counts times in 1e-9 of the span and watts in 1e-4 of the
// steepest slope), its schedule meets every due, and fixed computations keep their seconds.
TEST(DvfsPlanFlow, SameEnergyAsTheLinearProgram)
{
  std::mt19937 rng(12345);
  int glpk_refused = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const PlanProblem p = random_program(rng, 2 + trial % 5, 1 + trial % 5);
    const auto lp       = solve_plan(p);
    const auto flow     = flow_plan(p);
    if (!lp) { // GLPK may find a due met exactly racing infeasible (its tolerances): racing then
      if (flow) {
        std::vector<double> racing;
        for (auto const& t : p.tasks)
          racing.push_back(t.fixed >= 0 ? t.fixed : t.work);
        EXPECT_LE(worst_lateness(p, racing), 1e-9) << "trial " << trial;
        ++glpk_refused;
      }
      continue;
    }
    ASSERT_TRUE(flow.has_value()) << "trial " << trial;
    std::vector<double> lp_seconds;
    double lp_energy = 0;
    for (size_t k = 0; k < p.tasks.size(); ++k) {
      lp_seconds.push_back(std::accumulate((*lp)[k].begin(), (*lp)[k].end(), 0.0));
      for (size_t l = 0; l < (*lp)[k].size(); ++l)
        lp_energy += (*lp)[k][l] * p.levels[p.tasks[k].rank][l].extra_watts;
      if (p.tasks[k].fixed >= 0) {
        EXPECT_EQ((*flow)[k], p.tasks[k].fixed);
      }
      EXPECT_GE((*flow)[k], p.tasks[k].work);
    }
    EXPECT_NEAR(energy(p, *flow), lp_energy, 1e-6 * lp_energy) << "trial " << trial;
    EXPECT_LE(worst_lateness(p, *flow), 1e-7) << "trial " << trial;
  }
  EXPECT_LE(glpk_refused, 5);
}

TEST(DvfsPlanFlow, SolverByName)
{
  EXPECT_EQ(HorizonPlanner::solver("flow"), HorizonPlanner::Solver::flow);
  EXPECT_EQ(HorizonPlanner::solver("lp"), HorizonPlanner::Solver::lp);
  EXPECT_EQ(HorizonPlanner::solver("fill"), HorizonPlanner::Solver::fill);
  EXPECT_THROW(HorizonPlanner::solver("simplex"), std::invalid_argument);
}
