// TI trace recording, the second job of every wrapper (`haec trace record`, HAEC_TRACE_OUT=<dir>):
// a Recording scope tells the recorder (ti_recorder.hpp) when the call starts and ends, then the
// call's hook (record_*.cpp) writes its actions. Without HAEC_TRACE_OUT the only cost is a null check.
// This file also holds what the hooks share: SimGrid's TI datatype ids, counts and roots.
#pragma once
#include <mpi.h>

#include "call_reporting.hpp"
#include "ti_ids.hpp"
#include "ti_recorder.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace haec::pmpi {

struct TiPersistent { // a persistent request, written as isend/irecv (haec_ibsend, _issend) at each MPI_Start
  bool send        = true;
  const char* mode = ""; // "b" buffered, "s" synchronous
  int peer = -1, tag = 0, count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Comm comm     = MPI_COMM_NULL;
};

struct TiState {
  TiRecorder* recorder = nullptr; // null: not recording
  std::string dir;
  TiIds ids;                                           // communicators' and windows' ids in the trace
  std::unordered_map<MPI_Request, MPI_Comm> recv_comm; // receives: statuses name comm ranks
  std::unordered_map<MPI_Request, TiPersistent> persistent;
  struct Window {
    int rank      = 0;
    MPI_Comm comm = MPI_COMM_NULL;
  };
  std::unordered_map<MPI_Win, Window> windows; // the live windows of every rank
};
TiState& ti_state();
inline TiRecorder* ti() { return ti_state().recorder; }

// At MPI_Init: HAEC_TRACE_OUT starts the recorder (once per process); then each rank's clock,
// after its MPI_Init called from `caller`.
void start_recording(int world_size);
void start_recording_rank(int rank, Fn init, const void* caller);
// At a rank's MPI_Finalize (after the call): the last one writes the rank files or error.txt.
void finish_recording(int rank);

// Records one call: the gap before it at entry, with the call's site (`polling`: the rank polls
// during it); done() at its end (the call's own time becomes a sleep when `timed`: polling
// calls); then the wrapper runs the call's hook.
class Recording {
public:
  Recording(const Call& call, bool timed, bool polling);
  ~Recording() { done(); }
  Recording(const Recording&)            = delete;
  Recording& operator=(const Recording&) = delete;
  explicit operator bool() const { return rec_ != nullptr; }
  // The call's hook runs after a successful call (MPI_ERR_IN_STATUS: some requests completed).
  bool succeeded(int rc) const { return rec_ != nullptr && (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS); }
  void done();
  int rank() const { return rank_; }
  TiRecorder& recorder() const { return *rec_; }
  void action(const std::string& text) const { rec_->action(rank_, text); }
  void unsupported(const std::string& call, const std::string& why) const { rec_->unsupported(rank_, call, why); }

private:
  TiRecorder* rec_;
  int rank_;
  bool timed_;
  bool left_ = false;
};

// A completion call's requests as they were before the call (SMPI nulls the completed ones), and
// statuses for a program that ignores them (a wildcard receive is written with its matched source).
class Requests {
public:
  Requests(const Recording& rec, int count, const MPI_Request* requests);
  MPI_Request at(int i) const { return i >= 0 && i < static_cast<int>(before_.size()) ? before_[i] : MPI_REQUEST_NULL; }
  MPI_Status* statuses() { return statuses_.data(); }

private:
  std::vector<MPI_Request> before_;
  std::vector<MPI_Status> statuses_;
};

// ---- what the hooks write ----
uint64_t ti_key(MPI_Request r);
// SimGrid's TI datatype id of a predefined type; any other type is written as bytes (MPI_BYTE,
// id 6) with `count` scaled to its size.
int ti_type(MPI_Datatype type, double& count);
std::string ti_count_type(int count, MPI_Datatype type); // "COUNT ID"
std::string ti_cn(int count, MPI_Datatype type);         // the count as written for `type`
std::string ti_type_id(MPI_Datatype type);
// Counts of a v-collective (one per rank of comm), zeros when not significant here; *sum = total.
std::string ti_counts(const int* counts, MPI_Comm comm, MPI_Datatype type, bool significant, double* sum);
std::string ti_root(MPI_Comm comm, int root); // the root as a world rank

// ---- our collective actions: datatypes as SMPI's collectives see them ----
// A derived datatype, or one of no size, is written as 1000 + its size with the program's count: the
// replay makes a derived type of that size (SMPI's collectives choose other algorithms for derived
// types, and send zero-byte messages for a count of a zero-size type); other types as ti_type does.
bool ti_derived(MPI_Datatype type);
std::string ti_coll_type(MPI_Datatype type);
std::string ti_coll_count(int count, MPI_Datatype type);
std::string ti_coll_count_type(int count, MPI_Datatype type); // "COUNT TYPE"
std::string ti_coll_counts(const int* counts, MPI_Comm comm, MPI_Datatype type, bool significant);
// A reduction's operation as SMPI's collectives see it: "0" commutative, "1" not.
std::string ti_op_class(MPI_Op op);
// SimGrid's actions carry neither: a collective that needs them is written as ours.
bool ti_simgrid_can_carry(int count, MPI_Datatype type);

// ---- communicators (ti_ids.hpp) ----
uint64_t ti_handle(const void* object);
int ti_comm_rank(MPI_Comm comm);
std::vector<int> ti_members(MPI_Comm comm); // world ranks in rank order
// The trace's id of `comm` for `call`, or TiIds::kUnknown after telling the recorder the call
// cannot be replayed (a communicator created before the recording or by a call it does not see).
int ti_comm(const Recording& rec, MPI_Comm comm, const char* call);
// `rec`'s rank got `created` (MPI_COMM_NULL: none) from `parent`: its id, -1 for MPI_COMM_NULL.
int ti_comm_created(const Recording& rec, int parent, MPI_Comm created);

} // namespace haec::pmpi
