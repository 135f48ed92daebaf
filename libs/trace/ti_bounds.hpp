// What SimGrid's replay can take of a TI line's numbers (SimGrid 3.32 smpi_replay.cpp): every
// count, size, peer, tag and root goes to SMPI as an MPI int (parse_integer<int>, std::stoi, or a
// ssize_t/size_t that Request::send and the collectives take as int count), so it must be a whole
// number within [-2^31, 2^31 - 1]; beyond, SimGrid aborts ("out of range", a backtrace) or wraps
// it silently. Only the amounts of computation (compute, sleep, and the reductions' operation
// cost) are doubles, any finite value. The one-sided actions (haec_win_*, haec_put...) have their
// own reader and checks.
#pragma once
#include <string>
#include <vector>

namespace haec::trace {

// Throws InputError "<at>: argument N of ACTION (VALUE) is ..." for a number SimGrid cannot take.
// `ranks` <= 0: a shared trace without -np (vector actions are not checked then).
void check_number_bounds(const std::vector<std::string>& fields, const std::string& at, int ranks);

} // namespace haec::trace
