// The fields of our haec_* actions (libs/trace/README.md), as a schema per action: what `haec trace
// check` verifies of one line before the matching simulation (ti_match.hpp) checks what needs
// other lines (communicator members, windows, epochs). Each field kind is one letter:
//   C communicator id (>= 0)      N new communicator id (>= -1: -1 where the rank got none)
//   W window id (>= 0)            I request id (>= 0)          R world rank (< the replay's ranks)
//   r rank of a communicator (>= 0; its size is checked by the matching)
//   n count (>= 0)                p count, or -1 for MPI_IN_PLACE        t datatype id (0..14)
//   g tag (>= 0)                  k key (any integer)           c color (>= -1: -1 MPI_UNDEFINED)
//   a assert (>= 0)               L lock type (1 exclusive, 2 shared)    o operation (0 MPI_NO_OP, 1 other)
//   s swapped (0 or 1)            d size or displacement (>= 0)          u displacement unit (>= 0)
// and three marks: "?X" an optional last field X, "*X" (or "*XY") any number of X (X Y pairs) up
// to the end, "#X" a count then exactly that many X. Pure.
#pragma once
#include <string>
#include <vector>

namespace haec::trace {

// The schemas of `action` (a few for the actions whose layout changed; the first that fits the
// line's length applies), null when it is not one of ours.
const std::vector<std::string>* haec_schemas(const std::string& action);

// Checks the fields of a haec_* line (fields[0] rank, fields[1] action) against its schemas:
// throws InputError(at, ...) naming the field. `ranks` > 0 bounds world ranks. Returns the schema
// that fits (for to_action).
const std::string& check_haec_line(const std::vector<std::string>& fields, const std::string& at, int ranks);

// The numbers of a checked haec_* line in schema order, every field after the action's name,
// with the layout normalised to the first schema (a field the line lacks, such as the
// communicator of an older non-blocking collective, is 0: MPI_COMM_WORLD).
std::vector<long long> haec_fields(const std::vector<std::string>& fields);

} // namespace haec::trace
