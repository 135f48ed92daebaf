// Counters per computation burst, the pure parts of the PMPI layer: the burst accounting
// (pmpi/burst_counters.hpp), what each PAPI failure means (pmpi/counter_setup.hpp) and the TI
// recorder writing each burst's counts before its compute line (pmpi/ti_recorder.hpp).
#include "burst_counters.hpp"
#include "counter_setup.hpp"
#include "ti_recorder.hpp"

#include <papi.h>

#include <gtest/gtest.h>

using haec::papi::Verdict;
using haec::pmpi::BurstCounters;
using haec::pmpi::TiRecorder;

TEST(BurstCounters, BurstIsDifferenceBetweenExitAndNextEntry)
{
  BurstCounters b(2);
  unsigned long long reads = 0;
  b.ensure_ranks(2);
  const long long exit0[] = {100, 7}, entry0[] = {350, 9};
  b.resume(0, exit0, reads);
  b.pause(0, entry0, reads);
  EXPECT_EQ(b.take(0), (std::vector<double>{250, 2}));
  EXPECT_EQ(b.take(0), (std::vector<double>{0, 0})); // taken once
}

TEST(BurstCounters, PausedStretchesDoNotCount)
{
  // Rank 0 calls MPI_Wtime mid-burst (paused 150..1150 while rank 1 runs), then enters a call.
  BurstCounters b(1);
  unsigned long long reads = 0;
  b.ensure_ranks(2);
  const long long t100[] = {100}, t150[] = {150}, t1150[] = {1150}, t1180[] = {1180};
  b.resume(0, t100, reads);
  b.pause(0, t150, reads);
  b.resume(0, t1150, reads);
  b.pause(0, t1180, reads);
  EXPECT_EQ(b.take(0), std::vector<double>{80});
  EXPECT_FALSE(b.running(0));
  b.pause(0, t1180, reads); // not running: nothing added
  EXPECT_EQ(b.take(0), std::vector<double>{0});
}

TEST(BurstCounters, RanksAreApartAndUnknownRanksIgnored)
{
  BurstCounters b(1);
  unsigned long long reads = 0;
  b.ensure_ranks(2);
  const long long a[] = {10}, c[] = {40}, d[] = {45};
  b.resume(0, a, reads);
  b.resume(1, c, reads);
  b.pause(1, d, reads);
  b.pause(0, d, reads);
  EXPECT_EQ(b.take(0), std::vector<double>{35});
  EXPECT_EQ(b.take(1), std::vector<double>{5});
  b.resume(5, a, reads);
  EXPECT_TRUE(b.take(5).empty());
}

TEST(BurstCounters, AnotherRanksReadInsideABurstMarksItInterleaved)
{
  // One OS thread: rank 0's burst spans an unwrapped call during which rank 1 ran a whole burst.
  BurstCounters b(1);
  unsigned long long reads = 0;
  b.ensure_ranks(2);
  const long long t0[] = {0}, t10[] = {10}, t20[] = {20}, t30[] = {30};
  b.resume(0, t0, reads);
  b.resume(1, t10, reads);
  b.pause(1, t20, reads);
  b.pause(0, t30, reads);
  bool interleaved = false;
  EXPECT_EQ(b.take(1, &interleaved), std::vector<double>{10});
  EXPECT_FALSE(interleaved);
  EXPECT_EQ(b.take(0, &interleaved), std::vector<double>{30}); // rank 1's 10 included: flagged
  EXPECT_TRUE(interleaved);
  b.resume(0, t30, reads); // a clean burst clears the flag
  b.pause(0, t30, reads);
  b.take(0, &interleaved);
  EXPECT_FALSE(interleaved);
}

TEST(CounterSetup, EventListParsing)
{
  Verdict v;
  EXPECT_EQ(haec::papi::parse_event_list("PAPI_TOT_INS,perf::CYCLES:u=0", v),
            (std::vector<std::string>{"PAPI_TOT_INS", "perf::CYCLES:u=0"}));
  EXPECT_EQ(v.kind, Verdict::Ready);
  EXPECT_TRUE(haec::papi::parse_event_list("PAPI_TOT_INS,,PAPI_L3_TCM", v).empty());
  EXPECT_EQ(v.kind, Verdict::BadInput);
  EXPECT_EQ(v.problem, "holds an empty event name");
  v = {};
  EXPECT_TRUE(haec::papi::parse_event_list("A,B,A", v).empty());
  EXPECT_EQ(v.problem, "A is given twice");
}

TEST(CounterSetup, WhatEachFailureMeans)
{
  using haec::papi::classify_failure;
  // A name PAPI does not know: bad input whatever the machine.
  EXPECT_EQ(classify_failure("X", "X", PAPI_ENOEVNT, PAPI_ENOEVNT, true, "").kind, Verdict::BadInput);
  // More events than the counters: bad input.
  Verdict v = classify_failure("A,B,C,D,E,F,G", "G", PAPI_OK, PAPI_ECNFLCT, true, "conflict");
  EXPECT_EQ(v.kind, Verdict::BadInput);
  EXPECT_NE(v.problem.find("at once"), std::string::npos);
  EXPECT_EQ(classify_failure("A", "A", PAPI_OK, PAPI_ECOUNT, true, "").kind, Verdict::BadInput);
  // A known event on a machine without CPU PMU (this VM): cannot count here, the run goes on.
  v = classify_failure("PAPI_TOT_INS", "PAPI_TOT_INS", PAPI_OK, PAPI_ENOEVNT, false, "PAPI_ENOEVNT: Event does not exist");
  EXPECT_EQ(v.kind, Verdict::CannotCount);
  EXPECT_EQ(v.input, "--counters");
  EXPECT_EQ(v.problem, "PAPI cannot count here (PAPI_TOT_INS: PAPI_ENOEVNT: Event does not exist; no CPU PMU: "
                       "perf::CYCLES does not count either)");
  EXPECT_EQ(v.fix, "run on a machine with a CPU PMU, or drop --counters");
  // The same with a PMU: this CPU lacks the event, bad input.
  EXPECT_EQ(classify_failure("PAPI_L3_TCM", "PAPI_L3_TCM", PAPI_OK, PAPI_ENOEVNT, true, "").kind, Verdict::BadInput);
  // Not permitted (perf_event_paranoid): cannot count here.
  EXPECT_EQ(classify_failure("A", "A", PAPI_OK, PAPI_EPERM, true, "").kind, Verdict::CannotCount);
}

// One compute line per computation (a replay runs the same computations, as per-task governors
// see them), each with its own counts.
TEST(TiRecorderCounters, AnnotationBeforeEachCompute)
{
  TiRecorder rec;
  rec.ensure_ranks(1);
  rec.counter_events({"PAPI_TOT_INS", "PAPI_L3_TCM"});
  rec.init(0, 0);
  rec.enter(0, 1);
  rec.counters(0, {1000, 3});
  rec.computation_started(0, 5e6, 1);
  rec.computation_ended(0, 1.005);
  rec.leave(0, 1.005, false); // a call that writes no action: flops and counts carry on
  rec.enter(0, 1.005);
  rec.counters(0, {500, 1});
  rec.computation_started(0, 1e6, 1.005); // right after the other: a compute line of its own
  rec.computation_ended(0, 1.006);
  rec.action(0, "barrier");
  rec.leave(0, 2.1, false);
  rec.enter(0, 3);
  rec.counters(0, {7, 0}); // a burst without computation: no compute line, no annotation
  rec.action(0, "barrier");
  rec.finalize(0);
  const std::string text = rec.rank_text(0);
  EXPECT_NE(text.find("# 0 haec_counters PAPI_TOT_INS=1000 PAPI_L3_TCM=3\n0 compute 5000000\n"
                      "# 0 haec_counters PAPI_TOT_INS=500 PAPI_L3_TCM=1\n0 compute 1000000\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("PAPI_TOT_INS=7"), std::string::npos) << text;
}

TEST(TiRecorderCounters, AHandOverNoComputationTookIsReplacedAsInTheSuite)
{
  // MPI_Wtime below smpi/cpu-threshold (no computation), then the call's computation.
  TiRecorder rec;
  rec.ensure_ranks(1);
  rec.counter_events({"A"});
  rec.init(0, 0);
  rec.counters(0, {40}); // at MPI_Wtime: SMPI charges nothing
  rec.counters(0, {60}); // at the call's entry
  rec.enter(0, 1);
  rec.computation_started(0, 1e6, 1);
  rec.computation_ended(0, 1.001);
  rec.action(0, "barrier");
  rec.finalize(0);
  EXPECT_NE(rec.rank_text(0).find("# 0 haec_counters A=60\n0 compute 1000000\n"), std::string::npos) << rec.rank_text(0);
}
