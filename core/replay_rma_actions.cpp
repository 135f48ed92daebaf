// Replay of one-sided communication: the actions `haec trace record` writes for MPI windows
// (pmpi/record_rma.cpp; format in libs/trace/README.md), registered next to SMPI's own actions
// (replay_actions.cpp calls register_rma_replay_actions when the first rank is handed to the suite).
//
// Each action makes the same SMPI call the application made (MPI_Win_create, MPI_Win_fence,
// MPI_Put, ...) from the replaying rank, with the recorded sizes, targets and epochs, on the
// window's replayed communicator, so SMPI's RMA code (smpi_win.cpp: its messages, barriers, locks
// and waits) times the replay exactly as it timed the emulation. Buffers are a small scratch
// area: in replay SMPI copies no data (Datatype::copy, the transfers' copy callbacks and
// MPI_Op::apply all skip it), so only the sizes matter; windows are declared with their recorded
// size (dynamic windows attach it). Also registered: SimGrid's tracer's one-sided actions
// (Win_lock, ...), which stop the replay with one clear line instead of "action Win_lock is unknown".
#include "core_parts.hpp"
#include "replay_state.hpp"

#include <smpi/mpi.h>
#include <xbt/replay.hpp>

#include <simgrid/s4u.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

// SMPI's collective selector (smpi_coll.hpp, not installed): the allgather windows connect with.
namespace simgrid::smpi::colls {
extern int (*allgather)(const void* send_buff, int send_count, MPI_Datatype send_type, void* recv_buff,
                        int recv_count, MPI_Datatype recv_type, MPI_Comm comm);
}

namespace haec::core::parts {
namespace {

namespace sg4 = simgrid::s4u;

alignas(64) char scratch[64]; // every origin buffer and window base: SMPI copies nothing in replay

// Each rank's windows by the id the recorder gave them, with their communicator.
struct Window {
  MPI_Win win   = MPI_WIN_NULL;
  MPI_Comm comm = MPI_COMM_WORLD;
};
std::unordered_map<long long, Window>& windows()
{
  static std::unordered_map<long, std::unordered_map<long long, Window>> per_rank;
  return per_rank[sg4::this_actor::get_pid()];
}

const Window& window_at(const Action& a, size_t i)
{
  auto& mine = windows();
  auto it    = mine.find(field(a, i));
  if (it == mine.end())
    fail_action(a, "window " + a[i] + " was not created by this rank (or was freed)");
  return it->second;
}

MPI_Win window(const Action& a)
{
  return window_at(a, 2).win;
}

// A target rank of the window named in field `w`.
int target_field(const Action& a, size_t i, size_t w = 2)
{
  return comm_rank_field(a, i, window_at(a, w).comm);
}

// ---- windows and epochs --------------------------------------------------------------------------
// SimGrid 3.32 defect: a window connects to its peers' windows through an allgather of their
// addresses in its constructor, and in replay SMPI's transfers copy no data, so every peer stays
// null and the first MPI_Put crashes (measured). SMPI's allgather is therefore wrapped: while a
// rank creates a window it still runs (and times) the allgather, then copies the peers' addresses
// itself. (Letting the rank stop "replaying" instead breaks SMPI's buffer ownership: a sender
// decides by its receiver's mode, measured double frees.)
using Allgather = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm);
Allgather smpi_allgather = nullptr;

struct Connection { // one window's creation: each rank's contribution, by world rank
  std::vector<std::vector<char>> parts;
  int copied = 0;
};
std::unordered_map<long, long long>& creating() // actor pid -> the window it is creating
{
  static std::unordered_map<long, long long> c;
  return c;
}
std::unordered_map<long long, Connection>& connections()
{
  static std::unordered_map<long long, Connection> c;
  return c;
}

int connecting_allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                         MPI_Comm comm)
{
  auto it = creating().find(sg4::this_actor::get_pid());
  if (it == creating().end()) // any other allgather
    return smpi_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
  int rank = 0, size = 0, ssize = 0, rsize = 0;
  MPI_Comm_rank(comm, &rank), MPI_Comm_size(comm, &size), MPI_Type_size(stype, &ssize), MPI_Type_size(rtype, &rsize);
  const long long id = it->second;
  Connection& mine   = connections()[id];
  mine.parts.resize(static_cast<size_t>(size));
  mine.parts[static_cast<size_t>(rank)].assign(static_cast<const char*>(sbuf),
                                                static_cast<const char*>(sbuf) + static_cast<size_t>(scount) * ssize);
  const int rc = smpi_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm); // every rank has published now
  Connection& all = connections()[id];
  for (size_t r = 0; r < all.parts.size(); ++r)
    std::memcpy(static_cast<char*>(rbuf) + r * static_cast<size_t>(rcount) * rsize, all.parts[r].data(),
                std::min(all.parts[r].size(), static_cast<size_t>(rcount) * rsize));
  if (++all.copied == size)
    connections().erase(id);
  return rc;
}

// haec_win_create / _allocate / _allocate_shared W SIZE DISP_UNIT [C], haec_win_create_dynamic W [C]
// (without C: a trace written before communicators were recorded, MPI_COMM_WORLD).
void win_create(Action& a, const std::string& kind)
{
  const long long id   = field(a, 2);
  const bool dynamic   = kind == "dynamic";
  const size_t comm_at = dynamic ? 3 : 5;
  if (windows().count(id))
    fail_action(a, "window " + a[2] + " is created twice");
  const MPI_Comm comm = a.size() > comm_at ? comm_field(a, comm_at) : MPI_COMM_WORLD;
  MPI_Win win         = MPI_WIN_NULL;
  const auto size     = dynamic ? 0 : static_cast<MPI_Aint>(field(a, 3));
  const int unit      = dynamic ? 1 : small_field(a, 4);
  void* base          = nullptr;
  creating()[sg4::this_actor::get_pid()] = id;
  if (kind == "create")
    check_call(a, MPI_Win_create(scratch, size, unit, MPI_INFO_NULL, comm, &win));
  else if (kind == "allocate")
    check_call(a, MPI_Win_allocate(size, unit, MPI_INFO_NULL, comm, &base, &win));
  else if (kind == "shared")
    check_call(a, MPI_Win_allocate_shared(size, unit, MPI_INFO_NULL, comm, &base, &win));
  else
    check_call(a, MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &win));
  creating().erase(sg4::this_actor::get_pid());
  errors_return(win);
  windows()[id] = Window{win, comm};
}

void win_free(Action& a)
{
  MPI_Win win = window(a);
  check_call(a, MPI_Win_free(&win));
  windows().erase(field(a, 2));
}

void win_lock(Action& a) // W TYPE TARGET ASSERT
{
  const int type = small_field(a, 3);
  if (type != MPI_LOCK_EXCLUSIVE && type != MPI_LOCK_SHARED)
    fail_action(a, "lock type " + a[3] + " is neither exclusive (1) nor shared (2)");
  check_call(a, MPI_Win_lock(type, target_field(a, 4), small_field(a, 5), window(a)));
}

// W ASSERT N RANK...: the group of a post or start.
MPI_Group group(const Action& a)
{
  const int n = small_field(a, 4);
  if (a.size() != 5 + static_cast<size_t>(n))
    fail_action(a, "the group names " + a[4] + " ranks but the line has " + std::to_string(a.size() - 5));
  std::vector<int> ranks;
  for (int i = 0; i < n; ++i)
    ranks.push_back(rank_field(a, 5 + static_cast<size_t>(i)));
  MPI_Group world = MPI_GROUP_NULL, g = MPI_GROUP_NULL;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  check_call(a, MPI_Group_incl(world, n, ranks.data(), &g));
  MPI_Group_free(&world);
  return g;
}

void win_post_or_start(Action& a, bool post)
{
  MPI_Group g = group(a);
  check_call(a, post ? MPI_Win_post(g, small_field(a, 3), window(a)) : MPI_Win_start(g, small_field(a, 3), window(a)));
  MPI_Group_free(&g);
}

// ---- transfers -----------------------------------------------------------------------------------
MPI_Op op(const Action& a, size_t i)
{
  const long long v = field(a, i);
  if (v > 1)
    fail_action(a, "operation " + a[i] + " is neither 0 (MPI_NO_OP) nor 1 (another operation)");
  return v == 0 ? MPI_NO_OP : MPI_REPLACE; // replay moves bytes: any operation times alike
}

// [ID] W TARGET OCOUNT OTYPE TDISP TCOUNT TTYPE [OP]: `w` is W's field; with a request (haec_r*)
// the transfer is completed by haec_wait ID.
void transfer(Action& a, const std::string& kind, size_t w, MPI_Request* request)
{
  const int target = target_field(a, w + 1, w), ocount = small_field(a, w + 2), tcount = small_field(a, w + 5);
  const MPI_Datatype otype = datatype_field(a, w + 3), ttype = datatype_field(a, w + 6);
  const auto tdisp         = static_cast<MPI_Aint>(field(a, w + 4));
  const MPI_Win win        = window_at(a, w).win;
  if (kind == "put")
    check_call(a, request ? MPI_Rput(scratch, ocount, otype, target, tdisp, tcount, ttype, win, request)
                          : MPI_Put(scratch, ocount, otype, target, tdisp, tcount, ttype, win));
  else if (kind == "get")
    check_call(a, request ? MPI_Rget(scratch, ocount, otype, target, tdisp, tcount, ttype, win, request)
                          : MPI_Get(scratch, ocount, otype, target, tdisp, tcount, ttype, win));
  else if (request)
    check_call(a, MPI_Raccumulate(scratch, ocount, otype, target, tdisp, tcount, ttype, op(a, w + 7), win, request));
  else
    check_call(a, MPI_Accumulate(scratch, ocount, otype, target, tdisp, tcount, ttype, op(a, w + 7), win));
}

// [ID] W TARGET OCOUNT OTYPE RCOUNT RTYPE TDISP TCOUNT TTYPE OP
void get_accumulate(Action& a, size_t w, MPI_Request* request)
{
  const int target = target_field(a, w + 1, w);
  const int ocount = small_field(a, w + 2), rcount = small_field(a, w + 4), tcount = small_field(a, w + 7);
  const MPI_Datatype otype = datatype_field(a, w + 3), rtype = datatype_field(a, w + 5), ttype = datatype_field(a, w + 8);
  const auto tdisp         = static_cast<MPI_Aint>(field(a, w + 6));
  const MPI_Win win        = window_at(a, w).win;
  if (request)
    check_call(a, MPI_Rget_accumulate(scratch, ocount, otype, scratch, rcount, rtype, target, tdisp, tcount, ttype,
                                      op(a, w + 9), win, request));
  else
    check_call(a, MPI_Get_accumulate(scratch, ocount, otype, scratch, rcount, rtype, target, tdisp, tcount, ttype,
                                     op(a, w + 9), win));
}

// W TARGET TYPE TDISP SWAPPED: SMPI swaps when the fetched value (never copied in replay: the
// result buffer keeps what we put there) equals compare, so the recorded outcome is set up here.
void compare_and_swap(Action& a)
{
  const long long swapped = field(a, 6, 1);
  alignas(16) char result[32], compare[32];
  std::memset(result, 0, sizeof result);
  std::memset(compare, swapped ? 0 : 0xff, sizeof compare);
  check_call(a, MPI_Compare_and_swap(scratch, compare, result, datatype_field(a, 4), target_field(a, 3),
                                     static_cast<MPI_Aint>(field(a, 5)), window(a)));
}

using WinCall = int (*)(MPI_Win);
using RankCall = int (*)(int, MPI_Win);

} // namespace


void register_rma_replay_actions()
{
  if (smpi_allgather == nullptr) { // SMPI has chosen its collectives when the ranks register their actions
    smpi_allgather                 = simgrid::smpi::colls::allgather;
    simgrid::smpi::colls::allgather = connecting_allgather;
  }
  for (auto [name, kind] : {std::pair<const char*, const char*>{"haec_win_create", "create"},
                            {"haec_win_allocate", "allocate"},
                            {"haec_win_allocate_shared", "shared"},
                            {"haec_win_create_dynamic", "dynamic"}}) {
    const std::string k = kind;
    register_replay_action(name, [k](Action& a) { win_create(a, k); });
  }
  register_replay_action("haec_win_attach", [](Action& a) {
    check_call(a, MPI_Win_attach(window(a), scratch, static_cast<MPI_Aint>(field(a, 3))));
  });
  register_replay_action("haec_win_detach", [](Action& a) { check_call(a, MPI_Win_detach(window(a), scratch)); });
  register_replay_action("haec_win_free", win_free);
  register_replay_action("haec_win_fence", [](Action& a) { check_call(a, MPI_Win_fence(small_field(a, 3), window(a))); });
  register_replay_action("haec_win_lock", win_lock);
  register_replay_action("haec_win_lock_all",
                             [](Action& a) { check_call(a, MPI_Win_lock_all(small_field(a, 3), window(a))); });
  register_replay_action("haec_win_post", [](Action& a) { win_post_or_start(a, true); });
  register_replay_action("haec_win_start", [](Action& a) { win_post_or_start(a, false); });
  // W: the window alone
  for (auto [name, call] : {std::pair<const char*, WinCall>{"haec_win_unlock_all", MPI_Win_unlock_all},
                            {"haec_win_flush_all", MPI_Win_flush_all},
                            {"haec_win_flush_local_all", MPI_Win_flush_local_all},
                            {"haec_win_complete", MPI_Win_complete},
                            {"haec_win_wait", MPI_Win_wait}})
    register_replay_action(name, [call = call](Action& a) { check_call(a, call(window(a))); });
  // W TARGET
  for (auto [name, call] : {std::pair<const char*, RankCall>{"haec_win_unlock", MPI_Win_unlock},
                            {"haec_win_flush", MPI_Win_flush},
                            {"haec_win_flush_local", MPI_Win_flush_local}})
    register_replay_action(name, [call = call](Action& a) { check_call(a, call(target_field(a, 3), window(a))); });
  for (const char* kind : {"put", "get", "accumulate"}) {
    const std::string k = kind;
    register_replay_action(("haec_" + k).c_str(), [k](Action& a) { transfer(a, k, 2, nullptr); });
    register_replay_action(("haec_r" + k).c_str(), [k](Action& a) {
      PendingRequest& p = start_request(a, 2);
      transfer(a, k, 3, &p.request);
    });
  }
  register_replay_action("haec_get_accumulate", [](Action& a) { get_accumulate(a, 2, nullptr); });
  register_replay_action("haec_rget_accumulate", [](Action& a) {
    PendingRequest& p = start_request(a, 2);
    get_accumulate(a, 3, &p.request);
  });
  register_replay_action("haec_compare_and_swap", compare_and_swap);
  // SimGrid's tracer writes these for one-sided calls; its replay has no action for them.
  for (const char* rma : {"Win_create", "Win_allocate", "Win_free", "Win_fence", "Win_lock", "Win_unlock",
                          "Win_lock_all", "Win_unlock_all", "Win_flush", "Win_post", "Win_start", "Win_complete",
                          "Win_wait", "Put", "Get", "Accumulate", "Get_accumulate", "Rput", "Rget"}) {
    const std::string call = std::string("MPI_") + rma;
    register_replay_action(rma, [call](Action& a) {
      fail_action(a, call + " as SimGrid's tracer writes it cannot be replayed (SimGrid's TI replay has no "
                            "one-sided communication); record the program with haec trace record");
    });
  }
}

} // namespace haec::core::parts
