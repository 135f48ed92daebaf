// What a replaying rank keeps between the core's actions: its communicators by the trace's id
// (0 MPI_COMM_WORLD, 1 MPI_COMM_SELF, the others made by haec_comm_* actions) and its pending
// requests by ID (haec_i<collective>, haec_ibsend, haec_issend, haec_r<rma>: completed by
// haec_wait ID), with the scratch buffers and arrays SMPI may still read until then.
#pragma once
#include "replay_fields.hpp"

#include <vector>

namespace haec::core::parts {

// A rank starts replaying: the MPI calls of our actions return their errors (MPI_ERRORS_RETURN on
// its MPI_COMM_WORLD and MPI_COMM_SELF, and on every communicator and window they make), so that a
// refused call ends the replay with its trace line instead of SMPI's abort.
void replay_rank_started();
void errors_return(MPI_Comm comm);
void errors_return(MPI_Win win);

// Field i as a communicator of this rank.
MPI_Comm comm_field(const Action& a, size_t i);
// The communicator `id` of this rank: made now (it must not exist), or freed.
void add_comm(const Action& a, long long id, MPI_Comm comm);
void remove_comm(const Action& a, long long id);

// Buffers for one call: in replay SMPI copies no data, they only have to exist.
struct CallBuffers {
  std::vector<char> send, recv;
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  std::vector<MPI_Datatype> send_types, recv_types;
  void* send_buffer(size_t bytes);
  void* recv_buffer(size_t bytes);
};

struct PendingRequest {
  MPI_Request request = MPI_REQUEST_NULL;
  CallBuffers buffers;
};
// A new pending request of this rank with the ID in field i (started twice: the action fails).
PendingRequest& start_request(const Action& a, size_t i);
// haec_wait ID: waits for this rank's request ID and forgets it.
void wait_request(const Action& a);
// haec_request_free ID: MPI_Request_free of this rank's request ID (its transfer goes on).
void free_request(const Action& a);
size_t unfinished_requests(); // of every rank, at the end of the replay

} // namespace haec::core::parts
