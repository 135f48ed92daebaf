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
#include "replay_fields.hpp"

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

namespace haec::core::parts {
namespace {

namespace sg4 = simgrid::s4u;

// Any reduction does: the replay moves bytes, the values do not matter.
MPI_Op reduction(MPI_Datatype t)
{
  return t == MPI_DOUBLE || t == MPI_FLOAT || t == MPI_LONG_DOUBLE ? MPI_MAX : MPI_BAND;
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
  long long id = small_field(a, 2);
  auto& mine   = pending()[sg4::this_actor::get_pid()];
  if (mine.count(id))
    fail_action(a, "request " + a[2] + " is started twice");
  Pending& p = mine[id];
  p.send.resize(std::max<size_t>(send_bytes, 1));
  p.recv.resize(std::max<size_t>(recv_bytes, 1));
  return p;
}

void ibarrier(Action& a)
{
  Pending& p = start(a, 0, 0);
  check_call(a, MPI_Ibarrier(MPI_COMM_WORLD, &p.request));
}

void ibcast(Action& a)
{
  int count = small_field(a, 3);
  int r     = rank_field(a, 4);
  MPI_Datatype t = datatype_field(a, 5);
  Pending& p     = start(a, count * type_size(t), 0);
  check_call(a, MPI_Ibcast(p.send.data(), count, t, r, MPI_COMM_WORLD, &p.request));
}

void ireduce(Action& a)
{
  int count = small_field(a, 3);
  int r     = rank_field(a, 4);
  MPI_Datatype t = datatype_field(a, 5);
  Pending& p     = start(a, count * type_size(t), count * type_size(t));
  check_call(a, MPI_Ireduce(p.send.data(), p.recv.data(), count, t, reduction(t), r, MPI_COMM_WORLD, &p.request));
}

void iallreduce(Action& a)
{
  int count = small_field(a, 3);
  MPI_Datatype t = datatype_field(a, 4);
  Pending& p     = start(a, count * type_size(t), count * type_size(t));
  check_call(a, MPI_Iallreduce(p.send.data(), p.recv.data(), count, t, reduction(t), MPI_COMM_WORLD, &p.request));
}

// ialltoall / iallgather / igather / iscatter: ID scount stype rcount rtype [root]
void exchange(Action& a, const std::string& op)
{
  int sc = small_field(a, 3);
  MPI_Datatype st = datatype_field(a, 4);
  int rc = small_field(a, 5);
  MPI_Datatype rt = datatype_field(a, 6);
  const size_t n  = static_cast<size_t>(world_size());
  if (op == "ialltoall") {
    Pending& p = start(a, n * sc * type_size(st), n * rc * type_size(rt));
    check_call(a, MPI_Ialltoall(p.send.data(), sc, st, p.recv.data(), rc, rt, MPI_COMM_WORLD, &p.request));
  } else if (op == "iallgather") {
    Pending& p = start(a, sc * type_size(st), n * rc * type_size(rt));
    check_call(a, MPI_Iallgather(p.send.data(), sc, st, p.recv.data(), rc, rt, MPI_COMM_WORLD, &p.request));
  } else if (op == "igather") {
    int r      = rank_field(a, 7);
    Pending& p = start(a, sc * type_size(st), n * rc * type_size(rt));
    check_call(a, MPI_Igather(p.send.data(), sc, st, p.recv.data(), rc, rt, r, MPI_COMM_WORLD, &p.request));
  } else {
    int r      = rank_field(a, 7);
    Pending& p = start(a, n * sc * type_size(st), rc * type_size(rt));
    check_call(a, MPI_Iscatter(p.send.data(), sc, st, p.recv.data(), rc, rt, r, MPI_COMM_WORLD, &p.request));
  }
}

void wait(Action& a)
{
  long long id = small_field(a, 2);
  auto& mine   = pending()[sg4::this_actor::get_pid()];
  auto it      = mine.find(id);
  if (it == mine.end())
    fail_action(a, "no non-blocking collective " + a[2] + " was started by this rank");
  check_call(a, MPI_Wait(&it->second.request, MPI_STATUS_IGNORE));
  mine.erase(it);
}

} // namespace


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
      fail_action(a, call + " (one-sided communication) cannot be replayed: SimGrid 3.32's TI replay has no RMA; "
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
