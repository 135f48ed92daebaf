// TI recording of blocking collectives (recording.hpp). On MPI_COMM_WORLD: SimGrid's own actions,
// with the counts SMPI hands its collective (MPI_IN_PLACE resolved as PMPI_* resolves it, so the
// replay's collective moves what the emulation's moved). On any other communicator, and for the
// collectives SimGrid's replay lacks (reduce_scatter_block, alltoallw): our haec_<op> C FIELDS
// actions (core/replay_coll_actions.cpp) with the arguments the program passed (coll_fields.hpp);
// the replay makes the same MPI call. Formats: libs/trace/README.md.
#include "coll_fields.hpp"
#include "wrappers.hpp"

#include <vector>

namespace haec::pmpi {
namespace {

std::string num(long long v)
{
  return std::to_string(v);
}

std::string types(MPI_Datatype send, MPI_Datatype recv)
{
  return ti_type_id(send) + " " + ti_type_id(recv);
}

// "COUNT TYPE" of a buffer, "-1 TYPE" for MPI_IN_PLACE.
std::string buffer(const void* buf, int count, MPI_Datatype type, MPI_Datatype fallback)
{
  return buf == MPI_IN_PLACE ? "-1 " + ti_coll_type(fallback) : ti_coll_count_type(count, type);
}

bool is_root(MPI_Comm comm, int root)
{
  return ti_comm_rank(comm) == root;
}

int comm_size(MPI_Comm comm)
{
  int n = 0;
  PMPI_Comm_size(comm, &n);
  return n;
}

// "-1 -1 ..." (one per rank): a vector of send counts given as MPI_IN_PLACE.
std::string in_place_counts(MPI_Comm comm)
{
  std::string out;
  for (int i = 0, n = comm_size(comm); i < n; ++i)
    out += (i ? " -1" : "-1");
  return out;
}

// "COUNT TYPE" per rank; all "-1 6" for MPI_IN_PLACE.
std::string per_rank(const void* buf, const int* counts, const MPI_Datatype* types_, MPI_Comm comm)
{
  std::string out;
  for (int i = 0, n = comm_size(comm); i < n; ++i)
    out += (i ? " " : "") + (buf == MPI_IN_PLACE ? std::string("-1 6") : ti_coll_count_type(counts[i], types_[i]));
  return out;
}

// Whether SimGrid's action (bytes of a predefined type, an unknown commutative operation) moves
// what the program's call moved, and SMPI chooses the same algorithm for it.
bool plain(int count, MPI_Datatype type, MPI_Op op = MPI_OP_NULL)
{
  return ti_simgrid_can_carry(count, type) && (op == MPI_OP_NULL || (ti_op_class(op) == "0" && !ti_derived(type)));
}
bool plain_counts(const int* counts, MPI_Comm comm, MPI_Datatype type, bool significant)
{
  for (int i = 0, n = comm_size(comm); significant && counts != nullptr && i < n; ++i)
    if (!plain(counts[i], type))
      return false;
  return true;
}
} // namespace

// ---- the fields of our actions ----------------------------------------------------------------
namespace fields {

std::string rooted(int count, MPI_Datatype type, int root)
{
  return ti_coll_count(count, type) + " " + num(root) + " " + ti_coll_type(type);
}

std::string reduce(int count, MPI_Datatype type, int root, MPI_Op op)
{
  return rooted(count, type, root) + " " + ti_op_class(op);
}

std::string reduction(int count, MPI_Datatype type, MPI_Op op)
{
  return ti_coll_count_type(count, type) + " " + ti_op_class(op);
}

std::string reduce_scatter(const int* rcounts, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  return ti_op_class(op) + " " + ti_coll_type(type) + " " + ti_coll_counts(rcounts, comm, type, true);
}

std::string gather(const void* sbuf, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype, int root)
{
  return buffer(sbuf, scount, stype, rtype) + " " + ti_coll_count_type(rcount, rtype) + " " + num(root);
}

std::string scatter(int scount, MPI_Datatype stype, const void* rbuf, int rcount, MPI_Datatype rtype, int root)
{
  return ti_coll_count_type(scount, stype) + " " + buffer(rbuf, rcount, rtype, stype) + " " + num(root);
}

std::string exchange(const void* sbuf, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype)
{
  return buffer(sbuf, scount, stype, rtype) + " " + ti_coll_count_type(rcount, rtype);
}

std::string gatherv(const void* sbuf, int scount, MPI_Datatype stype, const int* rcounts, MPI_Datatype rtype, int root,
                    MPI_Comm comm)
{
  return buffer(sbuf, scount, stype, rtype) + " " + ti_coll_type(rtype) + " " + num(root) + " " +
         ti_coll_counts(rcounts, comm, rtype, is_root(comm, root));
}

std::string scatterv(const int* scounts, MPI_Datatype stype, const void* rbuf, int rcount, MPI_Datatype rtype, int root,
                     MPI_Comm comm)
{
  return ti_coll_type(stype) + " " + buffer(rbuf, rcount, rtype, stype) + " " + num(root) + " " +
         ti_coll_counts(scounts, comm, stype, is_root(comm, root));
}

std::string allgatherv(const void* sbuf, int scount, MPI_Datatype stype, const int* rcounts, MPI_Datatype rtype,
                       MPI_Comm comm)
{
  return buffer(sbuf, scount, stype, rtype) + " " + ti_coll_type(rtype) + " " + ti_coll_counts(rcounts, comm, rtype, true);
}

std::string alltoallv(const void* sbuf, const int* scounts, MPI_Datatype stype, const int* rcounts, MPI_Datatype rtype,
                      MPI_Comm comm)
{
  const bool in_place = sbuf == MPI_IN_PLACE;
  return ti_coll_type(in_place ? rtype : stype) + " " + ti_coll_type(rtype) + " " +
         (in_place ? in_place_counts(comm) : ti_coll_counts(scounts, comm, stype, true)) + " " +
         ti_coll_counts(rcounts, comm, rtype, true);
}

std::string alltoallw(const void* sbuf, const int* scounts, const MPI_Datatype* stypes, const int* rcounts,
                      const MPI_Datatype* rtypes, MPI_Comm comm)
{
  return per_rank(sbuf, scounts, stypes, comm) + " " + per_rank(nullptr, rcounts, rtypes, comm);
}

} // namespace fields

// ---- the hooks ----------------------------------------------------------------------------------
namespace record {
namespace {

// Where the collective goes: `world` for SimGrid's action, else our action on communicator `id`.
struct Target {
  int id = TiIds::kUnknown;
  bool ok() const { return id != TiIds::kUnknown; }
  bool world() const { return id == TiIds::kWorld; }
  std::string ours(const char* op, const std::string& fields) const
  {
    return std::string("haec_") + op + " " + num(id) + (fields.empty() ? "" : " " + fields);
  }
};

Target target(const Recording& rec, MPI_Comm comm, const char* call)
{
  return Target{ti_comm(rec, comm, call)};
}

// SMPI's MPI_Barrier also completes the pending one-sided transfers of the windows on its
// communicator (PMPI_Ibarrier: finish_rma_calls), SimGrid's "barrier" action does not: with such a
// window, the barrier on MPI_COMM_WORLD is our haec_barrier (core/replay_rma_actions.cpp), which
// calls MPI_Barrier.
bool synchronises_windows(const Recording& rec, MPI_Comm comm)
{
  for (auto const& [win, w] : ti_state().windows)
    if (w.rank == rec.rank() && w.comm == comm)
      return true;
  return false;
}

// allreduce, scan, exscan: SimGrid's "OP COUNT 0 TYPE" on MPI_COMM_WORLD where it can carry them.
void reduction(Recording& rec, const char* call, const char* name, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm)
{
  const Target t = target(rec, comm, call);
  if (t.ok())
    rec.action(t.world() && plain(count, type, op) ? std::string(name) + " " + ti_cn(count, type) + " 0 " + ti_type_id(type)
                                                   : t.ours(name, fields::reduction(count, type, op)));
}

} // namespace

void Barrier(Recording& rec, MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Barrier");
  if (t.ok())
    rec.action(!t.world() ? t.ours("barrier", "") : synchronises_windows(rec, comm) ? "haec_barrier" : "barrier");
}

void Bcast(Recording& rec, void*, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Bcast");
  if (t.ok())
    rec.action(t.world() && plain(count, type) ? "bcast " + ti_cn(count, type) + " " + num(root) + " " + ti_type_id(type)
                                               : t.ours("bcast", fields::rooted(count, type, root)));
}

void Reduce(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Reduce");
  if (t.ok())
    rec.action(t.world() && plain(count, type, op) ? "reduce " + ti_cn(count, type) + " 0 " + num(root) + " " + ti_type_id(type)
                                                   : t.ours("reduce", fields::reduce(count, type, root, op)));
}

void Allreduce(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  reduction(rec, "MPI_Allreduce", "allreduce", count, type, op, comm);
}

void Scan(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  reduction(rec, "MPI_Scan", "scan", count, type, op, comm);
}

void Exscan(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  reduction(rec, "MPI_Exscan", "exscan", count, type, op, comm);
}

void Reduce_scatter(Recording& rec, const void*, void*, const int* rcounts, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Reduce_scatter");
  if (t.ok())
    rec.action(t.world() && plain(1, type, op) && plain_counts(rcounts, comm, type, true)
                   ? "reducescatter " + ti_counts(rcounts, comm, type, true, nullptr) + " 0 " + ti_type_id(type)
                   : t.ours("reduce_scatter", fields::reduce_scatter(rcounts, type, op, comm)));
}

void Reduce_scatter_block(Recording& rec, const void*, void*, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Reduce_scatter_block");
  if (t.ok())
    rec.action(t.ours("reduce_scatter_block", fields::reduction(count, type, op)));
}

void Gather(Recording& rec, const void* sbuf, int scount, MPI_Datatype stype, void*, int rcount, MPI_Datatype rtype,
            int root, MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Gather");
  if (!t.ok())
    return;
  if (!is_root(comm, root)) // not significant: any value may come (MPICH's tests pass -1)
    rcount = 0;
  const bool in_place = sbuf == MPI_IN_PLACE && is_root(comm, root); // PMPI_Igather: send 0 of recvtype
  rec.action(t.world() && plain(scount, stype) && plain(rcount, rtype) ? "gather " + (in_place ? std::string("0") : ti_cn(scount, stype)) + " " + ti_cn(rcount, rtype) +
                             " " + num(root) + " " + types(in_place ? rtype : stype, rtype)
                       : t.ours("gather", fields::gather(sbuf, scount, stype, rcount, rtype, root)));
}

void Gatherv(Recording& rec, const void* sbuf, int scount, MPI_Datatype stype, void*, const int* rcounts, const int*,
             MPI_Datatype rtype, int root, MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Gatherv");
  if (!t.ok())
    return;
  const bool root_here = is_root(comm, root);
  const bool in_place  = sbuf == MPI_IN_PLACE && root_here; // PMPI_Igatherv: send 0 of recvtype
  rec.action(t.world() && plain(scount, stype) && plain_counts(rcounts, comm, rtype, root_here) ? "gatherv " + (in_place ? std::string("0") : ti_cn(scount, stype)) + " " +
                             ti_counts(rcounts, comm, rtype, root_here, nullptr) + " " + num(root) + " " +
                             types(in_place ? rtype : stype, rtype)
                       : t.ours("gatherv", fields::gatherv(sbuf, scount, stype, rcounts, rtype, root, comm)));
}

void Scatter(Recording& rec, const void*, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
             int root, MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Scatter");
  if (!t.ok())
    return;
  if (!is_root(comm, root)) // not significant
    scount = 0;
  const bool in_place = rbuf == MPI_IN_PLACE; // PMPI_Iscatter: receive what is sent
  rec.action(t.world() && plain(scount, stype) && plain(rcount, rtype) ? "scatter " + ti_cn(scount, stype) + " " + (in_place ? ti_cn(scount, stype) : ti_cn(rcount, rtype)) +
                             " " + num(root) + " " + types(stype, in_place ? stype : rtype)
                       : t.ours("scatter", fields::scatter(scount, stype, rbuf, rcount, rtype, root)));
}

void Scatterv(Recording& rec, const void*, const int* scounts, const int*, MPI_Datatype stype, void* rbuf, int rcount,
              MPI_Datatype rtype, int root, MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Scatterv");
  if (!t.ok())
    return;
  const bool root_here = is_root(comm, root);
  const bool in_place  = rbuf == MPI_IN_PLACE && root_here; // PMPI_Iscatterv: receive scounts[root] of sendtype
  rec.action(t.world() && plain_counts(scounts, comm, stype, root_here) && plain(rcount, rtype) ? "scatterv " + ti_counts(scounts, comm, stype, root_here, nullptr) + " " +
                             (in_place ? ti_cn(scounts[root], stype) : ti_cn(rcount, rtype)) + " " + num(root) + " " +
                             types(stype, in_place ? stype : rtype)
                       : t.ours("scatterv", fields::scatterv(scounts, stype, rbuf, rcount, rtype, root, comm)));
}

void Allgather(Recording& rec, const void* sbuf, int scount, MPI_Datatype stype, void*, int rcount,
               MPI_Datatype rtype, MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Allgather");
  if (!t.ok())
    return;
  const bool in_place = sbuf == MPI_IN_PLACE; // PMPI_Iallgather: send recvcount of recvtype
  rec.action(t.world() && plain(scount, stype) && plain(rcount, rtype) ? "allgather " + (in_place ? ti_cn(rcount, rtype) : ti_cn(scount, stype)) + " " +
                             ti_cn(rcount, rtype) + " " + types(in_place ? rtype : stype, rtype)
                       : t.ours("allgather", fields::exchange(sbuf, scount, stype, rcount, rtype)));
}

void Allgatherv(Recording& rec, const void* sbuf, int scount, MPI_Datatype stype, void*, const int* rcounts,
                const int*, MPI_Datatype rtype, MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Allgatherv");
  if (!t.ok())
    return;
  const bool in_place = sbuf == MPI_IN_PLACE; // PMPI_Iallgatherv: send recvcounts[rank] of recvtype
  rec.action(t.world() && plain(scount, stype) && plain_counts(rcounts, comm, rtype, true) ? "allgatherv " + (in_place ? ti_cn(rcounts[ti_comm_rank(comm)], rtype) : ti_cn(scount, stype)) +
                             " " + ti_counts(rcounts, comm, rtype, true, nullptr) + " " +
                             types(in_place ? rtype : stype, rtype)
                       : t.ours("allgatherv", fields::allgatherv(sbuf, scount, stype, rcounts, rtype, comm)));
}

void Alltoall(Recording& rec, const void* sbuf, int scount, MPI_Datatype stype, void*, int rcount, MPI_Datatype rtype,
              MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Alltoall");
  if (!t.ok())
    return;
  const bool in_place = sbuf == MPI_IN_PLACE; // PMPI_Ialltoall: send recvcount of recvtype
  rec.action(t.world() && plain(scount, stype) && plain(rcount, rtype) ? "alltoall " + (in_place ? ti_cn(rcount, rtype) : ti_cn(scount, stype)) + " " +
                             ti_cn(rcount, rtype) + " " + types(in_place ? rtype : stype, rtype)
                       : t.ours("alltoall", fields::exchange(sbuf, scount, stype, rcount, rtype)));
}

void Alltoallv(Recording& rec, const void* sbuf, const int* scounts, const int*, MPI_Datatype stype, void*,
               const int* rcounts, const int*, MPI_Datatype rtype, MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Alltoallv");
  if (!t.ok())
    return;
  if (!t.world() || !plain_counts(rcounts, comm, rtype, true) ||
      (sbuf != MPI_IN_PLACE && !plain_counts(scounts, comm, stype, true)))
    return rec.action(t.ours("alltoallv", fields::alltoallv(sbuf, scounts, stype, rcounts, rtype, comm)));
  const bool in_place = sbuf == MPI_IN_PLACE; // PMPI_Ialltoallv: send recvcounts of recvtype
  double ssum = 0, rsum = 0;
  const std::string r = ti_counts(rcounts, comm, rtype, true, &rsum);
  const std::string s = in_place ? r : ti_counts(scounts, comm, stype, true, &ssum);
  rec.action("alltoallv " + ti_number(in_place ? rsum : ssum) + " " + s + " " + ti_number(rsum) + " " + r + " " +
             types(in_place ? rtype : stype, rtype));
}

void Alltoallw(Recording& rec, const void* sbuf, const int* scounts, const int*, const MPI_Datatype* stypes, void*,
               const int* rcounts, const int*, const MPI_Datatype* rtypes, MPI_Comm comm)
{
  const Target t = target(rec, comm, "MPI_Alltoallw");
  if (t.ok())
    rec.action(t.ours("alltoallw", fields::alltoallw(sbuf, scounts, stypes, rcounts, rtypes, comm)));
}

} // namespace record
} // namespace haec::pmpi
