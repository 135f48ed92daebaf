// Checks a SimGrid time-independent trace before it is replayed: every line of every rank file,
// so that a corrupt or truncated trace, an action nothing can replay or a rank count that differs
// from -np stops with one line naming the file and the line, instead of a SimGrid abort mid-run.
#pragma once
#include "ti_match.hpp"
#include "ti_program.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace haec::trace {

// The per-rank files a list file names (resolved like libs/mapping/ti_trace.cpp: as
// given, then relative to the list's directory). A file whose first line is an action is a
// single shared trace: returned alone.
std::vector<std::string> ti_rank_files(const std::string& list_path);

// Throws haec::InputError("<file>:<line>", problem, fix) on the first bad line or sequence (each
// rank starts with init and ends with finalize), then runs the matching simulation (ti_match.hpp:
// DeadlockError for a deadlock). `ranks` is the replay's rank count (-1: take it from the list).
void check_ti_trace(const std::string& list_path, int ranks, const MatchOptions& options = {});

// The checked actions of every rank (what check_ti_trace matches); sets `ranks` when it was -1.
TiProgram read_ti_program(const std::string& list_path, int& ranks);
// The same from the rank files' texts (rank r's in texts[r], named files[r] in errors).
TiProgram read_ti_texts(const std::vector<std::string>& texts, const std::vector<std::string>& files);

// The fields of one line and the checks every line gets (shape, values, peers): for the repair,
// which rewrites some lines before checking the result as a whole.
std::vector<std::string> split_fields(const std::string& line);
void check_ti_line(const std::vector<std::string>& fields, const std::string& at, int rank, int ranks);

// One rank file's text (for tests and the OTF2 import's own output): every line, init first,
// finalize last.
void check_ti_rank_text(const std::string& text, const std::string& file, int rank, int ranks);

} // namespace haec::trace

namespace haec::trace {

// Where the `ordinal`-th action (1-based) of `rank` other than compute and sleep is in the trace
// `list_path`: "<file>:<line>", or the rank's file alone when it has fewer actions. For the
// replay, which counts the actions a rank runs but not the lines they came from.
std::string ti_action_location(const std::string& list_path, int rank, uint64_t ordinal);

} // namespace haec::trace
