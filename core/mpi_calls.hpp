// What the suite knows about the application's MPI calls, from our PMPI layer (applications
// built with `haec cc` / linked with libhaec_pmpi) or, in trace replay, from the replayed
// actions: each rank's position between calls, so a computation can be tied to its code region.
// Without either (plain smpicc) nothing is reported and every computation is in kNoRegion.
#pragma once
#include "call_sites.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace haec::suite {

constexpr uint32_t kNoRegion = UINT32_MAX;

// The region of a computation the calling actor starts now: inside an MPI call (SMPI runs the
// application's measured burst at the call's entry) the region ends at that call; outside one
// (smpi_execute_flops) it is open-ended. kNoRegion without the PMPI layer or outside an actor.
uint32_t current_region();
const std::string& region_text(uint32_t region);
// True once the PMPI layer reported a call.
bool pmpi_reporting();

struct MpiCall {
  long pid;       // the rank's actor
  uint32_t site;  // interned call site (function@object+offset)
  bool enter;     // entering (true) or leaving the call
  double time;    // simulated clock
};
// Observers see every reported call entry and exit (DVFS iteration detection, ...).
void add_mpi_call_observer(std::function<void(const MpiCall&)> observer);
const std::string& site_text(uint32_t site);

// The call the rank with actor `pid` is inside now, and the one it last left (kNoSite: none);
// what a deadlock report names (deadlock_report.cpp).
uint32_t pending_site(long pid);
uint32_t previous_site(long pid);

// Trace replay: the calling rank enters an action (replay_actions.cpp), e.g. "MPI_Isend@trace:3";
// leaving it is haec_suite_mpi_exit() as for a PMPI call.
void enter_named_site(const std::string& text);

} // namespace haec::suite
