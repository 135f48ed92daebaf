// Replay of our collective actions (pmpi/record_collectives.cpp, record_nbc.cpp; formats in
// libs/trace/README.md), registered next to SMPI's own actions (replay_actions.cpp calls
// register_collective_replay_actions when the first rank is handed to the suite):
//   <rank> haec_<op> C FIELDS         a blocking collective on communicator C
//   <rank> haec_i<op> ID C FIELDS     a non-blocking one, completed by <rank> haec_wait ID
// Each makes the MPI call the program made, on the replayed communicator, with scratch buffers
// (SMPI copies no data in replay) and MPI_IN_PLACE where the program gave it (a count of -1), so
// SMPI's collective moves what it moved in emulation. Traces written before communicators were
// recorded hold the first eight non-blocking ones without C: they ran on MPI_COMM_WORLD.
#include "core_parts.hpp"
#include "replay_state.hpp"

#include <xbt/config.hpp>
#include <xbt/replay.hpp>

#include <map>
#include <numeric>
#include <string>

namespace haec::core::parts {
namespace {

// Any operation does (the replay moves bytes, the values do not matter) as long as SMPI sees it as
// commutative or not, as the program's was: its collectives choose other algorithms for the others.
void never_applied(void*, void*, int*, MPI_Datatype*) {}

MPI_Op reduction(const Action& a, size_t i)
{
  if (i >= a.size() || a[i] == "0")
    return MPI_MAX;
  if (a[i] != "1")
    fail_action(a, "reduction class '" + a[i] + "' is neither 0 (commutative) nor 1 (not commutative)");
  static MPI_Op non_commutative = [] {
    MPI_Op op = MPI_OP_NULL;
    MPI_Op_create(never_applied, 0, &op);
    return op;
  }();
  return non_commutative;
}

// "COUNT TYPE" at field i; a count of -1 is a buffer given as MPI_IN_PLACE.
struct Counted {
  int count          = 0;
  MPI_Datatype type  = MPI_BYTE;
  bool in_place() const { return count < 0; }
  size_t bytes(size_t times = 1) const { return count < 0 ? 0 : times * static_cast<size_t>(count) * type_size(type); }
};

Counted counted(const Action& a, size_t i)
{
  return Counted{count_field(a, i), datatype_field(a, i + 1)};
}

// What one collective call needs: the action, where its fields start, its communicator, the
// buffers, and the request when it is non-blocking (null: blocking).
struct Call {
  const Action& a;
  size_t base;
  MPI_Comm comm;
  CallBuffers& b;
  MPI_Request* request;
  int size() const { return comm_size(comm); }
  int rank() const
  {
    int r = 0;
    MPI_Comm_rank(comm, &r);
    return r;
  }
  // The fields end with `vectors` vectors of one value per rank after `fixed` fields (or `optional`
  // more fields without vectors).
  void expect(size_t fixed, size_t vectors, size_t optional = 0) const
  {
    const size_t want = base + fixed + vectors * static_cast<size_t>(size());
    if (a.size() < want || a.size() > want + optional)
      fail_action(a, "the action has " + std::to_string(a.size() - base) + " fields after the communicator's, its " +
                         std::to_string(size()) + "-rank communicator needs " + std::to_string(want - base));
  }
  // A per-rank vector of counts at field `first` (in_place: -1 is allowed) and its displacements.
  int vector(size_t first, std::vector<int>& counts, std::vector<int>& displs, bool in_place = false) const
  {
    counts.resize(static_cast<size_t>(size()));
    displs.resize(counts.size());
    int total = 0;
    for (size_t k = 0; k < counts.size(); ++k) {
      counts[k] = in_place ? count_field(a, first + k) : small_field(a, first + k);
      displs[k] = total;
      total += std::max(counts[k], 0);
    }
    return total;
  }
};

const void* in_place_or(bool in_place, void* buffer)
{
  return in_place ? MPI_IN_PLACE : buffer;
}

// ---- the collectives, blocking or not ---------------------------------------------------------------
int barrier(const Call& c)
{
  return c.request ? MPI_Ibarrier(c.comm, c.request) : MPI_Barrier(c.comm);
}

int bcast(const Call& c) // COUNT ROOT TYPE
{
  c.expect(3, 0);
  const int count = small_field(c.a, c.base), root = comm_rank_field(c.a, c.base + 1, c.comm);
  const MPI_Datatype t = datatype_field(c.a, c.base + 2);
  void* buf            = c.b.send_buffer(count * type_size(t));
  return c.request ? MPI_Ibcast(buf, count, t, root, c.comm, c.request) : MPI_Bcast(buf, count, t, root, c.comm);
}

int reduce(const Call& c) // COUNT ROOT TYPE [OP]
{
  c.expect(3, 0, 1);
  const int count = small_field(c.a, c.base), root = comm_rank_field(c.a, c.base + 1, c.comm);
  const MPI_Datatype t = datatype_field(c.a, c.base + 2);
  const MPI_Op op      = reduction(c.a, c.base + 3);
  void* s = c.b.send_buffer(count * type_size(t));
  void* r = c.b.recv_buffer(count * type_size(t));
  return c.request ? MPI_Ireduce(s, r, count, t, op, root, c.comm, c.request) : MPI_Reduce(s, r, count, t, op, root, c.comm);
}

template <int (*blocking)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm),
          int (*nonblocking)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*)>
int counted_reduction(const Call& c) // COUNT TYPE [OP]: allreduce, scan, exscan
{
  c.expect(2, 0, 1);
  const Counted x = counted(c.a, c.base);
  const MPI_Op op = reduction(c.a, c.base + 2);
  void* s         = c.b.send_buffer(x.bytes());
  void* r         = c.b.recv_buffer(x.bytes());
  return c.request ? nonblocking(s, r, x.count, x.type, op, c.comm, c.request) : blocking(s, r, x.count, x.type, op, c.comm);
}

int reduce_scatter_block(const Call& c) // COUNT TYPE [OP]
{
  c.expect(2, 0, 1);
  const Counted x = counted(c.a, c.base);
  const MPI_Op op = reduction(c.a, c.base + 2);
  void* s         = c.b.send_buffer(x.bytes(static_cast<size_t>(c.size())));
  void* r         = c.b.recv_buffer(x.bytes());
  return c.request ? MPI_Ireduce_scatter_block(s, r, x.count, x.type, op, c.comm, c.request)
                   : MPI_Reduce_scatter_block(s, r, x.count, x.type, op, c.comm);
}

int reduce_scatter(const Call& c) // OP TYPE COUNTS...
{
  c.expect(2, 1);
  const MPI_Op op      = reduction(c.a, c.base);
  const MPI_Datatype t = datatype_field(c.a, c.base + 1);
  const int total      = c.vector(c.base + 2, c.b.recv_counts, c.b.recv_displs);
  void* s              = c.b.send_buffer(total * type_size(t));
  void* r              = c.b.recv_buffer(c.b.recv_counts[static_cast<size_t>(c.rank())] * type_size(t));
  const int* counts    = c.b.recv_counts.data();
  return c.request ? MPI_Ireduce_scatter(s, r, counts, t, op, c.comm, c.request)
                   : MPI_Reduce_scatter(s, r, counts, t, op, c.comm);
}

int gather(const Call& c) // SCOUNT STYPE RCOUNT RTYPE ROOT
{
  c.expect(5, 0);
  const Counted s = counted(c.a, c.base), r = counted(c.a, c.base + 2);
  const int root  = comm_rank_field(c.a, c.base + 4, c.comm);
  const void* sb  = in_place_or(s.in_place(), c.b.send_buffer(s.bytes()));
  void* rb        = c.b.recv_buffer(r.bytes(static_cast<size_t>(c.size())));
  return c.request ? MPI_Igather(sb, s.count, s.type, rb, r.count, r.type, root, c.comm, c.request)
                   : MPI_Gather(sb, s.count, s.type, rb, r.count, r.type, root, c.comm);
}

int scatter(const Call& c) // SCOUNT STYPE RCOUNT RTYPE ROOT
{
  c.expect(5, 0);
  const Counted s = counted(c.a, c.base), r = counted(c.a, c.base + 2);
  const int root  = comm_rank_field(c.a, c.base + 4, c.comm);
  const void* sb  = c.b.send_buffer(s.bytes(static_cast<size_t>(c.size())));
  void* rb        = const_cast<void*>(in_place_or(r.in_place(), c.b.recv_buffer(r.bytes())));
  return c.request ? MPI_Iscatter(sb, s.count, s.type, rb, r.count, r.type, root, c.comm, c.request)
                   : MPI_Scatter(sb, s.count, s.type, rb, r.count, r.type, root, c.comm);
}

template <bool alltoall> int exchange(const Call& c) // SCOUNT STYPE RCOUNT RTYPE: allgather, alltoall
{
  c.expect(4, 0);
  const Counted s = counted(c.a, c.base), r = counted(c.a, c.base + 2);
  const auto n    = static_cast<size_t>(c.size());
  const void* sb  = in_place_or(s.in_place(), c.b.send_buffer(s.bytes(alltoall ? n : 1)));
  void* rb        = c.b.recv_buffer(r.bytes(n));
  if (alltoall)
    return c.request ? MPI_Ialltoall(sb, s.count, s.type, rb, r.count, r.type, c.comm, c.request)
                     : MPI_Alltoall(sb, s.count, s.type, rb, r.count, r.type, c.comm);
  return c.request ? MPI_Iallgather(sb, s.count, s.type, rb, r.count, r.type, c.comm, c.request)
                   : MPI_Allgather(sb, s.count, s.type, rb, r.count, r.type, c.comm);
}

int gatherv(const Call& c) // SCOUNT STYPE RTYPE ROOT RCOUNTS...
{
  c.expect(4, 1);
  const Counted s    = counted(c.a, c.base);
  const MPI_Datatype rt = datatype_field(c.a, c.base + 2);
  const int root     = comm_rank_field(c.a, c.base + 3, c.comm);
  const int total    = c.vector(c.base + 4, c.b.recv_counts, c.b.recv_displs);
  const void* sb     = in_place_or(s.in_place(), c.b.send_buffer(s.bytes()));
  void* rb           = c.b.recv_buffer(total * type_size(rt));
  const int *rc = c.b.recv_counts.data(), *rd = c.b.recv_displs.data();
  return c.request ? MPI_Igatherv(sb, s.count, s.type, rb, rc, rd, rt, root, c.comm, c.request)
                   : MPI_Gatherv(sb, s.count, s.type, rb, rc, rd, rt, root, c.comm);
}

int scatterv(const Call& c) // STYPE RCOUNT RTYPE ROOT SCOUNTS...
{
  c.expect(4, 1);
  const MPI_Datatype st = datatype_field(c.a, c.base);
  const Counted r       = counted(c.a, c.base + 1);
  const int root        = comm_rank_field(c.a, c.base + 3, c.comm);
  const int total       = c.vector(c.base + 4, c.b.send_counts, c.b.send_displs);
  const void* sb        = c.b.send_buffer(total * type_size(st));
  void* rb              = const_cast<void*>(in_place_or(r.in_place(), c.b.recv_buffer(r.bytes())));
  const int *sc = c.b.send_counts.data(), *sd = c.b.send_displs.data();
  return c.request ? MPI_Iscatterv(sb, sc, sd, st, rb, r.count, r.type, root, c.comm, c.request)
                   : MPI_Scatterv(sb, sc, sd, st, rb, r.count, r.type, root, c.comm);
}

int allgatherv(const Call& c) // SCOUNT STYPE RTYPE RCOUNTS...
{
  c.expect(3, 1);
  const Counted s       = counted(c.a, c.base);
  const MPI_Datatype rt = datatype_field(c.a, c.base + 2);
  const int total       = c.vector(c.base + 3, c.b.recv_counts, c.b.recv_displs);
  const void* sb        = in_place_or(s.in_place(), c.b.send_buffer(s.bytes()));
  void* rb              = c.b.recv_buffer(total * type_size(rt));
  const int *rc = c.b.recv_counts.data(), *rd = c.b.recv_displs.data();
  return c.request ? MPI_Iallgatherv(sb, s.count, s.type, rb, rc, rd, rt, c.comm, c.request)
                   : MPI_Allgatherv(sb, s.count, s.type, rb, rc, rd, rt, c.comm);
}

int alltoallv(const Call& c) // STYPE RTYPE SCOUNTS... RCOUNTS...
{
  c.expect(2, 2);
  const MPI_Datatype st = datatype_field(c.a, c.base), rt = datatype_field(c.a, c.base + 1);
  const size_t n        = static_cast<size_t>(c.size());
  const bool in_place   = c.a[c.base + 2] == "-1";
  const int stotal      = c.vector(c.base + 2, c.b.send_counts, c.b.send_displs, in_place);
  const int rtotal      = c.vector(c.base + 2 + n, c.b.recv_counts, c.b.recv_displs);
  const void* sb        = in_place_or(in_place, c.b.send_buffer(stotal * type_size(st)));
  void* rb              = c.b.recv_buffer(rtotal * type_size(rt));
  const int *sc = c.b.send_counts.data(), *sd = c.b.send_displs.data();
  const int *rc = c.b.recv_counts.data(), *rd = c.b.recv_displs.data();
  return c.request ? MPI_Ialltoallv(sb, sc, sd, st, rb, rc, rd, rt, c.comm, c.request)
                   : MPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, c.comm);
}

// COUNT TYPE pairs, one per rank, from field `first`: counts, byte displacements, types.
size_t typed_vector(const Call& c, size_t first, std::vector<int>& counts, std::vector<int>& displs,
                    std::vector<MPI_Datatype>& types, bool in_place)
{
  const auto n = static_cast<size_t>(c.size());
  counts.resize(n), displs.resize(n), types.resize(n);
  size_t bytes = 0;
  for (size_t k = 0; k < n; ++k) {
    const Counted x = in_place ? Counted{count_field(c.a, first + 2 * k), datatype_field(c.a, first + 2 * k + 1)}
                               : Counted{small_field(c.a, first + 2 * k), datatype_field(c.a, first + 2 * k + 1)};
    counts[k] = x.count, types[k] = x.type, displs[k] = static_cast<int>(bytes);
    bytes += x.bytes();
  }
  return bytes;
}

int alltoallw(const Call& c) // (SCOUNT STYPE)... (RCOUNT RTYPE)...
{
  c.expect(0, 4);
  const size_t n      = static_cast<size_t>(c.size());
  const bool in_place = c.a[c.base] == "-1";
  CallBuffers& b      = c.b;
  const size_t sbytes = typed_vector(c, c.base, b.send_counts, b.send_displs, b.send_types, in_place);
  const size_t rbytes = typed_vector(c, c.base + 2 * n, b.recv_counts, b.recv_displs, b.recv_types, false);
  const void* sb      = in_place_or(in_place, b.send_buffer(sbytes));
  void* rb            = b.recv_buffer(rbytes);
  return c.request ? MPI_Ialltoallw(sb, b.send_counts.data(), b.send_displs.data(), b.send_types.data(), rb,
                                    b.recv_counts.data(), b.recv_displs.data(), b.recv_types.data(), c.comm, c.request)
                   : MPI_Alltoallw(sb, b.send_counts.data(), b.send_displs.data(), b.send_types.data(), rb,
                                   b.recv_counts.data(), b.recv_displs.data(), b.recv_types.data(), c.comm);
}

using Collective = int (*)(const Call&);

const std::map<std::string, Collective>& collectives()
{
  static const std::map<std::string, Collective> c = {
      {"barrier", barrier},
      {"bcast", bcast},
      {"reduce", reduce},
      {"allreduce", counted_reduction<MPI_Allreduce, MPI_Iallreduce>},
      {"scan", counted_reduction<MPI_Scan, MPI_Iscan>},
      {"exscan", counted_reduction<MPI_Exscan, MPI_Iexscan>},
      {"reduce_scatter_block", reduce_scatter_block},
      {"reduce_scatter", reduce_scatter},
      {"gather", gather},
      {"scatter", scatter},
      {"allgather", exchange<false>},
      {"alltoall", exchange<true>},
      {"gatherv", gatherv},
      {"scatterv", scatterv},
      {"allgatherv", allgatherv},
      {"alltoallv", alltoallv},
      {"alltoallw", alltoallw}};
  return c;
}

// The fields of the non-blocking collectives before communicators were recorded (ID, then the
// fields without C): those ran on MPI_COMM_WORLD.
size_t fields_without_communicator(const std::string& op)
{
  static const std::map<std::string, size_t> n = {{"barrier", 1}, {"bcast", 4},     {"reduce", 4},
                                                  {"allreduce", 3}, {"alltoall", 5}, {"allgather", 5},
                                                  {"gather", 6},  {"scatter", 6}};
  auto it = n.find(op);
  return it == n.end() ? 0 : it->second;
}

void blocking(Action& a, Collective run)
{
  CallBuffers buffers;
  // haec_barrier without C: MPI_COMM_WORLD (the barrier of a trace with windows, replay_rma_actions.cpp)
  const MPI_Comm comm = a.size() == 2 ? MPI_COMM_WORLD : comm_field(a, 2);
  check_call(a, run(Call{a, 3, comm, buffers, nullptr}));
}

void nonblocking(Action& a, const std::string& op, Collective run)
{
  const bool old      = fields_without_communicator(op) != 0 && a.size() == 2 + fields_without_communicator(op);
  const MPI_Comm comm = old ? MPI_COMM_WORLD : comm_field(a, 3);
  PendingRequest& p   = start_request(a, 2);
  check_call(a, run(Call{a, old ? size_t{3} : size_t{4}, comm, p.buffers, &p.request}));
}

} // namespace

void register_collective_replay_actions()
{
  // In replay no code runs between MPI calls; SMPI's benchmark timer (never started in replay)
  // would otherwise charge the process's CPU time to the rank as computation at each of our MPI_*
  // calls (measured: 13 ms per call). Not -1 ("infinity"): SimGrid 3.32 stores -1 after its
  // callback has turned it into DBL_MAX, so -1 discards nothing (measured).
  static bool once = [] {
    simgrid::config::set_value("smpi/cpu-threshold", 1e300);
    return true;
  }();
  (void)once;
  for (auto const& [op, run] : collectives()) {
    const std::string name = op;
    const Collective call  = run;
    register_replay_action(("haec_" + name).c_str(), [call](Action& a) { blocking(a, call); });
    register_replay_action(("haec_i" + name).c_str(), [name, call](Action& a) { nonblocking(a, name, call); });
  }
  register_replay_action("haec_wait", wait_request);
  register_replay_action("haec_request_free", free_request);
}

} // namespace haec::core::parts
