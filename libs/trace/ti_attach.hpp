// The replayed TI trace joined to the replay's events.csv, for an OTF2 export that loses nothing:
// each call's Enter carries the TI lines since the previous call (computations, sleeps, the call
// itself, verbatim) and the call's MPI record (message or collective) for viewers. Pure C++.
#pragma once
#include "result_tables.hpp"

#include <string>
#include <vector>

namespace haec::trace {

// `rank_texts[r]` is rank r's TI file (named `rank_files[r]` in errors). Every action but the
// computations (compute, sleep) must match the rank's next call in events.csv, in order and by
// name; else haec::InputError "<file>:<line>: ..." and nothing is changed. Network messages from
// messages.csv are replaced by the calls' own MPI records, one-sided actions give OTF2's RMA
// records (ti_attach_rma.hpp).
void attach_ti_trace(RunTrace& t, const std::vector<std::string>& rank_texts, const std::vector<std::string>& rank_files);

// Bytes of `count` elements of SimGrid TI datatype `id` (0 DOUBLE, 1 INT, ... 14 LONG DOUBLE).
double ti_datatype_bytes(const std::string& id);

} // namespace haec::trace
