// SimGrid 3.32's trace reader (src/xbt/xbt_replay.cpp, ReplayReader::get) with the same results
// and a fraction of the cost: boost::split with is_any_of built a fresh token finder and fresh
// strings for every line, a quarter of all instructions of a 256-rank replay (callgrind). Here the
// file is read in blocks and cut at newlines (no std::getline per line), and the tokens are written
// into the strings the previous line left, so a line allocates nothing once they have grown.
// Pure C++: no SimGrid include.
#pragma once
#include <cstddef>
#include <functional>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace haec::trace {

class ReplayReader {
public:
  using CommentFn = std::function<void(const std::vector<std::string>&)>;
  // One block per reader, and a replay has one reader per rank: 8 KiB is a 4096-rank replay's 32 MiB.
  explicit ReplayReader(std::istream& in, size_t block_bytes = size_t{1} << 13);

  // What SimGrid does, exactly: read lines (as std::getline), trim them (boost::trim: the C
  // locale's white space), skip empty lines and lines starting with '#' (the last line read is kept
  // whatever it is), split the line at spaces and tabs with runs of them merged, and return false
  // at the end of the stream: a last line without its newline is read but reported as the end, as
  // SimGrid drops it.
  bool next(std::vector<std::string>& action) { return next(action, nullptr); }
  // The same, and every comment line read on the way (starting with '#', not the last line of the
  // file) is handed to `comment` as its fields before it is skipped: how the suite's replay reads
  // the counter annotations of a trace (counter_annotation.hpp).
  bool next(std::vector<std::string>& action, const CommentFn& comment);
  // The lines read so far: the number of the last one (file:line in errors).
  size_t lines() const { return lines_; }

private:
  // The next line without its newline; false when the stream ended before a newline (getline's eof).
  bool next_line(std::string_view& line);

  std::istream& in_;
  std::vector<char> block_;
  size_t begin_ = 0, end_ = 0; // the unread part of block_
  std::string spanning_;       // a line that crosses blocks, gathered here
  size_t lines_ = 0;
};

// The fields the replay reads from one line, tokenised as above (trimmed, split at spaces and
// tabs); none for a blank line. The pre-run check (ti_check.hpp) reads lines with it, so that it
// sees exactly the fields the replay will.
std::vector<std::string> replay_fields(std::string line);

} // namespace haec::trace
