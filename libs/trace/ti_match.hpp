// The matching simulation of `haec trace check` (and of every replay's check): each rank's
// point-to-point and collective actions are played in order, without time, with SimGrid 3.32's
// replay rules (requests kept per (src, dst, tag) as its RequestStorage does, `waitall` completes
// every pending request, sends below smpi/send-is-detached-thresh do not wait for their receive,
// collectives wait for every rank). It finds what would stop or stall the replay:
//   - a deadlock: no rank can progress and some have not finished (DeadlockError, exit 4),
//     naming each blocked rank's action and its file:line;
//   - a `wait` SimGrid aborts on (no request pending at all) or one naming no pending request,
//     ranks calling different collectives, messages never received (InputError, file:line).
// Pure: no SimGrid.
#pragma once
#include "ti_program.hpp"

#include <cstdint>
#include <map>
#include <vector>

namespace haec::trace {

struct MatchOptions {
  uint64_t detached_send_threshold = 65536; // SimGrid 3.32's default smpi/send-is-detached-thresh
};

void match_ti_program(const TiProgram& program, int ranks, const MatchOptions& options = {});

// The communicators of a trace that passes the matching (ids >= 0: 0 is MPI_COMM_WORLD), each as
// its members' world ranks in rank order (for the OTF2 export's communicator definitions).
std::map<long long, std::vector<int>> ti_communicators(const TiProgram& program, int ranks);

} // namespace haec::trace
