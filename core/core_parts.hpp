// How the core's own parts (this folder) reach each other; plugins use run.hpp only.
#pragma once
#include "results.hpp"
#include "run_description.hpp"
#include "run_record.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace haec::platform {
class Topology;
}
namespace simgrid::s4u {
class Host;
class Link;
}

namespace haec::core::parts {

RunRecord& run_record();
const std::optional<RunDescription>& run_description();
const platform::Topology* loaded_topology(); // platform_loader.cpp: nullptr for XML platforms
long self_pid(); // mpi_calls.cpp: the calling actor's pid, -1 outside an actor

// Started by run_context.cpp once the settings are validated: before the plugins...
void start_calls(); // mpi_calls.cpp: regions, events.csv, iteration boundaries
// ... and after them, when their subscriptions are known.
void connect_computations(); // computations.cpp
void connect_transfers();    // transfers.cpp
void connect_iterations();   // mpi_calls.cpp

// traffic_stats.cpp: per-pair, per-size and per-link statistics, and snapshots (haec/snapshot-period).
void start_traffic_stats();
const std::vector<uint32_t>& route_ids(const std::vector<simgrid::s4u::Link*>& route); // the links' ids there (interned)
const std::vector<uint32_t>& route_ids(const simgrid::s4u::Host* src, const simgrid::s4u::Host* dst,
                                       const std::vector<simgrid::s4u::Link*>& route); // the same, cached per source

double route_latency(const std::vector<simgrid::s4u::Link*>& route);           // sum of the links' latencies
// A completed transfer, its route's link ids and the start of its bandwidth phase.
void record_transfer_stats(const Transfer& t, const std::vector<uint32_t>& route, double bw_begin);
// An application message posted at `time` (sender side).
void record_app_message(int src_rank, int dst_rank, uint64_t bytes, double time);
// record_log.cpp: what a recording run observes goes through the log, folded in batches into the
// run record and the statistics above; fold_record_log() before reading them.
void log_transfer(const Transfer& t, const std::vector<uint32_t>& route, double bw_begin); // route: interned
void log_app_message(int src_rank, int dst_rank, uint64_t bytes, double time); // sent (traffic matrix)
void log_app_receive(int src_rank, int dst_rank, uint64_t bytes);              // received (replay check)
void fold_record_log();
bool transfers_observed(); // transfers.cpp: the factor callbacks are installed
// transfers.cpp: no transfer still to complete started before this time (the earliest start in
// the network model, else now).
double transfers_horizon();
// traffic_stats.cpp: after a fold, the links' busy intervals that no later transfer can touch are
// folded into their totals (not with snapshots, which split them by period at the end).
void close_settled_link_intervals();

// progress.cpp: the progress line on the terminal haec/progress names, when it names one. Started
// once the settings are validated; ended (the line erased) at the end of the simulation and before
// the suite prints a line of its own.
void start_progress();
void end_progress();
// A trace file a replaying rank reads (its action lines' bytes count in the trace's total, from
// `text` when the rank read it, else the file's size; `shared`: the one file every rank reads,
// counted once), and an action replayed (its fields make up its line's bytes).
void progress_trace_file(const std::string& path, bool shared, const std::string* text = nullptr);
void progress_replayed(const std::vector<std::string>& fields);

// At the end of a recording run (run_end.cpp collects, checks and writes).
void add_call_results(Results& results);     // mpi_calls.cpp
void add_transfer_results(Results& results); // transfers.cpp: the network check
void add_replay_results(Results& results);   // replay_actions.cpp: replay's message check
void add_traffic_stats_results(Results& results, bool app_observed); // traffic_stats.cpp
// Trace replay: the calling rank enters an action ("MPI_Isend@trace:3:5"); it leaves it through
// haec_suite_mpi_exit() as a PMPI call does.
uint32_t named_site(const std::string& text);   // mpi_calls.cpp: its id, for a caller that keeps it
void enter_site(uint32_t site);                 // mpi_calls.cpp: a site named before
bool replaying();                            // replay_actions.cpp: a trace is being replayed
// replay_actions.cpp: an action of the suite's (registered with SimGrid, then wrapped as SMPI's
// are), and the wrapping of every registered action, for each rank before its first action
// (replay_ranks.cpp). Actions take SimGrid's ReplayAction, a vector of fields.
void register_replay_action(const std::string& name, const std::function<void(std::vector<std::string>&)>& function);
void wrap_replay_actions();
void before_replayed_computation(long pid); // replay_ranks.cpp: the rank's next compute action runs
void announce_site(uint32_t site);              // mpi_calls.cpp: the calling rank is about to enter `site`
// replay_calls.cpp: a trace carrying the recording run's calls (libs/trace/call_annotation.hpp).
// The rank's annotations, read from its trace's text before its first action (replay_ranks.cpp);
// then, around each of its actions (compute and sleep included), what they announce, enter and leave.
void read_call_annotations(long pid, const std::string& text, const std::string& file, const std::string& actor);
bool annotated_replay(long pid); // the rank's calls come from its annotations, not its actions
void before_replayed_action(long pid);
void after_replayed_action(long pid, bool computation); // computation: a compute or sleep action
// The call the rank with actor `pid` is inside now, and the one it last left (kNoSite: none);
// what a deadlock report names (deadlock_report.cpp, mpi_calls.cpp).
uint32_t pending_site(long pid);
// Hardware counters (computation_counters.cpp): `counts` of `events` over the burst the rank with
// actor `pid` runs next (PMPI layer, or a trace's annotation; `where` names it in errors). Counts
// arriving before the previous ones were taken replace them (that burst ran no computation).
void set_pending_counters(long pid, const std::vector<std::string>& events, const std::vector<double>& counts,
                          const std::string& where);
// The pending counts of `pid`, in the order of counter_events(), taken; nullopt when none.
std::optional<std::vector<double>> take_pending_counters(long pid);
void start_counters();                       // counters.csv when recording
void add_counter_results(Results& results);  // counters.csv, when computations carried counters
uint32_t previous_site(long pid);
// The rank with actor `pid` entered an MPI call (haec_suite_mpi_enter, a replayed action) and has
// not left it yet (mpi_calls.cpp).
bool inside_call(long pid);
// The run cannot be a result (a deadlock): run_end.cpp still writes the files, with summary.json
// "status": "failed" and `failure`, skips failing on the checks, then exits with `status`.
void mark_run_failed(const std::string& failure, int status);

} // namespace haec::core::parts
