// The one-sided actions of a replayed trace (haec_win_*, haec_put, ...) as OTF2's RMA records, for
// the export (ti_attach.hpp): which record, on which window, with which remote rank, bytes and
// matching id. Pure C++: tools/haec/trace_otf2_export.cpp writes them with libotf2.
#pragma once
#include "result_tables.hpp"

#include <map>
#include <string>
#include <vector>

namespace haec::trace {

// RunEvent::Rma's `op`, OTF2's records: WIN_CREATE, WIN_DESTROY, PUT, GET, ATOMIC (tag: the OTF2
// atomic type: 0 accumulate, 3 compare-and-swap, 7 fetch-and-accumulate), COLLECTIVE_BEGIN,
// COLLECTIVE_END (a fence), GROUP_SYNC (tag: the group's index in RunTrace::rma_groups), REQUEST_LOCK
// and ACQUIRE_LOCK (tag: 0 exclusive, 1 shared; matching: the lock id), RELEASE_LOCK, SYNC (a flush),
// OP_COMPLETE_BLOCKING, OP_COMPLETE_NON_BLOCKING (matching: the transfer's).
class RmaRecords {
public:
  // Rank r's records for one action (its fields as written), at `time`.
  void add(RunTrace& t, std::vector<RunEvent>& out, int r, const std::vector<std::string>& f, double time);

private:
  struct Rank {
    uint64_t next_matching = 1, next_lock = 1;
    std::map<std::pair<long long, long long>, uint64_t> locks;     // (window, remote) -> lock id
    std::map<long long, uint32_t> post, start;                     // window -> its open group
    std::map<long long, std::pair<long long, uint64_t>> requests;  // haec_r* ID -> (window, matching)
  };
  std::map<int, Rank> ranks_;
};

} // namespace haec::trace
