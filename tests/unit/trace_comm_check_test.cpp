// The trace checker on communicators, our collectives, sends with modes, request IDs and windows
// (libs/trace/ti_schema.cpp, ti_match*.cpp), and the recorder's ids (pmpi/ti_ids.cpp) and
// cancelled requests (pmpi/ti_recorder.cpp, compiled into trace_model_test.cpp).
#include "input_error.hpp"
#include "ti_check.hpp"

#include "../../pmpi/ti_ids.cpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

// Checks a single-file trace holding every rank's lines: "" when it passes, else the error's
// message (a deadlock's starts with "deadlock:").
std::string check(const std::string& text, int ranks)
{
  const fs::path dir = fs::temp_directory_path() / ("haec_comm_check_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "trace.txt") << text;
  // Checked as "trace.txt" from its directory: a short name leaves the (bounded) error line room for
  // the whole problem (text::error_line cuts long lines in their middle).
  const fs::path before = fs::current_path();
  fs::current_path(dir);
  std::string error;
  try {
    haec::trace::check_ti_trace("trace.txt", ranks);
  } catch (const std::exception& e) {
    error = e.what();
  }
  fs::current_path(before);
  fs::remove_all(dir);
  if (!error.empty())
    return error;
  return "";
}

// Every rank's lines: init, `body` (with "R" replaced by the rank), finalize.
std::string ranks_doing(int ranks, const std::vector<std::string>& body)
{
  std::string out;
  for (int r = 0; r < ranks; ++r) {
    out += std::to_string(r) + " init\n";
    for (auto line : body) {
      for (size_t at = line.find('R'); at != std::string::npos; at = line.find('R'))
        line.replace(at, 1, std::to_string(r));
      out += std::to_string(r) + " " + line + "\n";
    }
    out += std::to_string(r) + " finalize\n";
  }
  return out;
}

} // namespace

TEST(TraceIds, MembersNameACommunicatorAlikeWindowsToo)
{
  haec::pmpi::TiIds ids;
  ids.ensure_ranks(4);
  // ranks 0, 2 and 1, 3 split MPI_COMM_WORLD: two communicators, one id each on its members
  EXPECT_EQ(ids.comm_created(0, 0xa0, 0, {0, 2}), 2);
  EXPECT_EQ(ids.comm_created(1, 0xb1, 0, {1, 3}), 3);
  EXPECT_EQ(ids.comm_created(3, 0xb3, 0, {1, 3}), 3);
  EXPECT_EQ(ids.comm_created(2, 0xa2, 0, {0, 2}), 2);
  EXPECT_EQ(ids.comm(2, 0xa2), 2);
  EXPECT_EQ(ids.comm(2, 0xb1), haec::pmpi::TiIds::kUnknown);
  // the same members again (a second dup): a new communicator
  EXPECT_EQ(ids.comm_created(0, 0xc0, 0, {0, 2}), 4);
  EXPECT_EQ(ids.comm_created(2, 0xc2, 0, {0, 2}), 4);
  ids.comm_freed(0, 0xa0);
  EXPECT_EQ(ids.comm(0, 0xa0), haec::pmpi::TiIds::kUnknown);
  // windows: by their communicator and their order on it
  EXPECT_EQ(ids.window_created(0, 0x10, 0), 0);
  EXPECT_EQ(ids.window_created(0, 0x11, 2), 1);
  EXPECT_EQ(ids.window_created(2, 0x12, 2), 1);
  EXPECT_EQ(ids.window_created(2, 0x13, 0), 0);
  EXPECT_EQ(ids.window(2, 0x13), 0);
  // windows on MPI_COMM_SELF (id 1) are each rank's own: one id per rank
  EXPECT_EQ(ids.window_created(0, 0x14, 1), 2);
  EXPECT_EQ(ids.window_created(2, 0x15, 1), 3);
}

TEST(TraceCommCheck, SplitDupCreateAndCollectivesOnThem)
{
  // 4 ranks: split by parity with reversed keys (ids 2 even, 3 odd), a dup (4), the upper half
  // made by create (5), and collectives on each, our non-blocking ones included.
  std::string t;
  for (int r = 0; r < 4; ++r) {
    const int mine = r % 2 ? 3 : 2;
    t += std::to_string(r) + " init\n";
    t += std::to_string(r) + " haec_comm_split 0 " + std::to_string(mine) + " " + std::to_string(r % 2) + " " +
         std::to_string(-r) + "\n";
    t += std::to_string(r) + " haec_bcast " + std::to_string(mine) + " 4 1 1\n";
    t += std::to_string(r) + " haec_gatherv " + std::to_string(mine) + " 2 1 1 0 2 2\n";
    t += std::to_string(r) + " haec_comm_dup 0 4\n";
    t += std::to_string(r) + " haec_iallreduce 1 4 8 0\n";
    t += std::to_string(r) + " haec_alltoallv 4 1 1 -1 -1 -1 -1 2 2 2 2\n";
    t += std::to_string(r) + " haec_wait 1\n";
    if (r >= 2) {
      t += std::to_string(r) + " haec_comm_create 0 5 2 2 3\n";
      t += std::to_string(r) + " haec_allgather 5 -1 1 3 1\n";
      t += std::to_string(r) + " haec_comm_free 5\n";
    }
    t += std::to_string(r) + " haec_comm_split_type 0 6 1 " + std::to_string(r) + "\n";
    t += std::to_string(r) + " haec_barrier 6\n";
    t += std::to_string(r) + " haec_comm_free " + std::to_string(mine) + "\n";
    t += std::to_string(r) + " finalize\n";
  }
  // ids of split_type groups are trace-wide: ranks on other hosts would each have their own; here
  // every rank names 6 with itself alone, which the check refuses (one id, other members)
  EXPECT_NE(check(t, 4).find("communicator 6 is made here with other members"), std::string::npos);
  for (int r = 0; r < 4; ++r) {
    const std::string from = std::to_string(r) + " haec_comm_split_type 0 6 1 " + std::to_string(r);
    t.replace(t.find(from), from.size(), std::to_string(r) + " haec_comm_split_type 0 " + std::to_string(6 + r) + " 1 " +
                                               std::to_string(r));
    const std::string barrier = std::to_string(r) + " haec_barrier 6\n";
    t.replace(t.find(barrier), barrier.size(), std::to_string(r) + " haec_barrier " + std::to_string(6 + r) + "\n");
  }
  EXPECT_EQ(check(t, 4), "");
}

TEST(TraceCommCheck, RefusesWhatTheReplayCouldNotDo)
{
  // the members of a split group disagree on its id
  EXPECT_NE(check("0 init\n0 haec_comm_split 0 2 0 0\n0 finalize\n1 init\n1 haec_comm_split 0 3 0 1\n1 finalize\n", 2)
                .find("rank 1 gets communicator 3 from haec_comm_split, rank 0 of the same group gets 2"),
            std::string::npos);
  // a collective on a communicator the rank never made, or freed
  EXPECT_NE(check(ranks_doing(2, {"haec_bcast 7 1 0 1"}), 2).find("communicator 7, which rank 0 never made"),
            std::string::npos);
  EXPECT_NE(check(ranks_doing(2, {"haec_comm_dup 0 2", "haec_comm_free 2", "haec_barrier 2"}), 2).find("freed at"),
            std::string::npos);
  // a root or a vector that does not fit the communicator; ranks disagreeing on the root
  EXPECT_NE(check(ranks_doing(2, {"haec_comm_dup 0 2", "haec_bcast 2 1 2 1"}), 2).find("root 2 of haec_bcast"),
            std::string::npos);
  EXPECT_NE(check(ranks_doing(2, {"haec_reduce_scatter 0 0 1 4 4 4"}), 2).find("per-rank numbers"), std::string::npos);
  EXPECT_NE(check("0 init\n0 bcast 8 0 1\n0 finalize\n1 init\n1 bcast 8 1 1\n1 finalize\n", 2).find("has root 1"),
            std::string::npos);
  // a collective some member never calls: a bad trace (exit 2), not a deadlock
  EXPECT_NE(check("0 init\n0 haec_allreduce 0 1 1\n0 finalize\n1 init\n1 finalize\n", 2)
                .find("rank 1 (trace.txt) ends its trace without calling it"),
            std::string::npos);
  // a request ID never completed, a field out of its range, an in-place count where none is allowed
  EXPECT_NE(check(ranks_doing(2, {"haec_ibarrier 1 0"}), 2).find("never completed"), std::string::npos);
  EXPECT_NE(check(ranks_doing(2, {"haec_comm_split 0 2 -3 0"}), 2).find("(color) '-3' must be >= -1"),
            std::string::npos);
  EXPECT_NE(check(ranks_doing(2, {"haec_bcast 0 -1 0 1"}), 2).find("(count) '-1' must be >= 0"), std::string::npos);
}

TEST(TraceCommCheck, BufferedSendsNeverWaitSynchronousOnesDo)
{
  // both ranks send 1 MiB first: buffered sends are detached, plain and synchronous ones deadlock
  const std::string both = "0 init\n0 MODE 1 1 1048576 2\n0 recv 1 1 1048576 2\n0 finalize\n"
                           "1 init\n1 MODE 0 1 1048576 2\n1 recv 0 1 1048576 2\n1 finalize\n";
  auto with = [&](const std::string& mode) {
    std::string t = both;
    for (size_t at = t.find("MODE"); at != std::string::npos; at = t.find("MODE"))
      t.replace(at, 4, mode);
    return check(t, 2);
  };
  EXPECT_EQ(with("haec_bsend"), "");
  EXPECT_EQ(with("send").rfind("deadlock:", 0), 0u);
  EXPECT_EQ(with("haec_ssend").rfind("deadlock:", 0), 0u);
}

TEST(TraceCommCheck, AFreedRequestNeedsNoWait)
{
  // MPI_Request_free of a synchronous send: its message is still received, nothing waits for it
  const std::string freed = "0 init\n0 haec_issend 1 1 3 1 1\n0 haec_request_free 1\n0 finalize\n"
                            "1 init\n1 recv 0 3 1 1\n1 finalize\n";
  EXPECT_EQ(check(freed, 2), "");
  const std::string unknown = "0 init\n0 haec_request_free 4\n0 finalize\n1 init\n1 finalize\n";
  EXPECT_NE(check(unknown, 2).find("haec_request_free 4 names no pending request of rank 0"), std::string::npos);
}

TEST(TraceWindowCheck, RefusesMalformedOneSidedActions)
{
  const std::string make = "haec_win_create 0 64 8 0";
  // accepted: a put in a fence epoch, a lock/unlock, a post/start/complete/wait pair
  EXPECT_EQ(check(ranks_doing(2, {make, "haec_win_fence 0 0", "haec_put 0 1 1 0 7 1 0", "haec_win_fence 0 0",
                                  "haec_win_lock 0 1 1 0", "haec_get 0 1 2 0 0 2 0", "haec_win_unlock 0 1",
                                  "haec_win_free 0"}),
                  2),
            "");
  EXPECT_EQ(check("0 init\n0 " + make + "\n0 haec_win_start 0 0 1 1\n0 haec_put 0 1 1 0 0 1 0\n0 haec_win_complete 0\n"
                  "0 haec_win_free 0\n0 finalize\n1 init\n1 " + make + "\n1 haec_win_post 0 0 1 0\n1 haec_win_wait 0\n"
                  "1 haec_win_free 0\n1 finalize\n",
                  2),
            "");
  auto refused = [&](const std::vector<std::string>& body, const std::string& why) {
    const std::string e = check(ranks_doing(2, body), 2);
    EXPECT_NE(e.find(why), std::string::npos) << "expected '" << why << "', got '" << e << "'";
    EXPECT_NE(e.find("trace.txt:"), std::string::npos) << e; // file:line
  };
  refused({make, "haec_win_fence 0 0", "haec_put 3 1 1 0 0 1 0"}, "haec_put on window 3, which rank 0 never created");
  refused({make, "haec_win_fence 0 0", "haec_put 0 2 1 0 0 1 0"}, "targets rank 2, not a rank of window 0's 2-rank");
  refused({make, "haec_win_free 0", "haec_win_free 0"}, "window 0 is freed twice");
  refused({make, "haec_win_post 0 0 2 1"}, "haec_win_post announces 2 ranks but lists 1");
  refused({make, "haec_win_lock 0 3 1 0"}, "(lock type) '3' must be 1 (exclusive) or 2 (shared)");
  refused({make, "haec_win_fence 0 0", "haec_put 0 1 2 0 7 2 0"}, "goes beyond rank 1's 64-byte window 0");
  refused({make, "haec_win_unlock 0 1"}, "haec_win_unlock of window 0 on rank 1 without a haec_win_lock");
  refused({make, "haec_win_lock 0 1 1 0", "haec_win_free 0"}, "still locks it (no haec_win_unlock since)");
  refused({make, "haec_win_complete 0"}, "haec_win_complete of window 0 without a haec_win_start");
  // a window only rank 0 creates
  const std::string one = check("0 init\n0 " + make + "\n0 finalize\n1 init\n1 finalize\n", 2);
  EXPECT_NE(one.find("haec_win_create (the 1st collective on communicator 0 (MPI_COMM_WORLD)): rank 1"), std::string::npos)
      << one;
  EXPECT_NE(one.find("trace.txt:2"), std::string::npos) << one;
  // a post whose rank never starts
  EXPECT_NE(check("0 init\n0 " + make + "\n0 haec_win_post 0 0 1 1\n0 finalize\n1 init\n1 " + make + "\n1 finalize\n", 2)
                .find("haec_win_post of window 0 by rank 0 names rank 1, which has no matching haec_win_start"),
            std::string::npos);
}
