// libs/trace (TI checker, OTF2 import builder, result tables) and the PMPI layer's pure
// TI recorder (pmpi/ti_recorder.cpp, compiled in here: it is not part of a model library).
#include "result_tables.hpp"
#include "ti_builder.hpp"
#include "ti_check.hpp"
#include "input_error.hpp"

#include "../../pmpi/ti_recorder.cpp"

#include <gtest/gtest.h>

using haec::pmpi::TiRecorder;

TEST(TraceRecorder, GapBecomesComputeThenSleep)
{
  TiRecorder r;
  r.ensure_ranks(2);
  r.init(0, 0.0);
  // 1 s between calls: 0.25 s of it a computation of 2.5e8 flops, the rest a sleep.
  r.computation_started(0, 2.5e8, 0.0);
  r.computation_ended(0, 0.25);
  r.enter(0, 1.0);
  r.leave(0, 1.5, false);
  r.send(0, true, 1, 7, 8, 6, 0);
  r.finalize(0);
  EXPECT_EQ(r.rank_text(0), "0 init\n0 compute 250000000\n0 sleep 0.75\n0 send 1 7 8 6\n0 finalize\n");
}

TEST(TraceRecorder, WildcardReceiveGetsMatchedSourceAndPollingIsASleep)
{
  TiRecorder r;
  r.ensure_ranks(3);
  r.init(0, 0);
  r.enter(0, 0);
  r.leave(0, 0, false);
  r.irecv(0, TiRecorder::kAny, TiRecorder::kAny, 1, 1, 0xa);
  // A test that takes 0.002 s, of which a 0.0005 s computation SMPI charges at its start: the
  // 0.001 s gap before it, the computation, then 0.0015 s of polling, in that order.
  r.enter(0, 0.001);
  r.computation_started(0, 5e5, 0.001);
  r.computation_ended(0, 0.0015);
  r.leave(0, 0.003, true);
  r.complete(0, 0xa, 2, 13);
  EXPECT_EQ(r.rank_text(0),
            "0 init\n0 irecv 2 13 1 1\n0 sleep 0.001\n0 compute 500000\n0 sleep 0.0015\n0 wait 2 0 13\n");
  EXPECT_FALSE(r.knows(0, 0xa));
}

TEST(TraceRecorder, CollectiveRequestsAndUnsupportedCalls)
{
  TiRecorder r;
  r.ensure_ranks(1);
  r.init(0, 0);
  r.collective_start(0, "ialltoall", "64 1 64 1", 0x1);
  r.collective_start(0, "ibarrier", "", 0x2);
  r.complete(0, 0x2, 0, 0);
  r.complete(0, 0x1, 0, 0);
  r.complete(0, 0x99, 0, 0); // unknown request: nothing
  EXPECT_EQ(r.rank_text(0), "0 init\n0 haec_ialltoall 1 64 1 64 1\n0 haec_ibarrier 2\n0 haec_wait 2\n0 haec_wait 1\n");
  r.unsupported(0, "MPI_Put", "one-sided");
  r.unsupported(0, "MPI_Get", "one-sided");
  EXPECT_EQ(r.error(), "MPI_Put (rank 0) cannot be replayed: one-sided");
  EXPECT_FALSE(r.finished());
  r.finalize(0);
  EXPECT_TRUE(r.finished());
}

TEST(TraceCheck, AcceptsRecordedActionsAndNamesTheBadLine)
{
  using haec::trace::check_ti_rank_text;
  EXPECT_NO_THROW(check_ti_rank_text("1 init\n1 compute 5\n1 irecv 0 3 8 6\n1 wait 0 1 3\n1 haec_ialltoall 1 8 6 8 6\n"
                                     "1 haec_wait 1\n1 alltoallv 8 4 4 8 4 4 6 6\n1 finalize\n",
                                     "r1", 1, 2));
  auto error = [](const std::string& text, int ranks) {
    try {
      check_ti_rank_text(text, "f", 0, ranks);
    } catch (const haec::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("0 init\n0 send 1 0\n", 2).substr(0, 37), "f:2: send takes 3 to 4 arguments, got");
  EXPECT_EQ(error("0 init\n0 recv -333 5 1 1\n", 2).substr(0, 22), "f:2: recv from/to -333");
  EXPECT_EQ(error("0 init\n0 send 5 0 1\n", 2).substr(0, 24), "f:2: peer 5 is not a ran");
  EXPECT_EQ(error("0 init\n0 ialltoall 1 1 1 1\n", 2).substr(0, 20), "f:2: 'ialltoall' (a ");
  EXPECT_EQ(error("0 init\n0 comp", 2), "f:2: last line has no end of line; the trace is truncated; record it again");
  EXPECT_EQ(error("1 init\n", 2), "f:1: action of rank 1 in the trace of rank 0; list the per-rank files in rank order");
  EXPECT_EQ(error("0 compute x\n", 2), "f:1: argument 1 of compute 'x' is not a number; the trace is corrupt");
}

TEST(TraceImport, GapsComputeAtHostSpeedAndRequestsComplete)
{
  haec::trace::TiBuilder b(2, 2e9);
  b.enter(0, 0.001, "MPI_Irecv");
  b.irecv_request(0, 7);
  b.leave(0, 0.0011);
  b.enter(0, 0.0021, "user_function"); // not MPI: still computing
  b.enter(0, 0.003, "MPI_Wait");
  b.irecv(0, 1, 4, 80, 7);
  b.leave(0, 0.0035);
  b.collective(0, "ALLTOALL", -1, 160, 160);
  EXPECT_EQ(b.text(0), "0 init\n0 compute 2000000\n0 irecv 1 4 80 6\n0 compute 3800000\n0 wait 1 0 4\n"
                       "0 alltoall 80 80 6 6\n0 finalize\n");
  EXPECT_THROW(b.collective(1, "ALLTOALLW", -1, 1, 1), haec::InputError);
}

TEST(TraceExport, MessagesMergeAfterCallEventsAndPowerPerHost)
{
  auto t = haec::trace::build_run_trace(
      "time,rank,event,site\n0,0,enter,MPI_Init@a+0x1\n0,0,exit,MPI_Init@a+0x1\n1,0,enter,MPI_Send@a+0x2\n"
      "2,0,exit,MPI_Send@a+0x2\n0,1,enter,MPI_Recv@a+0x3\n3,1,exit,MPI_Recv@a+0x3\n",
      "events.csv",
      "src_rank,dst_rank,src_node,dst_node,bytes,hops,start,end,model_time\n0,1,0,1,8,1,1,2.5,1.5\n-1,1,0,1,8,1,1,2,1\n",
      "messages.csv", "time,host,watts\n0,n0,10\n0,n1,11\n2,n0,12\n", "power.csv");
  ASSERT_EQ(t.ranks, 2);
  EXPECT_EQ(t.regions, (std::vector<std::string>{"MPI_Init", "MPI_Send", "MPI_Recv"}));
  ASSERT_EQ(t.by_rank[0].size(), 5u);
  EXPECT_EQ(t.by_rank[0][3].kind, haec::trace::RunEvent::Send);
  EXPECT_EQ(t.by_rank[0][3].bytes, 8u);
  ASSERT_EQ(t.by_rank[1].size(), 3u);
  EXPECT_EQ(t.by_rank[1][1].kind, haec::trace::RunEvent::Recv);
  EXPECT_DOUBLE_EQ(t.by_rank[1][1].time, 2.5);
  EXPECT_EQ(t.messages, 1u);
  EXPECT_EQ(t.skipped_messages, 1u);
  EXPECT_EQ(t.hosts, (std::vector<std::string>{"n0", "n1"}));
  EXPECT_EQ(t.power[0].size(), 2u);
  EXPECT_DOUBLE_EQ(t.end, 3);
  EXPECT_THROW(haec::trace::build_run_trace("time,rank,event,site\n0,0,exit,MPI_Send@x\n", "e", "", "m", "", "p"),
               haec::InputError);
  EXPECT_THROW(haec::trace::build_run_trace("time,rank,event,site\n0,0,enter,MPI_Send@x\n", "e", "", "m", "", "p"),
               haec::InputError);
}
