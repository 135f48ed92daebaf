// Lagrange (002 §9.3.2): step (1)'s objective hand-computed, convergence on a 2-node toy to the
// pstates a brute force over all 144 pairs gives, and the thesis's literal variant diverging.
#include "dvfs_test_support.hpp"
#include "lagrange.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

using namespace haec::dvfs;
using dvfs_test::ghz;
using dvfs_test::taurus8;

TEST(DvfsLagrange, ObjectiveHandComputed)
{
  const HostModel h = taurus8(); // busy = all cores
  LagrangeGovernor g(PstateTable(h, "t"), 10, 0.95, false);
  LagrangeGovernor::State st;
  st.started = true;
  st.t       = 1.0;
  const double P0 = h.power.watts(0, 12), I0 = h.power.watts(0, 0);
  const double P7 = h.power.watts(7, 12), P6 = h.power.watts(6, 12), I6 = h.power.watts(6, 0);
  EXPECT_NEAR(P0, 174.38, 1e-9);
  EXPECT_NEAR(I0, 92.75, 1e-12);
  // W = 2.3 Gflop, s = 0.95 * 1.5 = 1.425 s, t = 1, lambda = 0.
  // 2.3 GHz: 1 s busy, 0.425 s idle, no penalty.
  EXPECT_NEAR(g.objective(0, 2.3e9, 1.425, st), 174.38 + 0.425 * 92.75, 1e-9);
  // 1.7 GHz: 2.3/1.7 s busy, the rest of s idle, penalty 5 (2.3/1.7 - 1)^2.
  const double t6 = 2.3 / 1.7;
  EXPECT_NEAR(g.objective(6, 2.3e9, 1.425, st), t6 * P6 + (1.425 - t6) * I6 + 5 * (t6 - 1) * (t6 - 1), 1e-9);
  // 1.6 GHz: 1.4375 s > s: busy only.
  EXPECT_NEAR(g.objective(7, 2.3e9, 1.425, st), 1.4375 * P7 + 5 * 0.4375 * 0.4375, 1e-9);
  LagrangeGovernor thesis(PstateTable(h, "t"), 10, 0.95, true); // min(s, fW) * P_idle
  EXPECT_NEAR(thesis.objective(0, 2.3e9, 1.425, st), 174.38 + 1.0 * 92.75, 1e-9);
}

namespace {

// Two nodes; each iteration both compute (W[i] at their pstate), then exchange (c seconds) and
// wait for each other: duration D = max(tau) + c. Energy: busy at P_busy, idle to D at P_idle.
struct Toy {
  HostModel host = taurus8();
  double W[2]    = {4.37e9, 3.0e9}; // 1.9 s and 1.304 s at 2.3 GHz
  double c       = 0.12;
  double tau(int n, int p) const { return W[n] / ghz(p); }
  double duration(int pa, int pb) const { return std::max(tau(0, pa), tau(1, pb)) + c; }
  double energy(int pa, int pb) const
  {
    const double d = duration(pa, pb);
    double e       = 0;
    for (int n = 0; n < 2; ++n) {
      const int p = n == 0 ? pa : pb;
      e += tau(n, p) * host.power.watts(p, 12) + (d - tau(n, p)) * host.power.watts(p, 0);
    }
    return e;
  }
};

} // namespace

TEST(DvfsLagrange, TwoNodeToyConvergesToBruteForce)
{
  Toy toy;
  // Brute force: least energy per iteration without lengthening it.
  const double d_perf = toy.duration(0, 0);
  int best_a = 0, best_b = 0;
  double best = std::numeric_limits<double>::infinity();
  for (int a = 0; a < 12; ++a)
    for (int b = 0; b < 12; ++b)
      if (toy.duration(a, b) <= d_perf && toy.energy(a, b) < best) {
        best   = toy.energy(a, b);
        best_a = a;
        best_b = b;
      }
  EXPECT_EQ(best_a, 0); // the busy node cannot slow down
  EXPECT_EQ(best_b, 7); // 3 Gflop at 1.6 GHz: 1.875 s <= 1.9 s; 1.5 GHz would take 2 s

  LagrangeGovernor ga(PstateTable(toy.host, "a"), 10, 0.95, false);
  LagrangeGovernor gb(PstateTable(toy.host, "b"), 10, 0.95, false);
  int pa = 0, pb = 0;
  for (int it = 0; it < 60; ++it) {
    const double d = toy.duration(pa, pb);
    const Plan na  = ga.on_iteration({0, toy.W[0], toy.tau(0, pa), d - toy.tau(0, pa), d});
    const Plan nb  = gb.on_iteration({0, toy.W[1], toy.tau(1, pb), d - toy.tau(1, pb), d});
    pa = na.pstate;
    pb = nb.pstate;
    if (it >= 2) { // converged after one step, and it stays there
      EXPECT_EQ(pa, best_a) << "iteration " << it;
      EXPECT_EQ(pb, best_b) << "iteration " << it;
    }
  }
  EXPECT_NEAR(toy.duration(pa, pb), d_perf, 1e-12);
  EXPECT_EQ(gb.state().lambda, 0.0); // t <= s: no constraint pressure
}

// The node that computes beyond s gets a negative lambda: its penalty pulls f W down (faster).
// With the thesis's sign lambda doubles every iteration instead, and the busiest node ends at
// the slowest pstate (why we use Boyd's sign; README).
TEST(DvfsLagrange, DualSignKeepsTheBusiestNodeFast)
{
  Toy toy;
  toy.c = 0; // s = 0.95 * 1.9 s: the busy node is always beyond s
  for (bool thesis : {false, true}) {
    LagrangeGovernor g(PstateTable(toy.host, "a"), 10, 0.95, thesis);
    int p = 0;
    for (int it = 0; it < 40; ++it) {
      const double t = toy.tau(0, p);
      const double d = std::max(t, 1.9); // the others' pace
      p              = g.on_iteration({0, toy.W[0], t, d - t, d}).pstate;
    }
    if (thesis) {
      EXPECT_EQ(p, 11);
      EXPECT_GT(g.state().lambda, 1e6);
    } else {
      EXPECT_EQ(p, 0);
      EXPECT_LT(g.state().lambda, 0);
    }
  }
}

// Temporal imbalance: the light node's work grows past its slack and it becomes the busiest.
// s comes from its own iteration duration, which its slowness lengthens, so g alone keeps it
// slow; only the dual (lambda < 0 while f W > s, by 0.011 s per iteration here) pulls it back,
// and against g's 1-2 J per pstate with rho = 10 that takes about 190 iterations per pstate.
// A property of the method as the thesis specifies it (local s), kept; README. Without the
// growth of the work (lagrange_growth=0): with it, the step 3.0 -> 4.0 Gflop is expected to
// continue (5.0 Gflop) and the node speeds up at once (SpeedsUpAtOnceWhenItBecomesTheBottleneck).
TEST(DvfsLagrange, SpeedsUpOnlyThroughTheDual)
{
  Toy toy;
  LagrangeGovernor g(PstateTable(toy.host, "b"), 10, 0.95, false, false, false);
  int p = 0;
  for (int it = 0; it < 5; ++it) {
    const double t = toy.W[1] / ghz(p);
    p              = g.on_iteration({0, toy.W[1], t, 2.02 - t, 2.02}).pstate;
  }
  EXPECT_EQ(p, 7);
  const double w = 4.0e9; // 1.739 s at 2.3 GHz: now the others (1.9 s) wait for it at 1.6 GHz
  std::vector<int> trace;
  for (int it = 0; it < 200; ++it) {
    const double t = w / ghz(p);
    const double d = std::max(t, 1.9) + 0.12;
    p              = g.on_iteration({0, w, t, d - t, d}).pstate;
    trace.push_back(p);
    if (t > 0.95 * d) {
      EXPECT_LT(g.state().lambda, 0);
    }
  }
  EXPECT_EQ(trace[0], 7); // no immediate reaction
  for (size_t i = 1; i < trace.size(); ++i)
    EXPECT_LE(trace[i], trace[i - 1]); // monotone: it only speeds up
  EXPECT_EQ(trace[150], 7);            // still 1.6 GHz after 150 iterations of others waiting
  EXPECT_EQ(trace.back(), 6);          // one pstate faster at last
}

// A neighbour late for two iterations (README, "Lagrange on the 300-iteration scenario"). The
// node computes 2.3 Gflop; the others' pace is 1.3 s (it waits 1.3 s - tau after computing, r =
// wait / tau), then 0.05 s of messages: D = max(tau, pace) + 0.05. Steady: the window is
// min(0.95 x 1.35, 1.3) = 1.2825 s, 1.8 GHz (1.2778 s; 1.7 GHz: 1.3529 s). In iterations 6 and 7
// a slowed neighbour is late and the pace is 1.6 s: t_comp (1 + r) = 1.6 s, D = 1.65 s, window
// 1.5675 s.
// - lagrange_memory=1 (the last iteration only): 1.5 GHz (1.5333 s) from iteration 7; when the
//   neighbour is back on time the node is the late one, by 0.2333 s, then (window 0.95 x D)
//   1.6 GHz (1.4375 s, 0.1375 s late), 1.7 GHz (1.3529 s, 0.0529 s late), 1.8 GHz: 0.4237 s.
// - lagrange_memory=3: the window is the least t_comp (1 + r) of the last 3 iterations, 1.3 s
//   while the 1.6 s has not lasted 3 iterations: it stays at 1.8 GHz and is never late. A pace
//   of 1.6 s that lasts (from iteration 12) is slack from its third iteration: 1.5 GHz.
TEST(DvfsLagrange, LateNeighbourIsNotSlackUntilItLasts)
{
  const double others_idle = 15 * 92.75;
  for (int memory : {1, 3}) {
    LagrangeGovernor g(PstateTable(taurus8(), "n"), 10, 0.95, false, false, true, memory);
    int p       = 0;
    double late = 0;
    std::vector<int> levels; // the level chosen after each iteration
    for (int it = 0; it < 16; ++it) {
      const double pace = (it == 6 || it == 7 || it >= 12) ? 1.6 : 1.3;
      const double tau  = 2.3e9 / ghz(p);
      const double wait = std::max(0.0, pace - tau);
      const double d    = std::max(tau, pace) + 0.05;
      if (it < 12)
        late += std::max(0.0, tau - pace);
      const int next = g.on_iteration({0, 2.3e9, tau, d - tau, d, others_idle, wait / tau}).pstate;
      p              = next >= 0 ? next : p;
      levels.push_back(g.table().level(p));
    }
    const std::vector<int> expected = memory == 1
                                          ? std::vector<int>{5, 5, 5, 5, 5, 5, 8, 8, 7, 6, 5, 5, 8, 8, 8, 8}
                                          : std::vector<int>{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 8, 8};
    EXPECT_EQ(levels, expected) << "memory " << memory << ": " << ::testing::PrintToString(levels);
    EXPECT_NEAR(late, memory == 1 ? 0.2333333 + 0.1375 + 0.0529412 : 0.0, 1e-6) << "memory " << memory;
  }
}

// Pipeline fallback (lagrange_pipeline=1): one rank, two tasks of 2.3 Gflop (1 s at 2.3 GHz) per
// iteration; task 1 is followed at once by the next computation (no MPI time: the rank's floor
// is 0), task 2 by 0.5 s of wait. The iteration's tightest slack ratio is 0: step (1) keeps 2.3 GHz (s = 2 s).
// Task 2 has had 1.5 s at both its last occurrences; step (1) over it alone (s = t = 1.5 s,
// lambda 0, 5 = rho / 2):
//   2.3 GHz: 1 x 174.38 + 0.5 x 92.75 + 5 x 0.5^2                            = 221.005
//   2.2 GHz: 1.0454545 x 168.62 + 0.4545455 x 92.75 + 5 x 0.4545455^2         = 219.4767
//   2.1 GHz: 1.0952381 x 162.88 + 0.4047619 x 92.88 + 5 x 0.4047619^2         = 216.8059
//   2.0 GHz: 1.15 x 157.12 + 0.35 x 92.88 + 5 x 0.35^2                        = 213.8085
// so it slows one level per occurrence (2.2, 2.1, 2.0 GHz) while its wait shrinks by what it
// slowed. Task 1 (1 s available) stays at 2.3 GHz. If instead task 2's wait does not shrink when
// it runs at 2.2 GHz (the delay came back: 0.0454545 s slowed, the rank's waits shrank by 0), its
// wait is structural and it runs at the iteration's pstate from then on.
TEST(DvfsLagrange, PipelineFallbackSlowsOnlyTasksWithProvenFloat)
{
  const double others_idle = 15 * 92.75;
  const IterationStats tight{0, 4.6e9, 2.0, 0.7, 2.7, others_idle, 0.0};
  for (bool came_back : {false, true}) {
    LagrangeGovernor g(PstateTable(taurus8(), "n"), 10, 0.95, false, false, true, 1, true);
    LagrangeGovernor::State one_task;
    one_task.t = 1.5;
    EXPECT_NEAR(g.objective(1, 2.3e9, 1.5, one_task), 219.4767, 1e-4);
    EXPECT_NEAR(g.objective(2, 2.3e9, 1.5, one_task), 216.8059, 1e-4);
    g.on_task_end({1, 2.3e9, 1.0, 0.0, 0}); // before the first boundary: the prologue
    g.on_task_end({2, 2.3e9, 1.0, 0.5, 0});
    EXPECT_EQ(g.on_iteration(tight).pstate, 0);
    std::vector<int> task2; // task 2's pstate, iteration by iteration
    double t_comp2 = 1.0;
    for (int it = 0; it < 4; ++it) {
      EXPECT_EQ(g.on_task_start(1, 2.3e9, 0).pstate, 0);
      g.on_task_end({1, 2.3e9, 1.0, 0.0, 0});
      const int p = g.on_task_start(2, 2.3e9, 0).pstate;
      task2.push_back(p);
      t_comp2            = 2.3 / (23 - p) * 10;
      const double t_lib = came_back ? 0.5 : 1.5 - t_comp2; // the wait shrinks by the slowing, or not
      g.on_task_end({2, 2.3e9, t_comp2, t_lib, 0});
      g.on_iteration(tight);
    }
    const std::vector<int> expected = came_back ? std::vector<int>{0, 1, 0, 0} : std::vector<int>{0, 1, 2, 3};
    EXPECT_EQ(task2, expected) << "came back " << came_back;
  }
  // Where the iteration had slack (ratio > 0) the fallback is off: the tasks keep the pstate.
  LagrangeGovernor g(PstateTable(taurus8(), "n"), 10, 0.95, false, false, true, 1, true);
  g.on_task_end({1, 2.3e9, 1.0, 0.0, 0});
  g.on_task_end({2, 2.3e9, 1.0, 0.5, 0});
  g.on_task_end({2, 2.3e9, 1.0, 0.5, 0});
  g.on_iteration({0, 4.6e9, 2.0, 0.7, 2.7, others_idle, 0.05});
  EXPECT_TRUE(g.on_task_start(2, 2.3e9, 0).keeps());
  // Nor where every computation ends in MPI time (floor 0.1 s > 0: a stencil, whose ranks with
  // ratio 0 are the critical ones): task 2's 0.5 s of wait is not taken.
  LagrangeGovernor stencil(PstateTable(taurus8(), "n"), 10, 0.95, false, false, true, 1, true);
  for (int i = 0; i < 2; ++i) {
    stencil.on_task_end({1, 2.3e9, 1.0, 0.1, 0});
    stencil.on_task_end({2, 2.3e9, 1.0, 0.6, 0});
  }
  stencil.on_iteration(tight);
  EXPECT_TRUE(stencil.on_task_start(2, 2.3e9, 0).keeps());
  // Nor with the thesis's formulas (lagrange_thesis).
  LagrangeGovernor thesis(PstateTable(taurus8(), "n"), 10, 0.95, true, false, true, 1, true);
  thesis.on_task_end({1, 2.3e9, 1.0, 0.0, 0});
  thesis.on_task_end({2, 2.3e9, 1.0, 0.5, 0});
  thesis.on_iteration(tight);
  EXPECT_TRUE(thesis.on_task_start(2, 2.3e9, 0).keeps());
  // And without the key nothing changes per task.
  LagrangeGovernor off(PstateTable(taurus8(), "n"), 10, 0.95, false);
  off.on_task_end({2, 2.3e9, 1.0, 0.6, 0});
  off.on_iteration(tight);
  EXPECT_TRUE(off.on_task_start(2, 2.3e9, 0).keeps());
}
