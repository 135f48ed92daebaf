// SimGrid 3.32's trace reader (src/xbt/xbt_replay.cpp, ReplayReader::get) with the same results
// and a fraction of the cost: boost::split with is_any_of built a fresh token finder and fresh
// strings for every line, a quarter of all instructions of a 256-rank replay (callgrind). Here the
// tokens are written into the strings the previous line left, so a line allocates nothing once the
// strings have grown. Pure C++: no SimGrid include.
#pragma once
#include <istream>
#include <string>
#include <vector>

namespace haec::trace {

// What SimGrid does, exactly: read lines (std::getline), trim them (boost::trim: the C locale's
// white space), skip empty lines and lines starting with '#' (the last line read is kept whatever
// it is), split the line at spaces and tabs with runs of them merged, and return !in.eof(): a last
// line without its newline is read but reported as the end, as SimGrid drops it.
bool next_replay_action(std::istream& in, std::string& line, std::vector<std::string>& action);

} // namespace haec::trace
