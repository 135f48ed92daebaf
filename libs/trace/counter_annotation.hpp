// Hardware counters of one computation burst, carried in a TI trace as a comment line of ours:
//
//   # <rank> haec_counters <EVENT>=<COUNT> [<EVENT>=<COUNT> ...]
//
// written immediately before the `<rank> compute F` line of the burst it belongs to. COUNT is the
// number of events counted over the burst (PAPI's counts, or a Score-P metric's difference), a
// finite number >= 0. EVENT is a PAPI preset (`PAPI_TOT_INS`) or native name; native names may hold
// ':' and '=' (`perf::CYCLES:u=0`), so the count follows the last '='. SimGrid's replay reader skips
// every line starting with '#', so plain `smpirun -replay` still reads such a trace; the suite's
// reader hands these lines to the counter-based power model. Pure C++: no SimGrid include.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace haec::trace {

struct CounterSample {
  std::vector<std::string> events; // in the order recorded; the same set on every burst of a trace
  std::vector<double> counts;      // counts[i] belongs to events[i]
};

inline constexpr const char* counter_annotation_action = "haec_counters";

// The annotation line (no newline) for `rank`'s next computation. Counts are written with 17
// significant digits, so parsing gives back the same doubles.
std::string format_counter_annotation(int rank, const CounterSample& sample);

// The sample of an annotation line, given its replay fields (libs/trace/replay_reader.hpp: trimmed,
// split at spaces and tabs): nullopt when the fields are not a counter annotation (any other
// comment). Throws haec::InputError naming `where` (e.g. "trace.txt:12") when the line is one but
// is malformed: no event, a field without '=', an empty name, a count that is not a finite number
// >= 0, an event named twice.
std::optional<CounterSample> parse_counter_annotation(const std::vector<std::string>& fields, const std::string& where);

// The rank an annotation's fields name (fields[1]); -1 when it is not a number.
int counter_annotation_rank(const std::vector<std::string>& fields);

} // namespace haec::trace
