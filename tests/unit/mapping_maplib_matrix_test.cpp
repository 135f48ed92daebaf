// MapLib's CSV matrices (square, comma-separated, no header; *.size.csv bytes, *.count.csv
// messages, the sibling read when present) and their defects.
#include "input_error.hpp"
#include "mapping.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace haec::mapping;
namespace fs = std::filesystem;

namespace {

fs::path scratch_dir(const std::string& name)
{
  fs::path dir = fs::path(::testing::TempDir()) / ("haec_maplib_" + std::to_string(::getpid())) / name;
  fs::create_directories(dir);
  return dir;
}

std::string put(const fs::path& dir, const std::string& file, const std::string& text)
{
  std::ofstream(dir / file) << text;
  return (dir / file).string();
}

} // namespace

TEST(MappingMapLibMatrix, SizeWithItsCount)
{
  auto dir = scratch_dir("both");
  put(dir, "comm_matrix.p2p.count.csv", "0,2,0\n1,0,0\n0,0,3\n");
  const auto path = put(dir, "comm_matrix.p2p.size.csv", "0,800,0\n16,0,0\n0,0,24\n");
  const CommMatrix m = read_maplib_matrix(path);
  EXPECT_EQ(m.ranks, 3);
  EXPECT_TRUE(m.has_bytes);
  EXPECT_TRUE(m.has_messages);
  EXPECT_EQ(m.byte_count(0, 1), 800u);
  EXPECT_EQ(m.msgs(0, 1), 2u);
  EXPECT_EQ(m.byte_count(1, 0), 16u);
  EXPECT_EQ(m.msgs(2, 2), 3u);
  EXPECT_EQ(read_maplib_matrix((dir / "comm_matrix.p2p.count.csv").string()).bytes, m.bytes);
}

TEST(MappingMapLibMatrix, AloneTheOtherQuantityIsUnknown)
{
  auto dir = scratch_dir("alone");
  CommMatrix m = read_maplib_matrix(put(dir, "a.size.csv", "0, 5\r\n7 ,0\r\n\r\n"));
  EXPECT_EQ(m.ranks, 2);
  EXPECT_TRUE(m.has_bytes);
  EXPECT_FALSE(m.has_messages);
  EXPECT_EQ(m.byte_count(1, 0), 7u);
  m = read_maplib_matrix(put(dir, "b.count.csv", "0,1\n1,0\n"));
  EXPECT_FALSE(m.has_bytes);
  EXPECT_TRUE(m.has_messages);
}

TEST(MappingMapLibMatrix, Defects)
{
  auto dir = scratch_dir("bad");
  struct Case {
    std::string file, text, message;
  } cases[] = {
      {"ragged.size.csv", "0,1,2\n1,0\n2,1,0\n", "ragged.size.csv:2: row has 2 fields but the matrix has 3 rows"},
      {"wide.size.csv", "0,1,2\n1,0,3\n", "wide.size.csv:1: row has 3 fields but the matrix has 2 rows"},
      {"negative.size.csv", "0,-4\n1,0\n", "negative.size.csv:1: negative weight '-4' in column 2"},
      {"text.size.csv", "0,x\n1,0\n", "text.size.csv:1: value 'x' in column 2 is not a non-negative integer"},
      {"float.count.csv", "0,1.5\n1,0\n", "value '1.5'"},
      {"empty.size.csv", "\n\n", "the matrix is empty"},
      {"matrix.csv", "0,1\n1,0\n", "must say what it counts"},
  };
  for (const auto& c : cases) {
    const auto path = put(dir, c.file, c.text);
    try {
      read_maplib_matrix(path);
      FAIL() << c.file << ": no exception";
    } catch (const haec::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
  put(dir, "pair.count.csv", "0,1,1\n1,0,1\n1,1,0\n");
  EXPECT_THROW(read_maplib_matrix(put(dir, "pair.size.csv", "0,1\n1,0\n")), haec::InputError); // 2 vs 3 ranks
}
