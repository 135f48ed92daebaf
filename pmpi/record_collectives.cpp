// TI recording of collectives (recording.hpp): SimGrid's own actions for the blocking ones, our
// haec_<op> ID ... / haec_wait ID actions for the non-blocking ones (core/replay_extra_actions.cpp).
// Replay runs them on MPI_COMM_WORLD: on another communicator the recording fails.
#include "wrappers.hpp"

namespace haec::pmpi::record {
namespace {

std::string types(MPI_Datatype send, MPI_Datatype recv)
{
  return ti_type_id(send) + " " + ti_type_id(recv);
}

bool is_root(MPI_Comm comm, int root, const Recording& rec)
{
  return to_world(comm, root) == rec.rank();
}

// A non-blocking collective: "haec_<op> ID <args>", completed by the wait of its request.
void start(Recording& rec, MPI_Comm comm, const char* call, const char* op, const std::string& args,
           const MPI_Request* request)
{
  if (request != nullptr && ti_world(rec, comm, call))
    rec.recorder().collective_start(rec.rank(), op, args, ti_key(*request));
}

// SMPI's MPI_Barrier also completes the pending one-sided transfers of the windows on its
// communicator (PMPI_Ibarrier: finish_rma_calls), SimGrid's "barrier" action does not: with such a
// window, the barrier is our haec_barrier (core/replay_rma_actions.cpp), which calls MPI_Barrier.
bool synchronises_windows(const Recording& rec, MPI_Comm comm)
{
  for (auto const& [win, w] : ti_state().windows)
    if (w.rank == rec.rank() && w.comm == comm)
      return true;
  return false;
}

} // namespace

void Barrier(Recording& rec, MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Barrier"))
    rec.action(synchronises_windows(rec, comm) ? "haec_barrier" : "barrier");
}

void Bcast(Recording& rec, void*, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Bcast"))
    rec.action("bcast " + ti_cn(count, type) + " " + ti_root(comm, root) + " " + ti_type_id(type));
}

void Reduce(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op, int root, MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Reduce"))
    rec.action("reduce " + ti_cn(count, type) + " 0 " + ti_root(comm, root) + " " + ti_type_id(type));
}

void Allreduce(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op, MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Allreduce"))
    rec.action("allreduce " + ti_cn(count, type) + " 0 " + ti_type_id(type));
}

void Gather(Recording& rec, const void*, int scount, MPI_Datatype stype, void*, int rcount, MPI_Datatype rtype,
            int root, MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Gather"))
    rec.action("gather " + ti_cn(scount, stype) + " " + ti_cn(rcount, rtype) + " " + ti_root(comm, root) + " " +
               types(stype, rtype));
}

void Gatherv(Recording& rec, const void*, int scount, MPI_Datatype stype, void*, const int* rcounts, const int*,
             MPI_Datatype rtype, int root, MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Gatherv"))
    rec.action("gatherv " + ti_cn(scount, stype) + " " +
               ti_counts(rcounts, comm, rtype, is_root(comm, root, rec), nullptr) + " " + ti_root(comm, root) + " " +
               types(stype, rtype));
}

void Scatter(Recording& rec, const void*, int scount, MPI_Datatype stype, void*, int rcount, MPI_Datatype rtype,
             int root, MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Scatter"))
    rec.action("scatter " + ti_cn(scount, stype) + " " + ti_cn(rcount, rtype) + " " + ti_root(comm, root) + " " +
               types(stype, rtype));
}

void Scatterv(Recording& rec, const void*, const int* scounts, const int*, MPI_Datatype stype, void*, int rcount,
              MPI_Datatype rtype, int root, MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Scatterv"))
    rec.action("scatterv " + ti_counts(scounts, comm, stype, is_root(comm, root, rec), nullptr) + " " +
               ti_cn(rcount, rtype) + " " + ti_root(comm, root) + " " + types(stype, rtype));
}

void Allgather(Recording& rec, const void*, int scount, MPI_Datatype stype, void*, int rcount, MPI_Datatype rtype,
               MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Allgather"))
    rec.action("allgather " + ti_cn(scount, stype) + " " + ti_cn(rcount, rtype) + " " + types(stype, rtype));
}

void Allgatherv(Recording& rec, const void*, int scount, MPI_Datatype stype, void*, const int* rcounts, const int*,
                MPI_Datatype rtype, MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Allgatherv"))
    rec.action("allgatherv " + ti_cn(scount, stype) + " " + ti_counts(rcounts, comm, rtype, true, nullptr) + " " +
               types(stype, rtype));
}

void Alltoall(Recording& rec, const void*, int scount, MPI_Datatype stype, void*, int rcount, MPI_Datatype rtype,
              MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Alltoall"))
    rec.action("alltoall " + ti_cn(scount, stype) + " " + ti_cn(rcount, rtype) + " " + types(stype, rtype));
}

void Alltoallv(Recording& rec, const void*, const int* scounts, const int*, MPI_Datatype stype, void*,
               const int* rcounts, const int*, MPI_Datatype rtype, MPI_Comm comm)
{
  if (!ti_world(rec, comm, "MPI_Alltoallv"))
    return;
  double ssum = 0, rsum = 0;
  std::string s = ti_counts(scounts, comm, stype, true, &ssum);
  std::string r = ti_counts(rcounts, comm, rtype, true, &rsum);
  rec.action("alltoallv " + ti_number(ssum) + " " + s + " " + ti_number(rsum) + " " + r + " " + types(stype, rtype));
}

void Reduce_scatter(Recording& rec, const void*, void*, const int* rcounts, MPI_Datatype type, MPI_Op, MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Reduce_scatter"))
    rec.action("reducescatter " + ti_counts(rcounts, comm, type, true, nullptr) + " 0 " + ti_type_id(type));
}

void Scan(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op, MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Scan"))
    rec.action("scan " + ti_cn(count, type) + " 0 " + ti_type_id(type));
}

void Exscan(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op, MPI_Comm comm)
{
  if (ti_world(rec, comm, "MPI_Exscan"))
    rec.action("exscan " + ti_cn(count, type) + " 0 " + ti_type_id(type));
}

// ---- non-blocking collectives -------------------------------------------------------------------
void Ibarrier(Recording& rec, MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Ibarrier", "ibarrier", "", request);
}

void Ibcast(Recording& rec, void*, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Ibcast", "ibcast", ti_cn(count, type) + " " + ti_root(comm, root) + " " + ti_type_id(type),
        request);
}

void Ireduce(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op, int root, MPI_Comm comm,
             MPI_Request* request)
{
  start(rec, comm, "MPI_Ireduce", "ireduce", ti_cn(count, type) + " " + ti_root(comm, root) + " " + ti_type_id(type),
        request);
}

void Iallreduce(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op, MPI_Comm comm,
                MPI_Request* request)
{
  start(rec, comm, "MPI_Iallreduce", "iallreduce", ti_count_type(count, type), request);
}

void Ialltoall(Recording& rec, const void*, int scount, MPI_Datatype stype, void*, int rcount, MPI_Datatype rtype,
               MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Ialltoall", "ialltoall", ti_count_type(scount, stype) + " " + ti_count_type(rcount, rtype),
        request);
}

void Iallgather(Recording& rec, const void*, int scount, MPI_Datatype stype, void*, int rcount, MPI_Datatype rtype,
                MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Iallgather", "iallgather", ti_count_type(scount, stype) + " " + ti_count_type(rcount, rtype),
        request);
}

void Igather(Recording& rec, const void*, int scount, MPI_Datatype stype, void*, int rcount, MPI_Datatype rtype,
             int root, MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Igather", "igather",
        ti_count_type(scount, stype) + " " + ti_count_type(rcount, rtype) + " " + ti_root(comm, root), request);
}

void Iscatter(Recording& rec, const void*, int scount, MPI_Datatype stype, void*, int rcount, MPI_Datatype rtype,
              int root, MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Iscatter", "iscatter",
        ti_count_type(scount, stype) + " " + ti_count_type(rcount, rtype) + " " + ti_root(comm, root), request);
}

// SMPI's MPI_Barrier also completes the pending one-sided transfers of the windows on its
// communicator (PMPI_Ibarrier: finish_rma_calls), SimGrid's "barrier" action does not: with such a
// window, the barrier is our haec_barrier (core/replay_rma_actions.cpp), which calls MPI_Barrier.
bool synchronises_windows(const Recording& rec, MPI_Comm comm)
{
  for (auto const& [win, w] : ti_state().windows)
    if (w.rank == rec.rank() && w.comm == comm)
      return true;
  return false;
}


} // namespace haec::pmpi::record
