// The per-run state shared by the suite's adapters: the run record the results are written
// from, and the rank(s) each host carries. One instance per simulation (one process).
#pragma once
#include "run_record.hpp"

#include <functional>
#include <memory>
#include <string>

namespace simgrid::s4u {
class Host;
}

namespace haec::suite {

RunRecord& run_record();
// Ends the run on bad input met inside the simulator: one line "haec: <message>" and exit 2, the
// same form as the CLI's errors (which validate the same values earlier).
[[noreturn]] void fail_run(const std::string& message);
// The rank running on `host` when it carries exactly one SMPI rank, -1 otherwise.
int sole_rank_on(const simgrid::s4u::Host* host);
// Extra entries the adapters add to summary.json (e.g. the link model's parameters).
void add_summary_entry(const std::string& key, const std::string& json_value);
// Adapters writing their own result files register here. Each writer runs at simulation end
// with the result directory, before summary.json is written (so it may add summary entries).
void add_results_writer(std::function<void(const std::string& dir)> writer);
// True when the run writes results (haec/out given): transfers are then observed.
bool recording();

} // namespace haec::suite
