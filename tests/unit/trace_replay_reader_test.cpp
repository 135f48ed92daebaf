// The suite's replay reader against SimGrid 3.32's own reading code (ReplayReader::get in
// src/xbt/xbt_replay.cpp, written out below with the same boost calls): same actions, same end,
// on hand-picked traces and on 20,000 random ones built from the characters that matter, read in
// blocks of every size from 1 byte (lines cut anywhere) to 8 KiB (the default).
#include "replay_reader.hpp"

#include <boost/algorithm/string.hpp>
#include <gtest/gtest.h>

#include <random>
#include <sstream>

namespace {

using Actions = std::vector<std::vector<std::string>>;

// SimGrid 3.32, verbatim in substance: read_and_trim_line + boost::split + return not eof.
bool simgrid_get(std::istream& fs, std::string& line, std::vector<std::string>& action)
{
  do {
    std::getline(fs, line);
    boost::trim(line);
  } while (not fs.eof() && (line.length() == 0 || line.front() == '#'));
  boost::split(action, line, boost::is_any_of(" \t"), boost::token_compress_on);
  return not fs.eof();
}

template <class Get> Actions read_all(const std::string& text, Get get)
{
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> action;
  Actions out;
  while (get(in, line, action)) {
    out.push_back(action);
    action.clear(); // as SimGrid's runner does after each action (the suite's reader reuses it)
  }
  return out;
}

Actions ours(const std::string& text, size_t block = size_t{1} << 16)
{
  std::istringstream in(text);
  haec::trace::ReplayReader reader(in, block);
  std::vector<std::string> action; // never cleared: the reader reuses the strings
  Actions out;
  while (reader.next(action))
    out.push_back(action);
  return out;
}

TEST(ReplayReader, ReadsActionsAsSimGrid)
{
  const std::string text = "0 init\n# comment\n\n0 send 1 11 30 0\n  0\tcompute   5000 \r\n0 recv 1 11 30 0\n";
  Actions expected = {{"0", "init"}, {"0", "send", "1", "11", "30", "0"}, {"0", "compute", "5000"},
                      {"0", "recv", "1", "11", "30", "0"}};
  EXPECT_EQ(ours(text), expected);
  EXPECT_EQ(read_all(text, simgrid_get), expected);
}

TEST(ReplayReader, DropsALastLineWithoutNewlineAsSimGridDoes)
{
  EXPECT_EQ(ours("0 init\n0 compute 5"), (Actions{{"0", "init"}}));
  EXPECT_EQ(ours(""), Actions{});
  EXPECT_EQ(ours("\n\n# only comments\n"), Actions{});
}

TEST(ReplayReader, LongTokensThenShortOnesReuseStrings)
{
  const std::string text = "0 compute 123456789012345678901234567890\n0 init\n0 a b c d e f g\n0 x\n";
  EXPECT_EQ(ours(text), read_all(text, simgrid_get));
}

TEST(ReplayReader, RepeatedAndSameLengthTokensAreReadAnew)
{
  // A token equal to the one already in place is kept; one of the same length but other bytes,
  // or a prefix of it, is written.
  const std::string text = "7 send 1 10 64 0\n7 send 1 10 64 0\n7 recv 2 10 64 0\n7 recv 2 11 6 0\n7 recv 2 11 6 01\n7 s\n";
  const Actions expected = {{"7", "send", "1", "10", "64", "0"}, {"7", "send", "1", "10", "64", "0"},
                            {"7", "recv", "2", "10", "64", "0"}, {"7", "recv", "2", "11", "6", "0"},
                            {"7", "recv", "2", "11", "6", "01"}, {"7", "s"}};
  EXPECT_EQ(ours(text), expected);
  EXPECT_EQ(read_all(text, simgrid_get), expected);
}

TEST(ReplayReader, RandomTracesMatchSimGridsReader)
{
  std::mt19937 rng(20240611);
  const std::string alphabet = "  \t\t\n\n\r\v\f#0a1b";
  for (int t = 0; t < 20000; ++t) {
    std::string text;
    const int len = static_cast<int>(rng() % 40);
    for (int i = 0; i < len; ++i)
      text += alphabet[rng() % alphabet.size()];
    const size_t block = 1 + rng() % 8; // lines cut across blocks, newlines at block ends
    ASSERT_EQ(ours(text, block), read_all(text, simgrid_get)) << "trace: '" << text << "', block " << block;
    ASSERT_EQ(ours(text), read_all(text, simgrid_get)) << "trace: '" << text << "'";
  }
}

// The variant that hands comments over (counter annotations) reads the same actions.
Actions with_comments(const std::string& text, Actions& comments, std::vector<size_t>& at, size_t block = 4096)
{
  std::istringstream in(text);
  haec::trace::ReplayReader reader(in, block);
  std::vector<std::string> action;
  Actions out;
  auto comment = [&](const std::vector<std::string>& fields) {
    comments.push_back(fields);
    at.push_back(reader.lines());
  };
  while (reader.next(action, comment))
    out.push_back(action);
  return out;
}

TEST(ReplayReader, HandsCommentsOverWithTheirLineNumbers)
{
  const std::string text = "0 init\n# 0 haec_counters A=1 B=2\n0 compute 5\n\n  # x\n0 finalize\n# last";
  Actions comments;
  std::vector<size_t> at;
  EXPECT_EQ(with_comments(text, comments, at), ours(text));
  EXPECT_EQ(comments, (Actions{{"#", "0", "haec_counters", "A=1", "B=2"}, {"#", "x"}}));
  EXPECT_EQ(at, (std::vector<size_t>{2, 5}));
}

TEST(ReplayReader, RandomTracesWithCommentsMatchSimGridsReader)
{
  std::mt19937 rng(20261124);
  const std::string alphabet = "  \t\n\n\r#0a1b";
  for (int t = 0; t < 5000; ++t) {
    std::string text;
    const int len = static_cast<int>(rng() % 40);
    for (int i = 0; i < len; ++i)
      text += alphabet[rng() % alphabet.size()];
    Actions comments;
    std::vector<size_t> at;
    ASSERT_EQ(with_comments(text, comments, at, 1 + rng() % 5), read_all(text, simgrid_get)) << "trace: '" << text << "'";
  }
}

} // namespace

// A long trace whose lines cross the default block's boundary many times, and a line longer than a
// block: the same actions as SimGrid's reader.
TEST(ReplayReader, LinesAcrossBlocksMatchSimGridsReader)
{
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += std::to_string(i % 64) + " send " + std::to_string(i % 7) + " 11 " + std::to_string(i) + " 0\n";
  text += "0 compute " + std::string(100000, '7') + "\n0 finalize\n";
  const Actions expected = read_all(text, simgrid_get);
  ASSERT_EQ(expected.size(), 20002u);
  EXPECT_EQ(ours(text), expected);
  EXPECT_EQ(ours(text, 4093), expected);
}
