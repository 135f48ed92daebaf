// TI recording of one-sided communication (recording.hpp) as our replay actions
// (core/replay_rma_actions.cpp, format in libs/trace/README.md):
//   haec_win_create W SIZE DISP_UNIT C (haec_win_allocate, haec_win_allocate_shared alike)
//   haec_win_create_dynamic W C    haec_win_attach W SIZE    haec_win_detach W
//   haec_win_free W   haec_win_fence W ASSERT
//   haec_win_lock W TYPE TARGET ASSERT      haec_win_unlock W TARGET   haec_win_lock_all W ASSERT
//   haec_win_unlock_all W    haec_win_flush[_local] W TARGET    haec_win_flush[_local]_all W
//   haec_win_post W ASSERT N RANK...        haec_win_start W ASSERT N RANK...
//   haec_win_complete W      haec_win_wait W
//   haec_put W TARGET OCOUNT OTYPE TDISP TCOUNT TTYPE     haec_get W (same fields)
//   haec_accumulate W TARGET OCOUNT OTYPE TDISP TCOUNT TTYPE OP
//   haec_get_accumulate W TARGET OCOUNT OTYPE RCOUNT RTYPE TDISP TCOUNT TTYPE OP
//   haec_compare_and_swap W TARGET TYPE TDISP SWAPPED
//   haec_rput ID W ... (haec_rget, haec_raccumulate, haec_rget_accumulate: the fields above after ID),
//   completed by haec_wait ID
// W is the window's id (ti_ids.hpp: one id per window on every rank), C its communicator's id;
// targets are ranks of that communicator, post/start groups world ranks; OP is 0 for MPI_NO_OP,
// 1 for any other operation (replay moves bytes; the values do not matter).
#include "wrappers.hpp"

#include <cstring>
#include <vector>

namespace haec::pmpi::record {
namespace {

std::string num(long long v)
{
  return std::to_string(v);
}

// "W" of a window this rank created, or empty (the window's creation already stopped the trace).
std::string window(const Recording& rec, MPI_Win win)
{
  const int id = ti_state().ids.window(rec.rank(), ti_handle(win));
  return id == TiIds::kUnknown ? std::string() : num(id);
}

void created(Recording& rec, MPI_Comm comm, const char* call, const MPI_Win* win, const char* action,
             const std::string& fields)
{
  const int c = ti_comm(rec, comm, call);
  if (c == TiIds::kUnknown)
    return;
  TiState& s   = ti_state();
  const int id = s.ids.window_created(rec.rank(), ti_handle(*win), c);
  s.windows[*win] = TiState::Window{rec.rank(), comm};
  rec.action(std::string(action) + " " + num(id) + (fields.empty() ? "" : " " + fields) + " " + num(c));
}

// An action on window `win` naming only the window and `args`.
void on_window(Recording& rec, const char* action, MPI_Win win, const std::string& args = "")
{
  std::string w = window(rec, win);
  if (!w.empty())
    rec.action(std::string(action) + " " + w + (args.empty() ? "" : " " + args));
}

// Transfers: TARGET OCOUNT OTYPE TDISP TCOUNT TTYPE, the target a rank of the window's communicator.
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

// A request-based transfer "haec_<op> ID W ...", completed by the wait of its request; SMPI hands
// back MPI_REQUEST_NULL for a transfer to the rank itself and no request at all for
// MPI_Rget_accumulate (done when the call returns): those are completed at once.
void requested(Recording& rec, const char* op, MPI_Win win, const std::string& args, MPI_Request request, bool done)
{
  std::string w = window(rec, win);
  if (w.empty())
    return;
  const uint64_t key = done || request == MPI_REQUEST_NULL ? 0 : ti_key(request);
  rec.recorder().collective_start(rec.rank(), op, w + " " + args, key);
  if (key == 0)
    rec.recorder().complete(rec.rank(), 0, 0, 0);
}

} // namespace

// ---- windows ------------------------------------------------------------------------------------
void Win_create(Recording& rec, void*, MPI_Aint size, int disp_unit, MPI_Info, MPI_Comm comm, MPI_Win* win)
{
  created(rec, comm, "MPI_Win_create", win, "haec_win_create", num(size) + " " + num(disp_unit));
}
void Win_allocate(Recording& rec, MPI_Aint size, int disp_unit, MPI_Info, MPI_Comm comm, void*, MPI_Win* win)
{
  created(rec, comm, "MPI_Win_allocate", win, "haec_win_allocate", num(size) + " " + num(disp_unit));
}
void Win_allocate_shared(Recording& rec, MPI_Aint size, int disp_unit, MPI_Info, MPI_Comm comm, void*, MPI_Win* win)
{
  created(rec, comm, "MPI_Win_allocate_shared", win, "haec_win_allocate_shared", num(size) + " " + num(disp_unit));
}
void Win_create_dynamic(Recording& rec, MPI_Info, MPI_Comm comm, MPI_Win* win)
{
  created(rec, comm, "MPI_Win_create_dynamic", win, "haec_win_create_dynamic", "");
}
void Win_attach(Recording& rec, MPI_Win win, void*, MPI_Aint size)
{
  on_window(rec, "haec_win_attach", win, num(size));
}
void Win_detach(Recording& rec, MPI_Win win, const void*)
{
  on_window(rec, "haec_win_detach", win);
}
void Win_free(Recording& rec, MPI_Win kept, MPI_Win*)
{
  on_window(rec, "haec_win_free", kept);
  ti_state().windows.erase(kept);
  ti_state().ids.window_freed(rec.rank(), ti_handle(kept));
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

// ---- request-based transfers -------------------------------------------------------------------
void Rput(Recording& rec, const void*, int ocount, MPI_Datatype otype, int target, MPI_Aint tdisp, int tcount,
          MPI_Datatype ttype, MPI_Win win, MPI_Request* request)
{
  if (target != MPI_PROC_NULL)
    requested(rec, "rput", win, transfer(target, ocount, otype, tdisp, tcount, ttype), *request, false);
}
void Rget(Recording& rec, void*, int ocount, MPI_Datatype otype, int target, MPI_Aint tdisp, int tcount,
          MPI_Datatype ttype, MPI_Win win, MPI_Request* request)
{
  if (target != MPI_PROC_NULL)
    requested(rec, "rget", win, transfer(target, ocount, otype, tdisp, tcount, ttype), *request, false);
}
void Raccumulate(Recording& rec, const void*, int ocount, MPI_Datatype otype, int target, MPI_Aint tdisp, int tcount,
                 MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request* request)
{
  if (target != MPI_PROC_NULL)
    requested(rec, "raccumulate", win, transfer(target, ocount, otype, tdisp, tcount, ttype) + " " + op_class(op),
              *request, false);
}
void Rget_accumulate(Recording& rec, const void*, int ocount, MPI_Datatype otype, void*, int rcount,
                     MPI_Datatype rtype, int target, MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Op op,
                     MPI_Win win, MPI_Request*)
{
  if (target != MPI_PROC_NULL)
    requested(rec, "rget_accumulate", win,
              num(target) + " " + ti_count_type(ocount, otype) + " " + ti_count_type(rcount, rtype) + " " +
                  num(tdisp) + " " + ti_count_type(tcount, ttype) + " " + op_class(op),
              MPI_REQUEST_NULL, true);
}

} // namespace haec::pmpi::record
