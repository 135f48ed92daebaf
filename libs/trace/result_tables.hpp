// A simulated run's result files (events.csv, messages.csv, power.csv; README.md "Result
// directory") as per-location event streams for the OTF2 export. Pure: the OTF2 writing is in
// tools/haec/trace_otf2.cpp.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace haec::trace {

struct RunEvent {
  enum Kind { Enter, Leave, Send, Recv } kind;
  double time;
  uint32_t region = 0; // Enter/Leave: index into RunTrace::regions
  int peer        = -1; // Send: destination rank, Recv: source rank
  uint64_t bytes  = 0;
};

struct RunTrace {
  int ranks = 0;
  std::vector<std::string> regions;           // MPI function names ("MPI_Send"), in first-seen order
  std::vector<std::vector<RunEvent>> by_rank; // time-ordered, enter/leave properly nested
  std::vector<std::string> hosts;             // power.csv hosts, in first-seen order
  std::vector<std::vector<std::pair<double, double>>> power; // per host: (time, watts)
  double end = 0;                             // last time of any event
  uint64_t messages = 0, skipped_messages = 0; // skipped: a rank unknown to the network plugin (-1)
};

// Builds the streams; `messages` and `power` may be empty (file absent). Throws haec::InputError
// naming "<file>:<line>" on a malformed row, an exit without entry, or ranks out of range.
RunTrace build_run_trace(const std::string& events, const std::string& events_file, const std::string& messages,
                         const std::string& messages_file, const std::string& power, const std::string& power_file);

} // namespace haec::trace
