// TI trace recording: see recording.hpp.
#include "recording.hpp"

#include "atomic_file.hpp"
#include "call_reporting.hpp"
#include "call_site.hpp"
#include "ti_capture.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace haec::pmpi {

TiState& ti_state()
{
  static auto* s = new TiState; // never destroyed: ranks may still call in during exit
  return *s;
}

namespace {
// The site of each call the recorder annotates, named once per return address (dladdr and
// formatting are the costly part; each rank's copy of the program has its own addresses).
const std::string& site_name(Fn f, const void* caller)
{
  static std::mutex mu;
  static std::unordered_map<const void*, std::string> names;
  std::lock_guard<std::mutex> lock(mu);
  auto it = names.find(caller);
  if (it == names.end())
    it = names.emplace(caller, call_site_of(fn_name(f), caller)).first;
  return it->second;
}
} // namespace

void start_recording(int world_size)
{
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  TiState& s = ti_state();
  static const bool wanted = [&s] {
    const char* dir = std::getenv("HAEC_TRACE_OUT");
    if (dir == nullptr || *dir == '\0')
      return false;
    s.dir      = dir;
    s.recorder = new TiRecorder;
    return true;
  }();
  if (wanted) {
    s.recorder->ensure_ranks(world_size);
    s.ids.ensure_ranks(world_size);
  }
}

void start_recording_rank(int rank, Fn init, const void* caller)
{
  if (TiRecorder* rec = ti()) { // this rank's computations are recorded from here on
    ti_capture_rank(rec, rank);
    rec->init(rank, ti_clock(), site_name(init, caller));
  }
}

void finish_recording(int rank)
{
  TiState& s = ti_state();
  if (s.recorder == nullptr)
    return;
  s.recorder->finalize(rank);
  if (!s.recorder->finished())
    return;
  try { // the last rank: the rank files, or the reason the run cannot be replayed
    if (!s.recorder->error().empty()) {
      haec::write_file_atomic(s.dir + "/error.txt", s.recorder->error() + "\n");
      return;
    }
    for (int r = 0; r < s.recorder->ranks(); ++r)
      haec::write_file_atomic(s.dir + "/rank-" + std::to_string(r) + ".txt", s.recorder->rank_text(r));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "haec_pmpi: %s\n", e.what());
  }
}

Recording::Recording(const Call& call, bool timed, bool polling) : rec_(ti()), rank_(call.rank), timed_(timed)
{
  if (rec_)
    rec_->enter(rank_, ti_clock(), site_name(call.fn, call.caller), polling);
}

void Recording::done()
{
  if (rec_ && !left_) {
    rec_->leave(rank_, ti_clock(), timed_);
    left_ = true;
  }
}

Requests::Requests(const Recording& rec, int count, const MPI_Request* requests)
{
  if (!rec)
    return;
  if (requests != nullptr && count > 0)
    before_.assign(requests, requests + count);
  statuses_.resize(static_cast<size_t>(std::max(count, 1)));
}

uint64_t ti_key(MPI_Request r)
{
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(r));
}

int ti_type(MPI_Datatype type, double& count)
{
  // CREATE_MPI_DATATYPE in SimGrid's smpi_datatype.cpp
  static const std::vector<std::pair<MPI_Datatype, int>> ids = {
      {MPI_DOUBLE, 0},         {MPI_INT, 1},           {MPI_CHAR, 2},     {MPI_SHORT, 3},
      {MPI_LONG, 4},           {MPI_FLOAT, 5},         {MPI_BYTE, 6},     {MPI_LONG_LONG, 7},
      {MPI_SIGNED_CHAR, 8},    {MPI_UNSIGNED_CHAR, 9}, {MPI_UNSIGNED_SHORT, 10}, {MPI_UNSIGNED, 11},
      {MPI_UNSIGNED_LONG, 12}, {MPI_UNSIGNED_LONG_LONG, 13}, {MPI_LONG_DOUBLE, 14}};
  for (auto const& [t, id] : ids)
    if (t == type)
      return id;
  count = static_cast<double>(payload(static_cast<int>(count), type));
  return 6;
}

std::string ti_count_type(int count, MPI_Datatype type)
{
  double c = count;
  int id   = ti_type(type, c);
  return ti_number(c) + " " + std::to_string(id);
}

std::string ti_cn(int count, MPI_Datatype type)
{
  double c = count;
  ti_type(type, c);
  return ti_number(c);
}

std::string ti_type_id(MPI_Datatype type)
{
  double c = 1;
  return std::to_string(ti_type(type, c));
}

std::string ti_counts(const int* counts, MPI_Comm comm, MPI_Datatype type, bool significant, double* sum)
{
  int n = 0;
  PMPI_Comm_size(comm, &n);
  std::string out;
  double total = 0;
  for (int i = 0; i < n; ++i) {
    double c = significant && counts != nullptr ? counts[i] : 0;
    ti_type(type, c);
    total += c;
    out += (i ? " " : "") + ti_number(c);
  }
  if (sum)
    *sum = total;
  return out;
}

bool ti_derived(MPI_Datatype type)
{
  int integers = 0, addresses = 0, datatypes = 0, combiner = MPI_COMBINER_NAMED;
  return type != MPI_DATATYPE_NULL &&
         PMPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner) == MPI_SUCCESS &&
         combiner != MPI_COMBINER_NAMED;
}

namespace {
int type_size(MPI_Datatype type)
{
  int size = 0;
  if (type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS)
    return 0;
  return std::max(size, 0);
}
// Written with the program's count: derived types, and types of no size (a count of them still
// sends messages, of zero bytes).
bool exact(MPI_Datatype type)
{
  return ti_derived(type) || type_size(type) == 0;
}
} // namespace

std::string ti_coll_type(MPI_Datatype type)
{
  return exact(type) ? std::to_string(1000 + type_size(type)) : ti_type_id(type);
}

std::string ti_coll_count(int count, MPI_Datatype type)
{
  return exact(type) ? std::to_string(count) : ti_cn(count, type);
}

std::string ti_coll_count_type(int count, MPI_Datatype type)
{
  return ti_coll_count(count, type) + " " + ti_coll_type(type);
}

std::string ti_coll_counts(const int* counts, MPI_Comm comm, MPI_Datatype type, bool significant)
{
  int n = 0;
  PMPI_Comm_size(comm, &n);
  std::string out;
  for (int i = 0; i < n; ++i)
    out += (i ? " " : "") + ti_coll_count(significant && counts != nullptr ? counts[i] : 0, type);
  return out;
}

std::string ti_op_class(MPI_Op op)
{
  int commutes = 1;
  if (op != MPI_OP_NULL)
    PMPI_Op_commutative(op, &commutes);
  return commutes ? "0" : "1";
}

bool ti_simgrid_can_carry(int count, MPI_Datatype type)
{
  return count <= 0 || type_size(type) > 0;
}

std::string ti_root(MPI_Comm comm, int root)
{
  return std::to_string(std::max(0, to_world(comm, root)));
}

uint64_t ti_handle(const void* object)
{
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(object));
}

int ti_comm_rank(MPI_Comm comm)
{
  int r = -1;
  PMPI_Comm_rank(comm, &r);
  return r;
}

std::vector<int> ti_members(MPI_Comm comm)
{
  int n = 0;
  PMPI_Comm_size(comm, &n);
  std::vector<int> world(static_cast<size_t>(std::max(n, 0)));
  for (int i = 0; i < n; ++i)
    world[static_cast<size_t>(i)] = to_world(comm, i);
  return world;
}

int ti_comm(const Recording& rec, MPI_Comm comm, const char* call)
{
  if (comm == MPI_COMM_WORLD)
    return TiIds::kWorld;
  if (comm == MPI_COMM_SELF)
    return TiIds::kSelf;
  const int id = ti_state().ids.comm(rec.rank(), ti_handle(comm));
  if (id == TiIds::kUnknown)
    rec.unsupported(call, "its communicator was not made by a call the recorder sees (MPI_Comm_split, _dup, _create, "
                          "_create_group, _split_type, MPI_Cart_create, _sub; libs/trace/README.md)");
  return id;
}

int ti_comm_created(const Recording& rec, int parent, MPI_Comm created)
{
  if (created == MPI_COMM_NULL)
    return -1;
  return ti_state().ids.comm_created(rec.rank(), ti_handle(created), parent, ti_members(created));
}

} // namespace haec::pmpi
