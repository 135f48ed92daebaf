// HAEC-SIM mapping files: round trip, a HAEC-SIM style file, malformed files, hostfiles.
#include "input_error.hpp"
#include "mapping.hpp"
#include "mapping_test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace haec::mapping;
using namespace haec::mapping::test;

namespace {

const std::string kData = (std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "mapping").string();

std::string slurp(const std::string& path)
{
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TEST(MappingFile, WriteFormat)
{
  auto nodes = grid(3, 1, 1);
  // ranks 0..4 -> nodes 2,0,2,0,2; node 1 unused and therefore absent.
  // Issue 17: MapLib's header line follows the strategy line (was: no header).
  EXPECT_EQ(write_mapping_file("random", {2, 0, 2, 0, 2}, nodes),
            "random\nx_coord y_coord z_coord number_of_processes process_id(s)\n0 0 0 2 1 3\n2 0 0 3 0 2 4\n");
  EXPECT_THROW(write_mapping_file("", {0}, nodes), haec::InputError);
  EXPECT_THROW(write_mapping_file("a\nb", {0}, nodes), haec::InputError);
  EXPECT_THROW(write_mapping_file("xyz", {3}, nodes), haec::InputError);
}

TEST(MappingFile, RoundTripEveryStrategy)
{
  auto nodes = grid(3, 3, 3);
  CommMatrix m;
  m.ranks = 30;
  m.messages.assign(900, 0);
  m.bytes.assign(900, 0);
  for (int r = 0; r + 1 < 30; ++r)
    m.messages[r * 30 + r + 1] = 1 + r % 4;
  for (Strategy s : {Strategy::Xyz, Strategy::BlockXyz, Strategy::Random, Strategy::MinMd}) {
    Request req;
    req.strategy = s;
    req.ranks    = 30;
    req.seed     = 5;
    req.matrix   = &m;
    auto a       = map_ranks(req, nodes);
    auto text    = write_mapping_file(strategy_name(s), a, nodes);
    EXPECT_EQ(text.substr(0, text.find('\n')), strategy_name(s));
    EXPECT_EQ(read_mapping_file(text, "mem.map", nodes), a) << strategy_name(s);
  }
}

TEST(MappingFile, ReadsHaecSimStyleFile)
{
  // "block xyz" header (with a space, as HAEC-SIM writes it) on a 2x2x1 grid.
  auto nodes       = grid(2, 2, 1);
  const auto path  = kData + "/haecsim_block.map";
  auto a           = read_mapping_file(slurp(path), path, nodes);
  EXPECT_EQ(a, (std::vector<int>{0, 0, 1, 1, 2}));
  // Lines may come in any order, blank lines and CRLF are fine.
  EXPECT_EQ(read_mapping_file("x\r\n\r\n0 1 0 1 1\r\n1 1 0 1 0\r\n", "crlf.map", nodes), (std::vector<int>{3, 2}));
}

struct BadFile {
  const char* file;
  const char* where; // "file:line" expected in the message
  const char* says;  // a piece of the problem text
};

class MappingFileMalformed : public ::testing::TestWithParam<BadFile> {};

TEST_P(MappingFileMalformed, NamesFileAndLine)
{
  const BadFile& b = GetParam();
  auto nodes       = grid(2, 2, 1);
  const auto path  = kData + "/" + b.file;
  try {
    read_mapping_file(slurp(path), path, nodes);
    FAIL() << b.file << " was accepted";
  } catch (const haec::InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(kData + "/" + b.where, 0), 0u) << msg; // starts with "path:line"
    EXPECT_NE(msg.find(b.says), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg; // one line
  }
}

INSTANTIATE_TEST_SUITE_P(
    Files, MappingFileMalformed,
    ::testing::Values(BadFile{"bad_empty.map", "bad_empty.map:1:", "first line must name"},
                      BadFile{"bad_header_blank.map", "bad_header_blank.map:1:", "first line must name"},
                      BadFile{"bad_unknown_coords.map", "bad_unknown_coords.map:3:", "no node at coordinates (5,0,0)"},
                      BadFile{"bad_count.map", "bad_count.map:2:", "count says 3 processes but 2 rank(s) follow"},
                      BadFile{"bad_duplicate_rank.map", "bad_duplicate_rank.map:3:", "rank 0 is already placed on line 2"},
                      BadFile{"bad_missing_rank.map", "bad_missing_rank.map:3:", "rank 2 is listed but rank 1 is missing"},
                      BadFile{"bad_rank_text.map", "bad_rank_text.map:2:", "rank 'one' is not a non-negative integer"},
                      BadFile{"bad_coord_text.map", "bad_coord_text.map:2:", "y coordinate 'a' is not an integer"},
                      BadFile{"bad_short_line.map", "bad_short_line.map:2:", "expected 'x y z count rank...'"},
                      BadFile{"bad_duplicate_node.map", "bad_duplicate_node.map:3:", "already listed on line 2"},
                      BadFile{"bad_negative_count.map", "bad_negative_count.map:2:", "process count '-1'"},
                      BadFile{"bad_no_ranks.map", "bad_no_ranks.map:", "places no rank"}));

TEST(MappingFile, Hostfile)
{
  auto nodes = grid(2, 1, 1);
  EXPECT_EQ(write_hostfile({1, 0, 1}, nodes), "node-1\nnode-0\nnode-1\n");
  EXPECT_THROW(write_hostfile({2}, nodes), haec::InputError);
}

TEST(MappingFile, MapLibNodeOrderAndHeader)
{
  // MapLib sorts the nodes by (x, y, z), x slowest; reading takes the file with or without header.
  auto nodes = grid(2, 2, 1);
  const std::string text = write_mapping_file("peano", {0, 1, 2, 3}, nodes);
  EXPECT_EQ(text, "peano\nx_coord y_coord z_coord number_of_processes process_id(s)\n"
                  "0 0 0 1 0\n0 1 0 1 2\n1 0 0 1 1\n1 1 0 1 3\n");
  EXPECT_EQ(read_mapping_file(text, "mem.map", nodes), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(read_mapping_file("peano\n0 0 0 1 0\n0 1 0 1 2\n1 0 0 1 1\n1 1 0 1 3\n", "mem.map", nodes),
            (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(read_mapping_file("peano\r\n\r\nx_coord  y_coord z_coord number_of_processes process_id(s)\r\n1 1 0 1 0\r\n",
                              "mem.map", nodes),
            (std::vector<int>{3}));
  try {
    read_mapping_file("peano\nx_coord y_coord z_coord count ranks\n0 0 0 1 0\n", "bad.map", nodes);
    FAIL() << "no exception";
  } catch (const haec::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.map:2: the header line must be"), std::string::npos) << e.what();
  }
}
