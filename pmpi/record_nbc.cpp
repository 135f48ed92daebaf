// TI recording of non-blocking collectives (recording.hpp): our haec_i<op> ID C FIELDS actions
// (core/replay_coll_actions.cpp), completed by "haec_wait ID" where the program's Wait/Test
// completes the request (ti_recorder.cpp). FIELDS are those of the blocking haec_<op> actions
// (coll_fields.hpp), on any communicator, MPI_COMM_WORLD (0) included.
#include "coll_fields.hpp"
#include "wrappers.hpp"

namespace haec::pmpi::record {
namespace {

// SMPI hands back MPI_REQUEST_NULL for some collectives on one rank (ibcast): done at once.
void start(Recording& rec, MPI_Comm comm, const char* call, const char* op, const std::string& fields,
           const MPI_Request* request)
{
  if (request == nullptr)
    return;
  const int id = ti_comm(rec, comm, call);
  if (id == TiIds::kUnknown)
    return;
  const uint64_t key = ti_key(*request);
  rec.recorder().collective_start(rec.rank(), op, std::to_string(id) + (fields.empty() ? "" : " " + fields), key);
  if (*request == MPI_REQUEST_NULL)
    rec.recorder().complete(rec.rank(), key, 0, 0);
}

} // namespace

void Ibarrier(Recording& rec, MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Ibarrier", "ibarrier", "", request);
}

void Ibcast(Recording& rec, void*, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Ibcast", "ibcast", fields::rooted(count, type, root), request);
}

void Ireduce(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
             MPI_Request* request)
{
  start(rec, comm, "MPI_Ireduce", "ireduce", fields::reduce(count, type, root, op), request);
}

void Iallreduce(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                MPI_Request* request)
{
  start(rec, comm, "MPI_Iallreduce", "iallreduce", fields::reduction(count, type, op), request);
}

void Iscan(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
           MPI_Request* request)
{
  start(rec, comm, "MPI_Iscan", "iscan", fields::reduction(count, type, op), request);
}

void Iexscan(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
             MPI_Request* request)
{
  start(rec, comm, "MPI_Iexscan", "iexscan", fields::reduction(count, type, op), request);
}

void Ireduce_scatter_block(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                           MPI_Request* request)
{
  start(rec, comm, "MPI_Ireduce_scatter_block", "ireduce_scatter_block", fields::reduction(count, type, op), request);
}

void Ireduce_scatter(Recording& rec, const void*, void*, const int* rcounts, MPI_Datatype type, MPI_Op op,
                     MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Ireduce_scatter", "ireduce_scatter", fields::reduce_scatter(rcounts, type, op, comm), request);
}

void Ialltoall(Recording& rec, const void* sbuf, int scount, MPI_Datatype stype, void*, int rcount, MPI_Datatype rtype,
               MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Ialltoall", "ialltoall", fields::exchange(sbuf, scount, stype, rcount, rtype), request);
}

void Iallgather(Recording& rec, const void* sbuf, int scount, MPI_Datatype stype, void*, int rcount,
                MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Iallgather", "iallgather", fields::exchange(sbuf, scount, stype, rcount, rtype), request);
}

void Igather(Recording& rec, const void* sbuf, int scount, MPI_Datatype stype, void*, int rcount, MPI_Datatype rtype,
             int root, MPI_Comm comm, MPI_Request* request)
{
  if (ti_comm_rank(comm) != root) // not significant: any value may come
    rcount = 0;
  start(rec, comm, "MPI_Igather", "igather", fields::gather(sbuf, scount, stype, rcount, rtype, root), request);
}

void Iscatter(Recording& rec, const void*, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
              int root, MPI_Comm comm, MPI_Request* request)
{
  if (ti_comm_rank(comm) != root) // not significant
    scount = 0;
  start(rec, comm, "MPI_Iscatter", "iscatter", fields::scatter(scount, stype, rbuf, rcount, rtype, root), request);
}

void Igatherv(Recording& rec, const void* sbuf, int scount, MPI_Datatype stype, void*, const int* rcounts, const int*,
              MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Igatherv", "igatherv", fields::gatherv(sbuf, scount, stype, rcounts, rtype, root, comm),
        request);
}

void Iscatterv(Recording& rec, const void*, const int* scounts, const int*, MPI_Datatype stype, void* rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Iscatterv", "iscatterv", fields::scatterv(scounts, stype, rbuf, rcount, rtype, root, comm),
        request);
}

void Iallgatherv(Recording& rec, const void* sbuf, int scount, MPI_Datatype stype, void*, const int* rcounts,
                 const int*, MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Iallgatherv", "iallgatherv", fields::allgatherv(sbuf, scount, stype, rcounts, rtype, comm),
        request);
}

void Ialltoallv(Recording& rec, const void* sbuf, const int* scounts, const int*, MPI_Datatype stype, void*,
                const int* rcounts, const int*, MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Ialltoallv", "ialltoallv", fields::alltoallv(sbuf, scounts, stype, rcounts, rtype, comm),
        request);
}

void Ialltoallw(Recording& rec, const void* sbuf, const int* scounts, const int*, const MPI_Datatype* stypes, void*,
                const int* rcounts, const int*, const MPI_Datatype* rtypes, MPI_Comm comm, MPI_Request* request)
{
  start(rec, comm, "MPI_Ialltoallw", "ialltoallw", fields::alltoallw(sbuf, scounts, stypes, rcounts, rtypes, comm),
        request);
}

} // namespace haec::pmpi::record
