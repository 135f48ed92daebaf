// Counter annotations across a TI trace (counter_annotation.hpp), checked with the rest of it:
// each annotation is well formed, names its own rank and is followed by that rank's compute line;
// every annotation lists the same events; and when any computation carries counters, every
// computation of every rank does (a counter-based power model cannot price the others). Messages
// about the run as a whole use the core's words (core/computation_counters.cpp, the power plugin),
// which would otherwise refuse the same trace later, mid-replay. Pure C++.
#pragma once
#include <string>
#include <vector>

namespace haec::trace {

class CounterCheck {
public:
  // Every non-empty line of a file, in order (replay fields); `rank` is the file's rank, -1 for a
  // file of all ranks. Throws haec::InputError naming `at` (file:line).
  void line(const std::vector<std::string>& fields, const std::string& at, int rank);
  // The end of a file: an annotation must not be its last line.
  void end_of_file();
  // After every file: computations with and without counters in one trace are refused.
  void finish() const;

private:
  void annotation(const std::vector<std::string>& fields, const std::string& at, int rank);
  std::string pending_at_;          // an annotation waiting for its compute line
  int pending_rank_ = -1;
  std::vector<std::string> events_; // the events of the first annotation (any order after it)
  std::string events_at_;
  std::string first_annotated_, first_bare_; // the first compute line with and without counters
  std::string first_bare_rank_;
};

} // namespace haec::trace
