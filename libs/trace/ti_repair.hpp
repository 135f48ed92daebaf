// `haec trace repair`: rewrites a trace written by SimGrid's own tracer (smpirun -trace-ti) into
// one that replays, where the trace holds the information (libs/trace/README.md):
//   - a `waitall N` that completed only some of the pending requests (SimGrid 3.32's replay waits
//     for all of them, then aborts on the later `wait` of another one: "wait not preceded by any
//     irecv or isend", e.g. LULESH) becomes one `wait` per request it completed: those not waited
//     later, oldest first per (src, dst, tag); N must agree;
//   - a receive from any source (`-333`, HPCCG) gets its source when a single rank's messages are
//     left to match it (sends minus receives naming their source, per destination and tag);
//   - SimGrid's non-blocking collectives (`ialltoall`, `iallreduce`, `ibcast`, `ireduce`,
//     `iallgather`, `igather`, `iscatter`, `ibarrier`) become our `haec_i*` actions with a
//     `haec_wait` where a wait or waitall completed them, or at the last `test` of one only polled.
// Where the information is not there (a wildcard several ranks may have matched, a `waitAny`,
// `waitall N` disagreeing with what is pending, one-sided actions, other non-blocking
// collectives), it says so, with file:line, and repairs nothing. Pure: no SimGrid.
#pragma once
#include <string>
#include <vector>

namespace haec::trace {

struct RepairResult {
  std::vector<std::string> rank_texts; // the repaired trace, one text per rank
  int waitalls_rewritten = 0, waits_written = 0, collectives = 0, wildcards = 0;
  std::vector<std::string> problems;   // "<file>:<line>: <why it cannot be repaired>"; texts empty then
};

// `ranks` as for check_ti_trace (-1: from the list or the highest rank of a single file).
RepairResult repair_ti_trace(const std::string& list_path, int ranks);

} // namespace haec::trace
