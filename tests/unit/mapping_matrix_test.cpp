// Communication matrices: traffic_matrix.csv and SimGrid 3.32 time-independent traces.
#include "input_error.hpp"
#include "mapping.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace haec::mapping;
namespace fs = std::filesystem;

namespace {

const std::string kData = (fs::path(__FILE__).parent_path().parent_path() / "data" / "mapping").string();

uint64_t bytes(const CommMatrix& m, int s, int d) { return m.bytes[static_cast<size_t>(s) * m.ranks + d]; }

// Scratch files of this process, removed when the test binary exits.
struct ScratchDir {
  fs::path dir = fs::path(::testing::TempDir()) / ("haec_mapping_" + std::to_string(::getpid()));
  ~ScratchDir()
  {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
} scratch_dir;

std::string scratch(const std::string& name, const std::string& text)
{
  fs::create_directories(scratch_dir.dir);
  std::ofstream(scratch_dir.dir / name) << text;
  return (scratch_dir.dir / name).string();
}

// Expects InputError whose message starts with "<path>:<line>:" and mentions `says`.
template <typename F>
void expect_error(F read, const std::string& path, const std::string& at, const std::string& says)
{
  try {
    read(path);
    FAIL() << path << " was accepted";
  } catch (const haec::InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(at, 0), 0u) << msg;
    EXPECT_NE(msg.find(says), std::string::npos) << msg;
  }
}

} // namespace

TEST(MappingTrafficMatrix, ReadsRows)
{
  CommMatrix m = read_traffic_matrix(kData + "/traffic_ok.csv");
  ASSERT_EQ(m.ranks, 5); // largest rank seen is 4
  ASSERT_EQ(m.messages.size(), 25u);
  EXPECT_EQ(m.msgs(0, 1), 3u);
  EXPECT_EQ(bytes(m, 0, 1), 300u);
  EXPECT_EQ(m.msgs(1, 0), 2u);
  EXPECT_EQ(m.msgs(2, 4), 1u);
  EXPECT_EQ(bytes(m, 2, 4), 8u);
  uint64_t total = 0;
  for (auto k : m.messages)
    total += k;
  EXPECT_EQ(total, 6u);
  // Header only: no traffic, empty matrix.
  EXPECT_EQ(read_traffic_matrix(scratch("empty.csv", "src_rank,dst_rank,messages,bytes\n")).ranks, 0);
}

TEST(MappingTrafficMatrix, Malformed)
{
  auto read = [](const std::string& p) { return read_traffic_matrix(p); };
  const std::string h = "src_rank,dst_rank,messages,bytes\n";
  struct Case {
    const char* name;
    std::string text;
    int line;
    const char* says;
  } cases[] = {
      {"hdr.csv", "src,dst,messages,bytes\n0,1,1,1\n", 1, "header must be exactly"},
      {"nohdr.csv", "", 1, "header must be exactly"},
      {"fields.csv", h + "0,1,1\n", 2, "expected 4 comma-separated fields, got 3"},
      {"text.csv", h + "0,1,1,1\n0,x,1,1\n", 3, "dst_rank 'x' is not a non-negative integer"},
      {"neg.csv", h + "0,1,-4,1\n", 2, "messages '-4'"},
      {"float.csv", h + "0,1,1,2.5\n", 2, "bytes '2.5'"},
      {"dup.csv", h + "0,1,1,1\n\n0,1,2,2\n", 4, "already has a row on line 2"},
      {"nomsg.csv", h + "0,1,0,10\n", 2, "bytes without messages"},
      {"huge.csv", h + "0,9000,1,1\n", 2, "dst_rank 9000 is too large"},
  };
  for (const auto& c : cases) {
    auto path = scratch(c.name, c.text);
    expect_error(read, path, path + ":" + std::to_string(c.line) + ":", c.says);
  }
  expect_error(read, kData + "/no_such.csv", kData + "/no_such.csv:", "cannot open");
}

TEST(MappingTiTrace, RealSimGridTracerOutput)
{
  // ti_list/ was written by smpirun 3.32 -trace-ti (see tests/data/mapping/README.md): the list
  // names "out/ti.txt_files/<stamp>_rank-N.txt" relative to the tracer's working directory, so
  // the reader finds them under ti_list/ti.txt_files/.
  // Rank 0: send 1 7 10 0 (10 doubles = 80 B), sendRecv 3 1 3 2 0 0 (3 doubles to 1 = 24 B).
  // Rank 1: isend 2 3 5 1 (5 ints = 20 B), sendRecv 3 2 ... (24 B to 2). Rank 2: sendRecv to 0.
  // recv/irecv/wait/bcast/compute do not count.
  CommMatrix m = read_ti_trace(kData + "/ti_list/ti.txt");
  ASSERT_EQ(m.ranks, 3);
  EXPECT_EQ(m.msgs(0, 1), 2u);
  EXPECT_EQ(bytes(m, 0, 1), 104u);
  EXPECT_EQ(m.msgs(1, 2), 2u);
  EXPECT_EQ(bytes(m, 1, 2), 44u);
  EXPECT_EQ(m.msgs(2, 0), 1u);
  EXPECT_EQ(bytes(m, 2, 0), 24u);
  EXPECT_EQ(m.msgs(1, 0) + m.msgs(2, 1) + m.msgs(0, 2) + m.msgs(0, 0), 0u);
}

TEST(MappingTiTrace, SingleFileAndSharedList)
{
  // ti_single.txt (4 ranks; rank 0's "init 1" makes its default datatype MPI_DOUBLE):
  //  0 send 1 0 1e3        -> 1000 doubles        = 8000 B
  //  0 isend 2 5 10 1      -> 10 MPI_INT          = 40 B   (tab-separated fields)
  //  1 send 2 0 100        -> default MPI_BYTE    = 100 B
  //  1 sendRecv 4 0 4 2 5 5-> 4 MPI_FLOAT to 0    = 16 B
  //  2 Ssend 0 3 7 2       -> 7 MPI_CHAR          = 7 B
  //  1 send 2 0 2.9        -> truncated to 2      = 2 B
  //  recv, bcast, compute, the unknown "frobnicate" are ignored; "3 finalize" makes 4 ranks.
  for (const char* file : {"/ti_single.txt", "/ti_shared_list.txt"}) {
    CommMatrix m = read_ti_trace(kData + file);
    ASSERT_EQ(m.ranks, 4) << file;
    EXPECT_EQ(m.msgs(0, 1), 1u);
    EXPECT_EQ(bytes(m, 0, 1), 8000u);
    EXPECT_EQ(m.msgs(0, 2), 1u);
    EXPECT_EQ(bytes(m, 0, 2), 40u);
    EXPECT_EQ(m.msgs(1, 2), 2u);
    EXPECT_EQ(bytes(m, 1, 2), 102u);
    EXPECT_EQ(m.msgs(1, 0), 1u);
    EXPECT_EQ(bytes(m, 1, 0), 16u);
    EXPECT_EQ(m.msgs(2, 0), 1u);
    EXPECT_EQ(bytes(m, 2, 0), 7u);
    uint64_t total = 0;
    for (auto k : m.messages)
      total += k;
    EXPECT_EQ(total, 6u);
  }
}

TEST(MappingTiTrace, PerRankListRelativeToListDirectory)
{
  scratch("r0.txt", "0 init\n0 send 1 0 8 0\n0 recv 1 0 4\n");
  scratch("r1.txt", "1 init\n1 recv 0 0 8\n1 isend 0 0 4\n1 isend 2 0 4\n");
  auto list = scratch("list.txt", "r0.txt\n\nr1.txt\n");
  CommMatrix m = read_ti_trace(list);
  ASSERT_EQ(m.ranks, 3); // two listed ranks, rank 2 only as a destination
  EXPECT_EQ(bytes(m, 0, 1), 64u);
  EXPECT_EQ(bytes(m, 1, 0), 4u);
  EXPECT_EQ(bytes(m, 1, 2), 4u);
}

TEST(MappingTiTrace, Malformed)
{
  auto read = [](const std::string& p) { return read_ti_trace(p); };
  struct Case {
    const char* name;
    const char* text;
    int line;
    const char* says;
  } cases[] = {
      {"short.txt", "0 init\n0 send 1 0\n", 2, "send needs '<dst> <tag> <count> [datatype]'"},
      {"dst.txt", "0 isend one 0 8\n", 1, "destination 'one' is not a rank"},
      {"negdst.txt", "0 send -1 0 8\n", 1, "destination '-1'"},
      {"count.txt", "# c\n0 send 1 0 -8\n", 2, "count '-8' is not a non-negative number"},
      {"countx.txt", "0 send 1 0 8kB\n", 1, "count '8kB'"},
      {"tag.txt", "0 send 1 t 8\n", 1, "tag 't' is not an integer"},
      {"type.txt", "0 send 1 0 8 77\n", 1, "unknown datatype id '77'"},
      {"rank.txt", "0 init\nx send 1 0 8\n", 2, "rank 'x' is not a rank"},
      {"sendrecv.txt", "0 sendRecv 4 1 4 1\n", 1, "sendRecv needs"},
      {"onefield.txt", "0 init\nfinalize\n", 2, "expected '<rank> <action> ...'"},
  };
  for (const auto& c : cases) {
    auto path = scratch(c.name, c.text);
    expect_error(read, path, path + ":" + std::to_string(c.line) + ":", c.says);
  }
  // Per-rank files must hold their own rank's actions only.
  scratch("w0.txt", "0 send 1 0 8\n");
  scratch("w1.txt", "1 init\n0 send 1 0 8\n");
  auto list = scratch("wrong.txt", "w0.txt\nw1.txt\n");
  auto w1   = (fs::path(list).parent_path() / "w1.txt").string();
  expect_error(read, list, w1 + ":2:", "action of rank 0 in the trace of rank 1");
  // A listed file that does not exist.
  auto missing = scratch("missing.txt", "w0.txt\nnope.txt\n");
  expect_error(read, missing, missing + ":2:", "trace file 'nope.txt' not found");
  // No action line at all.
  auto none = scratch("none.txt", "# only a comment\n");
  expect_error(read, none, none + ":", "holds no action line");
}
