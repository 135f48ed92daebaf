// Remembers which traces passed haec run's pre-run check, so that replaying the same unchanged trace
// again (a campaign, a benchmark, a study) does not check every line again.
#pragma once

#include <string>

namespace haec::cli {

// Checks the TI trace `list` for a replay of `ranks` ranks (trace::check_ti_trace), unless the same
// files (paths, sizes, modification times) passed for that rank count before: in this process (a
// campaign checks all its runs at once), or in an earlier one, remembered in
// $XDG_CACHE_HOME/haec/trace-checks (else ~/.cache/...). A cache that cannot be read or written is
// ignored and the trace is checked. HAEC_TRACE_CHECK_CACHE=off turns the cache on disk off.
void check_trace_cached(const std::string& list, int ranks);

} // namespace haec::cli
