// SimGrid 3.32's trace reader (src/xbt/xbt_replay.cpp, ReplayReader::get) with the same results
// and a fraction of the cost: boost::split with is_any_of built a fresh token finder and fresh
// strings for every line, a quarter of all instructions of a 256-rank replay (callgrind). Here the
// tokens are written into the strings the previous line left, so a line allocates nothing once the
// strings have grown. Pure C++: no SimGrid include.
#pragma once
#include <cstddef>
#include <functional>
#include <istream>
#include <string>
#include <vector>

namespace haec::trace {

// What SimGrid does, exactly: read lines (std::getline), trim them (boost::trim: the C locale's
// white space), skip empty lines and lines starting with '#' (the last line read is kept whatever
// it is), split the line at spaces and tabs with runs of them merged, and return !in.eof(): a last
// line without its newline is read but reported as the end, as SimGrid drops it.
bool next_replay_action(std::istream& in, std::string& line, std::vector<std::string>& action);

// The same, and every comment line read on the way (starting with '#', not the last line of the
// file) is handed to `comment` as its fields before it is skipped: how the suite's replay reads the
// counter annotations of a trace (counter_annotation.hpp). `lines` counts the lines read, so it is
// the number of the last one (file:line in errors).
bool next_replay_action(std::istream& in, std::string& line, std::vector<std::string>& action, size_t& lines,
                        const std::function<void(const std::vector<std::string>&)>& comment);

// The fields the replay reads from one line, tokenised as above (trimmed, split at spaces and
// tabs); none for a blank line. The pre-run check (ti_check.hpp) reads lines with it, so that it
// sees exactly the fields the replay will.
std::vector<std::string> replay_fields(std::string line);

} // namespace haec::trace
