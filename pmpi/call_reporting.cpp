// Call reporting: see call_reporting.hpp.
#include "call_reporting.hpp"

#include <dlfcn.h>

#include <vector>

namespace haec::pmpi {

ReportState& report_state()
{
  static auto* s = new ReportState; // never destroyed: ranks may still call in during exit
  return *s;
}

namespace {

template <class F> F bound(F weak, const char* name)
{
  return weak != nullptr ? weak : reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

int delete_table(MPI_Comm, int, void* table, void*)
{
  delete static_cast<std::vector<int>*>(table);
  return MPI_SUCCESS;
}

// World ranks of `comm`'s ranks (the remote group for an intercommunicator), cached on the
// communicator as an attribute so each communicator is translated once.
const std::vector<int>* world_table(MPI_Comm comm)
{
  ReportState& s = report_state();
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.keyval == MPI_KEYVAL_INVALID &&
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_table, &s.keyval, nullptr) != MPI_SUCCESS)
      return nullptr;
  }
  void* cached = nullptr;
  int found    = 0;
  if (PMPI_Comm_get_attr(comm, s.keyval, &cached, &found) == MPI_SUCCESS && found)
    return static_cast<const std::vector<int>*>(cached);

  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  if ((inter ? PMPI_Comm_remote_group(comm, &group) : PMPI_Comm_group(comm, &group)) != MPI_SUCCESS)
    return nullptr;
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int n = 0;
  PMPI_Group_size(group, &n);
  std::vector<int> ranks(n);
  for (int i = 0; i < n; ++i)
    ranks[i] = i;
  auto* table = new std::vector<int>(n, MPI_UNDEFINED);
  PMPI_Group_translate_ranks(group, n, ranks.data(), world, table->data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  PMPI_Comm_set_attr(comm, s.keyval, table);
  return table;
}

} // namespace

void bind_suite()
{
  ReportState& s = report_state();
  std::lock_guard<std::mutex> lock(s.mu);
  // The weak references are bound when this library loads; a suite loaded later is found here.
  if (s.sink == nullptr)
    s.sink = bound<MessageSink>(haec_suite_logical_message, "haec_suite_logical_message");
  if (s.poll == nullptr)
    s.poll = bound<PollSink>(haec_suite_polling, "haec_suite_polling");
  if (s.peer == nullptr)
    s.peer = bound<PeerSink>(haec_suite_mpi_peer, "haec_suite_mpi_peer");
  if (s.counters == nullptr)
    s.counters = bound<CountersSink>(haec_suite_computation_counters, "haec_suite_computation_counters");
  if (s.enter == nullptr || s.exit == nullptr || s.announce == nullptr || s.returned == nullptr) {
    s.enter    = bound<EnterSink>(haec_suite_mpi_enter, "haec_suite_mpi_enter");
    s.exit     = bound<ExitSink>(haec_suite_mpi_exit, "haec_suite_mpi_exit");
    s.announce = bound<EnterSink>(haec_suite_mpi_announce, "haec_suite_mpi_announce");
    s.returned = bound<ExitSink>(haec_suite_mpi_returned, "haec_suite_mpi_returned");
    if (s.enter == nullptr || s.exit == nullptr || s.announce == nullptr || s.returned == nullptr)
      s.enter = nullptr, s.exit = nullptr, s.announce = nullptr, s.returned = nullptr;
  }
}

void* simgrid_symbol(const char* name)
{
  static void* simgrid = [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&PMPI_Send), &info) == 0 || info.dli_fname == nullptr)
      return static_cast<void*>(nullptr);
    return dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  }();
  return simgrid != nullptr ? dlsym(simgrid, name) : nullptr;
}

int world_rank()
{
  int r = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int to_world(MPI_Comm comm, int r)
{
  if (r == MPI_PROC_NULL || r < 0 || comm == MPI_COMM_NULL)
    return -1;
  if (comm == MPI_COMM_WORLD)
    return r;
  const std::vector<int>* table = world_table(comm);
  if (table == nullptr || r >= static_cast<int>(table->size()) || (*table)[r] == MPI_UNDEFINED)
    return -1;
  return (*table)[r];
}

unsigned long long payload(int count, MPI_Datatype type)
{
  int size = 0;
  if (count <= 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS || size < 0)
    return 0;
  return static_cast<unsigned long long>(count) * static_cast<unsigned long long>(size);
}

Call::Call(Fn f, const void* site) : rank(world_rank()), fn(f), caller(site)
{
  ReportState& s = report_state();
  s.calls.count(rank, f);
  if (s.enter != nullptr) {
    s.enter(fn_name(f), site);
    entered_ = true;
  }
}

Call::~Call()
{
  if (entered_)
    report_state().exit();
}

Polling::Polling() : sink_(report_state().poll)
{
  if (sink_ != nullptr)
    sink_(1);
}

void Polling::end()
{
  if (sink_ != nullptr)
    sink_(0);
  sink_ = nullptr;
}

void deliver(int src, int dst, unsigned long long bytes)
{
  ReportState& s = report_state();
  if (!s.sizes_path.empty()) {
    std::lock_guard<std::mutex> lock(s.mu);
    s.sizes.add(bytes);
  }
  if (s.sink != nullptr)
    s.sink(src, dst, bytes);
}

void report_message(const Call& call, MPI_Comm comm, int dst, int count, MPI_Datatype type)
{
  int w = to_world(comm, dst);
  if (call.rank >= 0 && w >= 0)
    deliver(call.rank, w, payload(count, type));
}

void report_peer(const Call&, MPI_Comm comm, int rank, int tag)
{
  if (PeerSink peer = report_state().peer)
    peer(to_world(comm, rank), tag == MPI_ANY_TAG || tag < 0 ? -1 : tag);
}

void report_request_peers(const Call&, int count, const MPI_Request* requests)
{
  ReportState& s = report_state();
  if (s.peer == nullptr)
    return;
  Peer agreed;
  bool first = true;
  for (int i = 0; requests != nullptr && i < count; ++i) {
    if (requests[i] == MPI_REQUEST_NULL)
      continue;
    auto it = s.request_peers.find(requests[i]);
    Peer p  = it != s.request_peers.end() ? it->second : Peer{};
    if (first)
      agreed = p, first = false;
    if (p.world_rank != agreed.world_rank)
      agreed.world_rank = -1;
    if (p.tag != agreed.tag)
      agreed.tag = -1;
  }
  s.peer(agreed.world_rank, agreed.tag);
}

void track_request(const Call&, int rc, const MPI_Request* request, MPI_Comm comm, int rank, int tag)
{
  ReportState& s = report_state();
  if (s.peer == nullptr || rc != MPI_SUCCESS || request == nullptr || *request == MPI_REQUEST_NULL)
    return;
  // Overwrites what a freed request at the same address left.
  s.request_peers[*request] = Peer{to_world(comm, rank), tag == MPI_ANY_TAG || tag < 0 ? -1 : tag};
}

} // namespace haec::pmpi
