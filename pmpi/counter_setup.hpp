// The PAPI events of `--counters` (HAEC_COUNTERS in the simulator): the list parsed, an event set
// opened with them, and the verdict when it cannot be: bad input (unknown name, duplicate, more
// events than the CPU counts at once, an event this CPU lacks) or "PAPI cannot count here" (no CPU
// PMU, as in most VMs: then the run goes on without counters). Used by `haec run` before anything
// is written and by the PMPI layer in the simulator.
#pragma once
#include <string>
#include <vector>

namespace haec::papi {

struct Verdict {
  enum Kind { Ready, CannotCount, BadInput } kind = Ready;
  std::string input;   // what the message names, e.g. "--counters PAPI_FOO"
  std::string problem; // one clause, no fix
  std::string fix;
};

// "PAPI_TOT_INS,PAPI_L3_TCM" as names; a BadInput verdict for an empty list, an empty name or a
// name given twice.
std::vector<std::string> parse_event_list(const std::string& list, Verdict& verdict);

// What one failed PAPI_add_named_event means. `name_rc`: PAPI_event_name_to_code's result (PAPI
// knows the name, even without a PMU, when it is PAPI_OK); `add_rc`: the add's; `cpu_pmu`: whether
// PAPI can count CPU cycles here (perf::PERF_COUNT_HW_CPU_CYCLES). `description` is PAPI's text
// of add_rc. Pure: unit-tested.
Verdict classify_failure(const std::string& list, const std::string& event, int name_rc, int add_rc, bool cpu_pmu,
                         const std::string& description);

// An event set counting `events` on the calling thread, started. Returns -1 and sets `verdict`
// when it cannot be opened.
int open_event_set(const std::vector<std::string>& events, const std::string& list, Verdict& verdict);

// Reads the calling thread's counters of `set` into `values` (one per event); false on failure.
bool read_event_set(int set, long long* values);

} // namespace haec::papi
