// The one line that names the ranks of a deadlock and what each one waits for, shared by the
// simulator (core/deadlock_report.cpp: the calls a run is stuck in) and `haec trace check`
// (libs/trace/ti_match.cpp: the actions a trace would be stuck at). Pure: no SimGrid.
#pragma once
#include <string>
#include <vector>

namespace haec {

struct BlockedRank {
  int rank = -1;
  std::string call;   // "MPI_Recv", "recv", "" when unknown
  std::string peer;   // "from 1", "to 3", "" when none or unknown
  int tag = -1;       // -1: none or unknown
  std::string where;  // "d0.txt:2", a call site, or ""
};

// "rank 0 waits in MPI_Recv from 1 tag 0 (where); ranks 2-5 wait in MPI_Barrier; rank 6 ended
// without calling MPI_Finalize": ranks in order, neighbours doing the same thing grouped, cut
// after about `budget` characters ("...; and 12 more ranks"). `ended` are ranks that ended without
// reaching MPI_Finalize (often the cause). The whole list, never cut, goes to *full if given.
std::string describe_blocked_ranks(std::vector<BlockedRank> blocked, std::vector<int> ended, size_t budget,
                                   std::string* full = nullptr);

} // namespace haec
