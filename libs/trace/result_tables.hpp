// A simulated run's result files (events.csv, messages.csv, power.csv; docs/reference/
// result-files.md) as per-location event streams for the OTF2 export. Pure: the OTF2 writing is in
// tools/haec/trace_otf2.cpp.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace haec::trace {

struct RunEvent {
  enum Kind { Enter, Leave, Send, Recv, Collective, Rma };
  RunEvent(Kind k, double t, uint32_t reg = 0, int p = -1, uint64_t b = 0) : kind(k), time(t), region(reg), peer(p), bytes(b) {}
  Kind kind;
  double time;
  uint32_t region = 0; // Enter/Leave: index into RunTrace::regions
  int peer        = -1; // Send: destination rank, Recv: source rank, Collective: root (-1: none)
  uint64_t bytes  = 0;  // Collective: bytes sent
  uint32_t tag    = 0;
  uint64_t received = 0; // Collective: bytes received
  std::string op;        // Collective: OTF2 operation name (BARRIER, ALLREDUCE, ...); Rma: the record (ti_attach_rma.hpp)
  uint64_t window   = 0; // Rma: the trace's window id
  uint64_t matching = 0; // Rma: the transfer's (or lock's) matching id
  std::string ti;        // Enter of a replayed call: the TI lines since the previous call, this one last
  std::vector<double> counters; // Enter of a replayed call: the counter annotations since the previous call, summed
};

struct RunTrace {
  int ranks = 0;
  std::vector<std::string> regions;           // MPI function names ("MPI_Send"), in first-seen order
  std::vector<std::vector<RunEvent>> by_rank; // time-ordered, enter/leave properly nested
  std::vector<std::string> hosts;             // power.csv hosts, in first-seen order
  std::vector<std::vector<std::pair<double, double>>> power; // per host: (time, watts)
  double end = 0;                             // last time of any event
  uint64_t messages = 0, skipped_messages = 0; // skipped: a rank unknown to the network plugin (-1)
  bool carries_ti = false; // every call holds its TI lines (attach_ti_trace): the archive imports exactly
  std::vector<std::string> counter_events; // the replayed trace's counter annotations' events (none: no counters)
  // One-sided communication of the replayed trace (RunEvent::Rma): each window's communicator, the
  // communicators' members (world ranks in rank order, 0 MPI_COMM_WORLD) and post/start groups.
  std::map<long long, long long> rma_windows;
  std::map<long long, std::vector<int>> comms;
  std::vector<std::vector<int>> rma_groups;
};

// Builds the streams; `messages` and `power` may be empty (file absent). Throws haec::InputError
// naming "<file>:<line>" on a malformed row, an exit without entry, or ranks out of range.
RunTrace build_run_trace(const std::string& events, const std::string& events_file, const std::string& messages,
                         const std::string& messages_file, const std::string& power, const std::string& power_file);

} // namespace haec::trace
