// Adagio (002 Listing 4) and AdagioImproved (Listing 5): schedules hand-computed on taurus-8
// (2.3 .. 1.2 GHz, rates exact in SimGrid: rate = speed).
#include "adagio.hpp"
#include "dvfs_test_support.hpp"

#include <gtest/gtest.h>

using namespace haec::dvfs;
using dvfs_test::ghz;
using dvfs_test::taurus8;

namespace {
// Runs one occurrence of task `key` with `flops`: start (returns the pstate used), then its end
// with the compute time the pstate gives and the MPI time `t_lib`.
int occur(Governor& g, uint64_t key, double flops, double t_lib)
{
  const int p = g.on_task_start(key, flops).pstate;
  g.on_pstate_changed(p);
  g.on_task_end({key, flops, flops / ghz(p), t_lib, 0});
  return p;
}
} // namespace

TEST(DvfsAdagio, SlowestPstateThatFitsTheTarget)
{
  AdagioGovernor g(PstateTable(taurus8(), "t"), 0);
  EXPECT_EQ(g.scheduled_level(7), -1);
  // First time: fastest. 1 s of compute + 0.5 s in MPI: t_target 1.5 s; 2.3 Gflop fit at
  // 1.6 GHz (1.4375 s), not at 1.5 GHz (1.5333 s).
  EXPECT_EQ(occur(g, 7, 2.3e9, 0.5), 0);
  EXPECT_EQ(g.scheduled_level(7), 7);
  // Second time at 1.6 GHz, the slack is used: 1.4375 + 0.0625, it stays.
  EXPECT_EQ(occur(g, 7, 2.3e9, 0.0625), 7);
  EXPECT_EQ(g.scheduled_level(7), 7);
  // Another task is independent.
  EXPECT_EQ(occur(g, 8, 1e9, 0), 0);
  EXPECT_EQ(g.scheduled_level(8), 0);
  // The same key on another rank of the host is another task.
  EXPECT_EQ(g.on_task_start(7, 2.3e9, 1).pstate, 0);
}

TEST(DvfsAdagio, TCopyIsNeverSlack)
{
  AdagioGovernor g(PstateTable(taurus8(), "t"), 0.1);
  occur(g, 1, 2.3e9, 0.5); // target 1.4: 1.7 GHz (1.3529 s) fits, 1.6 GHz (1.4375 s) does not
  EXPECT_EQ(g.scheduled_level(1), 6);
}

// The flaw (002 §9.3): the rate at the current pstate is the measured one, so I/rate = t_comp <=
// t_comp + t_lib and the current pstate always fits again. When the node's work grows and the
// others wait for it (t_lib ~ 0), Adagio still does not speed up.
TEST(DvfsAdagio, NeverSpeedsUpAgain)
{
  AdagioGovernor g(PstateTable(taurus8(), "t"), 0);
  occur(g, 7, 2.3e9, 0.5);
  ASSERT_EQ(g.scheduled_level(7), 7);
  for (int i = 0; i < 20; ++i) {
    // 20 % more work, the others wait: running at 2.3 GHz would take 1.2 s instead of 1.725 s.
    EXPECT_EQ(occur(g, 7, 2.76e9, 1e-6), 7);
    EXPECT_EQ(g.scheduled_level(7), 7);
  }
  // Under temporal imbalance, each new slack only slows it further: it ratchets down.
  occur(g, 7, 2.3e9, 0.5);
  EXPECT_EQ(g.scheduled_level(7), 11); // 1.4375 + 0.5: 1.2 GHz (1.9167 s) fits
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(occur(g, 7, 2.76e9, 0), 11);
}

// Listing 5 on the same observations: t_lib rising above t_min * factor slows down (Adagio);
// t_lib at or below it (others wait) moves half-way (by level) to the fastest and sets t_min.
TEST(DvfsAdagioImproved, SpeedsBackUp)
{
  // Listing 5 as printed (adagio_thesis=1): per-task t_min, all of t_lib is slack.
  AdagioImprovedGovernor g(PstateTable(taurus8(), "t"), 0, 1.1, true);
  EXPECT_EQ(occur(g, 7, 2.3e9, 0.5), 0); // t_min = inf: "others wait", stays fastest, t_min = 0.5
  EXPECT_EQ(g.scheduled_level(7), 0);
  EXPECT_EQ(occur(g, 7, 2.3e9, 0.5), 0); // 0.5 <= 0.55: still fastest (a steady t_lib never slows it)
  EXPECT_EQ(g.scheduled_level(7), 0);
  EXPECT_EQ(occur(g, 7, 2.3e9, 0.6), 0); // 0.6 > 0.55: Adagio, target 1.6 s: 1.5 GHz (1.5333 s)
  EXPECT_EQ(g.scheduled_level(7), 8);
  EXPECT_EQ(occur(g, 7, 2.3e9, 0.01), 8); // others wait now: half-way, level 8 -> 4, t_min = 0.01
  EXPECT_EQ(g.scheduled_level(7), 4);
  EXPECT_EQ(occur(g, 7, 2.3e9, 0.01), 4); // again: 4 -> 2
  EXPECT_EQ(g.scheduled_level(7), 2);
  EXPECT_EQ(occur(g, 7, 2.3e9, 0.01), 2); // 2 -> 1
  EXPECT_EQ(occur(g, 7, 2.3e9, 0.0105), 1); // 0.0105 <= 0.011: 1 -> 0
  EXPECT_EQ(g.scheduled_level(7), 0);
  // Waiting again (t_lib 0.3 > 0.0105 * 1.1): Adagio with the rates learnt, target 1.3 s at 2.3
  // GHz work: 1.8 GHz (1.2778 s).
  EXPECT_EQ(occur(g, 7, 2.3e9, 0.3), 0);
  EXPECT_EQ(g.scheduled_level(7), 5);

  // Plain Adagio fed the same sequence after its slow-down never comes back.
  AdagioGovernor a(PstateTable(taurus8(), "t"), 0);
  occur(a, 7, 2.3e9, 0.6);
  EXPECT_EQ(a.scheduled_level(7), 8);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(occur(a, 7, 2.3e9, 0.01), 8);
}

// A pipeline: rank 0 runs A then B (2.3 Gflop each). A waits 0.31 s (0.299 s beyond the
// communication floor 0.01 x 1.1), recurring: A is scheduled at 1.8 GHz (1.2778 s fits 1.299 s).
// At 1.8 GHz A's own wait shrinks by the 0.2778 s it slowed (per task, the premise holds), but
// the delay comes back as a wait after B: over the cycle the rank slowed 0.2778 s and its waits
// did not shrink. Those waits become structural and A goes half-way back (level 5 -> 2).
// Without the wait after B (real slack) A stays at 1.8 GHz. (Without the step limit,
// adagio_step=0: the rule alone.)
TEST(DvfsAdagioImproved, DelayComingBackAfterAnotherTaskIsNotSlack)
{
  for (bool comes_back : {true, false}) {
    AdagioImprovedGovernor g(PstateTable(taurus8(), "t"), 0, 1.1, false, 0);
    for (int cycle = 0; cycle < 3; ++cycle) {
      EXPECT_EQ(occur(g, 1, 2.3e9, 0.31), 0);
      EXPECT_EQ(occur(g, 2, 2.3e9, 0.01), 0);
    }
    EXPECT_EQ(g.scheduled_level(1), 5);
    EXPECT_EQ(occur(g, 1, 2.3e9, 0.0322), 5); // 1.2778 s + 0.0322 s: the wait shrank by 0.2778 s
    EXPECT_EQ(g.scheduled_level(1), 5);
    EXPECT_EQ(occur(g, 2, 2.3e9, comes_back ? 0.2878 : 0.01), 0);
    EXPECT_EQ(occur(g, 1, 2.3e9, 0.0322), 5); // closes the cycle
    EXPECT_EQ(g.scheduled_level(1), comes_back ? 2 : 5) << comes_back;
  }
}

// AdagioImproved bounds the next occurrence's time by t_target with the flops known at its
// start: A is scheduled at 1.8 GHz for a 1.299 s target (2.3 Gflop). 2.6 Gflop would take
// 1.444 s there; the slowest level that fits is 2.1 GHz (1.238 s; 2.0 GHz: 1.3 s > 1.299 s).
// Less work never runs slower than the schedule. (Without the step limit, adagio_step=0.)
TEST(DvfsAdagioImproved, GrownWorkRunsFasterWithinTheTarget)
{
  AdagioImprovedGovernor g(PstateTable(taurus8(), "t"), 0, 1.1, false, 0);
  for (int cycle = 0; cycle < 3; ++cycle) {
    occur(g, 1, 2.3e9, 0.31);
    occur(g, 2, 2.3e9, 0.01);
  }
  ASSERT_EQ(g.scheduled_level(1), 5);
  EXPECT_EQ(g.on_task_start(1, 2.6e9).pstate, 2);
  EXPECT_EQ(g.on_task_start(1, 2.3e9).pstate, 5);
  EXPECT_EQ(g.on_task_start(1, 1.0e9).pstate, 5);
}
