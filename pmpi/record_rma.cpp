// TI recording of one-sided communication (recording.hpp) as our replay actions
// (core/replay_rma_actions.cpp, format in libs/trace/README.md):
//   haec_win_create W SIZE DISP_UNIT (haec_win_allocate alike)   haec_win_free W   haec_win_fence W ASSERT
//   haec_win_lock W TYPE TARGET ASSERT      haec_win_unlock W TARGET   haec_win_lock_all W ASSERT
//   haec_win_unlock_all W    haec_win_flush[_local] W TARGET    haec_win_flush[_local]_all W
//   haec_win_post W ASSERT N RANK...        haec_win_start W ASSERT N RANK...
//   haec_win_complete W      haec_win_wait W
//   haec_put W TARGET OCOUNT OTYPE TDISP TCOUNT TTYPE     haec_get W (same fields)
//   haec_accumulate W TARGET OCOUNT OTYPE TDISP TCOUNT TTYPE OP
//   haec_get_accumulate W TARGET OCOUNT OTYPE RCOUNT RTYPE TDISP TCOUNT TTYPE OP
//   haec_compare_and_swap W TARGET TYPE TDISP SWAPPED
// W numbers a rank's windows in creation order (windows are collective, so every rank numbers a
// window alike); ranks are world ranks; OP is 0 for MPI_NO_OP, 1 for any other operation (replay
// moves bytes; the values do not matter). Windows must span MPI_COMM_WORLD; dynamic and shared
// windows and request-based calls (Rput, ...) make the recording fail with one line.
#include "wrappers.hpp"

#include <cstring>
#include <vector>

namespace haec::pmpi::record {
namespace {

const char* kWhyWorld = "a window on a communicator other than MPI_COMM_WORLD (TI replay creates windows on "
                        "MPI_COMM_WORLD)";

std::string num(long long v)
{
  return std::to_string(v);
}

// "W" of a window this rank created, or empty (the window's creation already stopped the trace).
std::string window(MPI_Win win)
{
  auto const& live = ti_state().windows;
  auto it          = live.find(win);
  return it == live.end() ? std::string() : num(it->second.id);
}

void created(Recording& rec, MPI_Comm comm, const char* call, MPI_Aint size, int disp_unit, const MPI_Win* win,
             const char* action)
{
  int result = MPI_UNEQUAL;
  if (comm != MPI_COMM_WORLD && (PMPI_Comm_compare(comm, MPI_COMM_WORLD, &result) != MPI_SUCCESS ||
                                 (result != MPI_IDENT && result != MPI_CONGRUENT)))
    return rec.unsupported(call, kWhyWorld);
  TiState& s = ti_state();
  int id     = s.windows_created.at(static_cast<size_t>(rec.rank()))++;
  s.windows[*win] = TiState::Window{id, rec.rank(), comm};
  rec.action(std::string(action) + " " + num(id) + " " + num(size) + " " + num(disp_unit));
}

// An action on window `win` naming only the window and `args`.
void on_window(Recording& rec, const char* action, MPI_Win win, const std::string& args = "")
{
  std::string w = window(win);
  if (!w.empty())
    rec.action(std::string(action) + " " + w + (args.empty() ? "" : " " + args));
}

// Transfers: the target's rank in the window's communicator is its world rank.
std::string transfer(int target, int ocount, MPI_Datatype otype, MPI_Aint tdisp, int tcount, MPI_Datatype ttype)
{
  return num(target) + " " + ti_count_type(ocount, otype) + " " + num(tdisp) + " " + ti_count_type(tcount, ttype);
}

std::string op_class(MPI_Op op)
{
  return op == MPI_NO_OP ? "0" : "1";
}

// World ranks of a post/start group: "N RANK...".
std::string group_ranks(MPI_Group group)
{
  int n = 0;
  PMPI_Group_size(group, &n);
  std::vector<int> ranks(static_cast<size_t>(n)), world(static_cast<size_t>(n), MPI_UNDEFINED);
  for (int i = 0; i < n; ++i)
    ranks[static_cast<size_t>(i)] = i;
  MPI_Group world_group = MPI_GROUP_NULL;
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
  PMPI_Group_translate_ranks(group, n, ranks.data(), world_group, world.data());
  PMPI_Group_free(&world_group);
  std::string out = num(n);
  for (int r : world)
    out += " " + num(r);
  return out;
}

void refused(Recording& rec, const char* call, const char* what)
{
  rec.unsupported(call, std::string(what) + " (libs/trace/README.md lists the one-sided calls that replay)");
}

} // namespace

// ---- windows ------------------------------------------------------------------------------------
void Win_create(Recording& rec, void*, MPI_Aint size, int disp_unit, MPI_Info, MPI_Comm comm, MPI_Win* win)
{
  created(rec, comm, "MPI_Win_create", size, disp_unit, win, "haec_win_create");
}
void Win_allocate(Recording& rec, MPI_Aint size, int disp_unit, MPI_Info, MPI_Comm comm, void*, MPI_Win* win)
{
  created(rec, comm, "MPI_Win_allocate", size, disp_unit, win, "haec_win_allocate");
}
void Win_free(Recording& rec, MPI_Win kept, MPI_Win*)
{
  on_window(rec, "haec_win_free", kept);
  ti_state().windows.erase(kept);
}

// ---- synchronisation ----------------------------------------------------------------------------
void Win_fence(Recording& rec, int assert_, MPI_Win win)
{
  on_window(rec, "haec_win_fence", win, num(assert_));
}
void Win_lock(Recording& rec, int lock_type, int rank, int assert_, MPI_Win win)
{
  if (rank != MPI_PROC_NULL)
    on_window(rec, "haec_win_lock", win, num(lock_type) + " " + num(rank) + " " + num(assert_));
}
void Win_unlock(Recording& rec, int rank, MPI_Win win)
{
  if (rank != MPI_PROC_NULL)
    on_window(rec, "haec_win_unlock", win, num(rank));
}
void Win_lock_all(Recording& rec, int assert_, MPI_Win win)
{
  on_window(rec, "haec_win_lock_all", win, num(assert_));
}
void Win_unlock_all(Recording& rec, MPI_Win win)
{
  on_window(rec, "haec_win_unlock_all", win);
}
void Win_flush(Recording& rec, int rank, MPI_Win win)
{
  if (rank != MPI_PROC_NULL)
    on_window(rec, "haec_win_flush", win, num(rank));
}
void Win_flush_local(Recording& rec, int rank, MPI_Win win)
{
  if (rank != MPI_PROC_NULL)
    on_window(rec, "haec_win_flush_local", win, num(rank));
}
void Win_flush_all(Recording& rec, MPI_Win win)
{
  on_window(rec, "haec_win_flush_all", win);
}
void Win_flush_local_all(Recording& rec, MPI_Win win)
{
  on_window(rec, "haec_win_flush_local_all", win);
}
void Win_post(Recording& rec, MPI_Group group, int assert_, MPI_Win win)
{
  on_window(rec, "haec_win_post", win, num(assert_) + " " + group_ranks(group));
}
void Win_start(Recording& rec, MPI_Group group, int assert_, MPI_Win win)
{
  on_window(rec, "haec_win_start", win, num(assert_) + " " + group_ranks(group));
}
void Win_complete(Recording& rec, MPI_Win win)
{
  on_window(rec, "haec_win_complete", win);
}
void Win_wait(Recording& rec, MPI_Win win)
{
  on_window(rec, "haec_win_wait", win);
}

// ---- transfers (MPI_PROC_NULL targets do nothing in SMPI) -------------------------------------
void Put(Recording& rec, const void*, int ocount, MPI_Datatype otype, int target, MPI_Aint tdisp, int tcount,
         MPI_Datatype ttype, MPI_Win win)
{
  if (target != MPI_PROC_NULL)
    on_window(rec, "haec_put", win, transfer(target, ocount, otype, tdisp, tcount, ttype));
}
void Get(Recording& rec, void*, int ocount, MPI_Datatype otype, int target, MPI_Aint tdisp, int tcount,
         MPI_Datatype ttype, MPI_Win win)
{
  if (target != MPI_PROC_NULL)
    on_window(rec, "haec_get", win, transfer(target, ocount, otype, tdisp, tcount, ttype));
}
void Accumulate(Recording& rec, const void*, int ocount, MPI_Datatype otype, int target, MPI_Aint tdisp, int tcount,
                MPI_Datatype ttype, MPI_Op op, MPI_Win win)
{
  if (target != MPI_PROC_NULL)
    on_window(rec, "haec_accumulate", win, transfer(target, ocount, otype, tdisp, tcount, ttype) + " " + op_class(op));
}
void Get_accumulate(Recording& rec, const void*, int ocount, MPI_Datatype otype, void*, int rcount,
                    MPI_Datatype rtype, int target, MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Op op,
                    MPI_Win win)
{
  if (target == MPI_PROC_NULL)
    return;
  on_window(rec, "haec_get_accumulate", win,
            num(target) + " " + ti_count_type(ocount, otype) + " " + ti_count_type(rcount, rtype) + " " + num(tdisp) +
                " " + ti_count_type(tcount, ttype) + " " + op_class(op));
}
// SMPI runs MPI_Fetch_and_op as MPI_Get_accumulate of one element (none from a null origin).
void Fetch_and_op(Recording& rec, const void* origin, void* result, MPI_Datatype type, int target, MPI_Aint tdisp,
                  MPI_Op op, MPI_Win win)
{
  Get_accumulate(rec, origin, origin == nullptr ? 0 : 1, type, result, 1, type, target, tdisp, 1, type, op, win);
}
// The swap happened iff the target's old value (now in result) equals compare: replay repeats it.
void Compare_and_swap(Recording& rec, const void*, void* compare, void* result, MPI_Datatype type, int target,
                      MPI_Aint tdisp, MPI_Win win)
{
  if (target == MPI_PROC_NULL)
    return;
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_get_extent(type, &lb, &extent);
  const bool swapped = extent > 0 && std::memcmp(result, compare, static_cast<size_t>(extent)) == 0;
  on_window(rec, "haec_compare_and_swap", win,
            num(target) + " " + ti_type_id(type) + " " + num(tdisp) + " " + (swapped ? "1" : "0"));
}

// ---- what replay cannot do ---------------------------------------------------------------------
void Win_allocate_shared(Recording& rec, MPI_Aint, int, MPI_Info, MPI_Comm, void*, MPI_Win*)
{
  refused(rec, "MPI_Win_allocate_shared", "a shared-memory window");
}
void Win_create_dynamic(Recording& rec, MPI_Info, MPI_Comm, MPI_Win*)
{
  refused(rec, "MPI_Win_create_dynamic", "a dynamic window");
}
void Win_attach(Recording& rec, MPI_Win, void*, MPI_Aint)
{
  refused(rec, "MPI_Win_attach", "a dynamic window");
}
void Win_detach(Recording& rec, MPI_Win, const void*)
{
  refused(rec, "MPI_Win_detach", "a dynamic window");
}
void Rput(Recording& rec, const void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win, MPI_Request*)
{
  refused(rec, "MPI_Rput", "a request-based one-sided call");
}
void Rget(Recording& rec, void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win, MPI_Request*)
{
  refused(rec, "MPI_Rget", "a request-based one-sided call");
}
void Raccumulate(Recording& rec, const void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Op, MPI_Win,
                 MPI_Request*)
{
  refused(rec, "MPI_Raccumulate", "a request-based one-sided call");
}
void Rget_accumulate(Recording& rec, const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Aint, int,
                     MPI_Datatype, MPI_Op, MPI_Win, MPI_Request*)
{
  refused(rec, "MPI_Rget_accumulate", "a request-based one-sided call");
}

} // namespace haec::pmpi::record
