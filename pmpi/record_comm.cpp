// TI recording of communicator creation (recording.hpp) as our replay actions
// (core/replay_comm_actions.cpp; format in libs/trace/README.md):
//   haec_comm_split P NEW COLOR KEY         MPI_Comm_split; MPI_Cart_sub keeping dimensions (SMPI splits)
//   haec_comm_dup P NEW                     MPI_Comm_dup, MPI_Comm_dup_with_info
//   haec_comm_create P NEW N W...           MPI_Comm_create, _create_group, MPI_Cart_create, MPI_Cart_sub
//                                           keeping no dimension: the group, world ranks in rank order
//   haec_comm_split_type P NEW N W...       MPI_Comm_split_type: the group the rank got
//   haec_comm_free C
// P, NEW and C are the trace's communicator ids (ti_ids.hpp); NEW is -1 where the call returned
// MPI_COMM_NULL; COLOR is -1 for MPI_UNDEFINED. Each is written the way SMPI carries the call out,
// so the replay makes the same messages: Comm_create only involves the group's members (the others
// get MPI_COMM_NULL without communicating, and write nothing), Comm_split_type communicates not at all.
#include "wrappers.hpp"

#include <algorithm>
#include <vector>

namespace haec::pmpi::record {
namespace {

std::string num(long long v)
{
  return std::to_string(v);
}

std::string group_text(const std::vector<int>& members)
{
  std::string out = num(static_cast<long long>(members.size()));
  for (int w : members)
    out += " " + num(w);
  return out;
}

// A communicator made from `comm` whose members are known from the result: a create-like action.
void created_like_create(Recording& rec, MPI_Comm comm, const char* call, MPI_Comm created)
{
  if (created == MPI_COMM_NULL) // not a member: SMPI does nothing for this rank
    return;
  const int parent = ti_comm(rec, comm, call);
  if (parent == TiIds::kUnknown)
    return;
  const int id = ti_comm_created(rec, parent, created);
  rec.action("haec_comm_create " + num(parent) + " " + num(id) + " " + group_text(ti_members(created)));
}

void split(Recording& rec, MPI_Comm comm, const char* call, int color, int key, MPI_Comm created)
{
  const int parent = ti_comm(rec, comm, call);
  if (parent == TiIds::kUnknown)
    return;
  const int id = ti_comm_created(rec, parent, created);
  rec.action("haec_comm_split " + num(parent) + " " + num(id) + " " + num(color == MPI_UNDEFINED ? -1 : color) + " " +
             num(key));
}

void refused(Recording& rec, const char* call, const char* what)
{
  rec.unsupported(call, std::string(what) + " (SMPI does not implement them)");
}

} // namespace

void Comm_split(Recording& rec, MPI_Comm comm, int color, int key, MPI_Comm* newcomm)
{
  split(rec, comm, "MPI_Comm_split", color, key, *newcomm);
}

void Comm_split_type(Recording& rec, MPI_Comm comm, int, int, MPI_Info, MPI_Comm* newcomm)
{
  const int parent = ti_comm(rec, comm, "MPI_Comm_split_type");
  if (parent == TiIds::kUnknown)
    return;
  const int id = ti_comm_created(rec, parent, *newcomm);
  rec.action("haec_comm_split_type " + num(parent) + " " + num(id) + " " +
             group_text(*newcomm == MPI_COMM_NULL ? std::vector<int>{} : ti_members(*newcomm)));
}

void Comm_dup(Recording& rec, MPI_Comm comm, MPI_Comm* newcomm)
{
  const int parent = ti_comm(rec, comm, "MPI_Comm_dup");
  if (parent != TiIds::kUnknown)
    rec.action("haec_comm_dup " + num(parent) + " " + num(ti_comm_created(rec, parent, *newcomm)));
}

void Comm_dup_with_info(Recording& rec, MPI_Comm comm, MPI_Info, MPI_Comm* newcomm)
{
  const int parent = ti_comm(rec, comm, "MPI_Comm_dup_with_info");
  if (parent != TiIds::kUnknown)
    rec.action("haec_comm_dup " + num(parent) + " " + num(ti_comm_created(rec, parent, *newcomm)));
}

void Comm_create(Recording& rec, MPI_Comm comm, MPI_Group, MPI_Comm* newcomm)
{
  created_like_create(rec, comm, "MPI_Comm_create", *newcomm);
}

void Comm_create_group(Recording& rec, MPI_Comm comm, MPI_Group, int, MPI_Comm* newcomm)
{
  created_like_create(rec, comm, "MPI_Comm_create_group", *newcomm);
}

// SMPI's Topo_Cart: the first dims[0] x ... ranks of comm, in their order (reorder is ignored).
void Cart_create(Recording& rec, MPI_Comm comm, int, const int*, const int*, int, MPI_Comm* newcomm)
{
  created_like_create(rec, comm, "MPI_Cart_create", *newcomm);
}

// SMPI's Topo_Cart::sub: a split of comm by the coordinates of the dropped dimensions (key: the
// rank), or with no dimension kept a communicator of comm's rank 0 alone.
void Cart_sub(Recording& rec, MPI_Comm comm, const int* remain_dims, MPI_Comm* newcomm)
{
  int ndims = 0;
  PMPI_Cartdim_get(comm, &ndims);
  std::vector<int> dims(static_cast<size_t>(std::max(ndims, 1))), periods(dims.size()), coords(dims.size());
  PMPI_Cart_get(comm, ndims, dims.data(), periods.data(), coords.data());
  int kept = 0, color = 0;
  for (int i = 0; i < ndims; ++i) {
    if (remain_dims[i])
      ++kept;
    else
      color = color * dims[static_cast<size_t>(i)] + coords[static_cast<size_t>(i)];
  }
  if (kept == 0)
    created_like_create(rec, comm, "MPI_Cart_sub", *newcomm);
  else
    split(rec, comm, "MPI_Cart_sub", color, ti_comm_rank(comm), *newcomm);
}

void Comm_free(Recording& rec, MPI_Comm kept, MPI_Comm*)
{
  TiState& s   = ti_state();
  const int id = s.ids.comm(rec.rank(), ti_handle(kept));
  if (id == TiIds::kUnknown) // never recorded: nothing in the trace uses it
    return;
  rec.action("haec_comm_free " + num(id));
  s.ids.comm_freed(rec.rank(), ti_handle(kept));
}

void Intercomm_create(Recording& rec, MPI_Comm, int, MPI_Comm, int, int, MPI_Comm*)
{
  refused(rec, "MPI_Intercomm_create", "intercommunicators");
}

void Intercomm_merge(Recording& rec, MPI_Comm, int, MPI_Comm*)
{
  refused(rec, "MPI_Intercomm_merge", "intercommunicators");
}

void Graph_create(Recording& rec, MPI_Comm, int, const int*, const int*, int, MPI_Comm*)
{
  refused(rec, "MPI_Graph_create", "graph topologies");
}

void Dist_graph_create(Recording& rec, MPI_Comm, int, const int*, const int*, const int*, const int*, MPI_Info, int,
                       MPI_Comm*)
{
  refused(rec, "MPI_Dist_graph_create", "distributed graph topologies");
}

void Dist_graph_create_adjacent(Recording& rec, MPI_Comm, int, const int*, const int*, int, const int*, const int*,
                                MPI_Info, int, MPI_Comm*)
{
  refused(rec, "MPI_Dist_graph_create_adjacent", "distributed graph topologies");
}

} // namespace haec::pmpi::record
