// Reading the fields of the replay actions the core adds (replay_*_actions.cpp): each bad field
// ends the replay cleanly (exit 2) with one line naming the trace's file and line.
#pragma once
#include <smpi/mpi.h>
#include <xbt/replay.hpp>

#include <string>

namespace haec::core::parts {

using Action = simgrid::xbt::ReplayAction;

// "haec: FILE:LINE: <problem>; <fix>" and exit 2 (the trace is bad input): the problem `haec
// trace check` finds in the trace if it finds one (the same line), else `problem` at the line of
// the action the rank is replaying (replay_location.cpp).
[[noreturn]] void fail_action(const Action& a, const std::string& problem);
// Field i as an integer in [0, max].
long long field(const Action& a, size_t i, double max = 9007199254740992.0);
// Field i as an int (count, id) in [0, 2^31 - 1].
int small_field(const Action& a, size_t i);
// Field i as a count, or -1 for a buffer the program gave as MPI_IN_PLACE.
int count_field(const Action& a, size_t i);
// Field i as any int (a split's key).
int signed_field(const Action& a, size_t i);
// Field i as a rank of the replay.
int rank_field(const Action& a, size_t i);
// Field i as a rank of `comm`.
int comm_rank_field(const Action& a, size_t i, MPI_Comm comm);
// Field i as SimGrid's TI datatype id (CREATE_MPI_DATATYPE in smpi_datatype.cpp), 0..14, or 1000 +
// the size of a derived type (made as contiguous bytes: a derived type of that size).
MPI_Datatype datatype_field(const Action& a, size_t i);
int world_size();
int comm_size(MPI_Comm comm);
size_t type_size(MPI_Datatype t);
// Fails the action when SMPI refused the call.
void check_call(const Action& a, int rc);

} // namespace haec::core::parts
