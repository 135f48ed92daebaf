// Replay actions SimGrid 3.32 lacks, registered next to SMPI's own (replay_actions.cpp calls
// register_extra_replay_actions when a rank registers "init"):
//   <rank> haec_ibarrier ID                      <rank> haec_ibcast ID count root type
//   <rank> haec_ireduce ID count root type       <rank> haec_iallreduce ID count type
//   <rank> haec_ialltoall ID scount stype rcount rtype
//   <rank> haec_iallgather ID scount stype rcount rtype
//   <rank> haec_igather ID scount stype rcount rtype root
//   <rank> haec_iscatter ID scount stype rcount rtype root
//   <rank> haec_wait ID                          completes the non-blocking collective ID
// written by `haec trace record` (pmpi/ti_recorder.hpp). Types are SimGrid's TI datatype
// ids. The collectives run through SMPI's public MPI_I* calls on MPI_COMM_WORLD with scratch
// buffers, as SMPI's own replay does for blocking ones. Also registered: SimGrid's tracer's
// one-sided actions (Win_lock, ...), which now stop the replay with one clear line instead of
// "action Win_lock is unknown".
#include "core_parts.hpp"

#include <smpi/mpi.h>
#include <xbt/config.hpp>
#include <xbt/replay.hpp>

#include <simgrid/s4u.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

namespace sg4 = simgrid::s4u;
using Action = simgrid::xbt::ReplayAction;

[[noreturn]] void fail(const Action& a, const std::string& problem)
{
  std::string text;
  for (auto const& f : a)
    text += (text.empty() ? "" : " ") + f;
  std::fprintf(stderr, "haec: trace action '%s': %s\n", text.c_str(), problem.c_str());
  std::fflush(stderr);
  std::exit(2);
}

long long integer(const Action& a, size_t i)
{
  if (i >= a.size())
    fail(a, "field " + std::to_string(i + 1) + " is missing");
  char* end = nullptr;
  double v  = std::strtod(a[i].c_str(), &end);
  if (end == a[i].c_str() || *end != '\0' || !std::isfinite(v) || v < 0 || v > 2147483647.0)
    fail(a, "field " + std::to_string(i + 1) + " '" + a[i] + "' is not a non-negative integer");
  return static_cast<long long>(v);
}

// SimGrid's TI datatype ids (CREATE_MPI_DATATYPE in smpi_datatype.cpp) the recorder writes.
MPI_Datatype datatype(const Action& a, size_t i)
{
  static const MPI_Datatype types[] = {MPI_DOUBLE,        MPI_INT,           MPI_CHAR,          MPI_SHORT,
                                       MPI_LONG,          MPI_FLOAT,         MPI_BYTE,          MPI_LONG_LONG,
                                       MPI_SIGNED_CHAR,   MPI_UNSIGNED_CHAR, MPI_UNSIGNED_SHORT, MPI_UNSIGNED,
                                       MPI_UNSIGNED_LONG, MPI_UNSIGNED_LONG_LONG, MPI_LONG_DOUBLE};
  long long id = integer(a, i);
  if (id >= static_cast<long long>(sizeof types / sizeof types[0]))
    fail(a, "datatype id " + a[i] + " is not one haec writes (0..14)");
  return types[id];
}

// Any reduction does: the replay moves bytes, the values do not matter.
MPI_Op reduction(MPI_Datatype t)
{
  return t == MPI_DOUBLE || t == MPI_FLOAT || t == MPI_LONG_DOUBLE ? MPI_MAX : MPI_BAND;
}

int root(const Action& a, size_t i)
{
  long long r = integer(a, i);
  int size    = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (r >= size)
    fail(a, "root " + a[i] + " is not a rank of the " + std::to_string(size) + "-rank replay");
  return static_cast<int>(r);
}

size_t type_size(MPI_Datatype t)
{
  int s = 0;
  MPI_Type_size(t, &s);
  return static_cast<size_t>(s);
}

// Scratch buffers per rank and request, freed when the collective completes.
struct Pending {
  MPI_Request request = MPI_REQUEST_NULL;
  std::vector<char> send, recv;
};
std::unordered_map<long, std::unordered_map<long long, Pending>>& pending()
{
  static std::unordered_map<long, std::unordered_map<long long, Pending>> p;
  return p;
}

Pending& start(const Action& a, size_t send_bytes, size_t recv_bytes)
{
  long long id = integer(a, 2);
  auto& mine   = pending()[sg4::this_actor::get_pid()];
  if (mine.count(id))
    fail(a, "request " + a[2] + " is started twice");
  Pending& p = mine[id];
  p.send.resize(std::max<size_t>(send_bytes, 1));
  p.recv.resize(std::max<size_t>(recv_bytes, 1));
  return p;
}

int world_size()
{
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

void check(const Action& a, int rc)
{
  if (rc != MPI_SUCCESS)
    fail(a, "SMPI refused the call (MPI error " + std::to_string(rc) + ")");
}

void ibarrier(Action& a)
{
  Pending& p = start(a, 0, 0);
  check(a, MPI_Ibarrier(MPI_COMM_WORLD, &p.request));
}

void ibcast(Action& a)
{
  int count = static_cast<int>(integer(a, 3));
  int r     = root(a, 4);
  MPI_Datatype t = datatype(a, 5);
  Pending& p     = start(a, count * type_size(t), 0);
  check(a, MPI_Ibcast(p.send.data(), count, t, r, MPI_COMM_WORLD, &p.request));
}

void ireduce(Action& a)
{
  int count = static_cast<int>(integer(a, 3));
  int r     = root(a, 4);
  MPI_Datatype t = datatype(a, 5);
  Pending& p     = start(a, count * type_size(t), count * type_size(t));
  check(a, MPI_Ireduce(p.send.data(), p.recv.data(), count, t, reduction(t), r, MPI_COMM_WORLD, &p.request));
}

void iallreduce(Action& a)
{
  int count = static_cast<int>(integer(a, 3));
  MPI_Datatype t = datatype(a, 4);
  Pending& p     = start(a, count * type_size(t), count * type_size(t));
  check(a, MPI_Iallreduce(p.send.data(), p.recv.data(), count, t, reduction(t), MPI_COMM_WORLD, &p.request));
}

// ialltoall / iallgather / igather / iscatter: ID scount stype rcount rtype [root]
void exchange(Action& a, const std::string& op)
{
  int sc = static_cast<int>(integer(a, 3));
  MPI_Datatype st = datatype(a, 4);
  int rc = static_cast<int>(integer(a, 5));
  MPI_Datatype rt = datatype(a, 6);
  const size_t n  = static_cast<size_t>(world_size());
  if (op == "ialltoall") {
    Pending& p = start(a, n * sc * type_size(st), n * rc * type_size(rt));
    check(a, MPI_Ialltoall(p.send.data(), sc, st, p.recv.data(), rc, rt, MPI_COMM_WORLD, &p.request));
  } else if (op == "iallgather") {
    Pending& p = start(a, sc * type_size(st), n * rc * type_size(rt));
    check(a, MPI_Iallgather(p.send.data(), sc, st, p.recv.data(), rc, rt, MPI_COMM_WORLD, &p.request));
  } else if (op == "igather") {
    int r      = root(a, 7);
    Pending& p = start(a, sc * type_size(st), n * rc * type_size(rt));
    check(a, MPI_Igather(p.send.data(), sc, st, p.recv.data(), rc, rt, r, MPI_COMM_WORLD, &p.request));
  } else {
    int r      = root(a, 7);
    Pending& p = start(a, n * sc * type_size(st), rc * type_size(rt));
    check(a, MPI_Iscatter(p.send.data(), sc, st, p.recv.data(), rc, rt, r, MPI_COMM_WORLD, &p.request));
  }
}

void wait(Action& a)
{
  long long id = integer(a, 2);
  auto& mine   = pending()[sg4::this_actor::get_pid()];
  auto it      = mine.find(id);
  if (it == mine.end())
    fail(a, "no non-blocking collective " + a[2] + " was started by this rank");
  check(a, MPI_Wait(&it->second.request, MPI_STATUS_IGNORE));
  mine.erase(it);
}

} // namespace

namespace haec::core::parts {

void register_extra_replay_actions()
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
  xbt_replay_action_register("haec_ibarrier", ibarrier);
  xbt_replay_action_register("haec_ibcast", ibcast);
  xbt_replay_action_register("haec_ireduce", ireduce);
  xbt_replay_action_register("haec_iallreduce", iallreduce);
  for (const char* op : {"ialltoall", "iallgather", "igather", "iscatter"}) {
    const std::string name = op;
    xbt_replay_action_register(("haec_" + name).c_str(), [name](Action& a) { exchange(a, name); });
  }
  xbt_replay_action_register("haec_wait", wait);
  // SimGrid's tracer writes these for one-sided calls; its replay has no action for them.
  for (const char* rma : {"Win_create", "Win_allocate", "Win_free", "Win_fence", "Win_lock", "Win_unlock",
                          "Win_lock_all", "Win_unlock_all", "Win_flush", "Win_post", "Win_start", "Win_complete",
                          "Win_wait", "Put", "Get", "Accumulate", "Get_accumulate", "Rput", "Rget"}) {
    const std::string call = std::string("MPI_") + rma;
    xbt_replay_action_register(rma, [call](Action& a) {
      fail(a, call + " (one-sided communication) cannot be replayed: SimGrid 3.32's TI replay has no RMA; "
                     "simulate the program online with haec run -- APP instead");
    });
  }
}

size_t unfinished_collectives()
{
  size_t n = 0;
  for (auto const& [pid, requests] : pending())
    n += requests.size();
  return n;
}

} // namespace haec::core::parts
