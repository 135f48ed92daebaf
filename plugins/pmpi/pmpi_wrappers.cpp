// PMPI layer of haec-smpi: the application's MPI calls land here first (the app is linked
// against libhaec_pmpi before libsimgrid, see README.md), are counted per world rank and
// function, and every point-to-point send is reported to the suite as a logical message.
// Each wrapper then calls SimGrid's own MPI_ entry point (looked up inside libsimgrid, so
// SMPI's error handlers still run), falling back to PMPI_ if that lookup fails.
#include <mpi.h> // SMPI's header (/usr/include/smpi)

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "atomic_file.hpp"
#include "call_table.hpp"

// Defined by the suite library when it is loaded; absent (null) otherwise.
extern "C" void haec_suite_logical_message(int src_world_rank, int dst_world_rank, unsigned long long bytes)
    __attribute__((weak));
// Defined by the suite's power plugin: the calling rank starts (1) or stops (0) polling, around
// each MPI_Test* (SMPI sleeps there; the power model charges that time as polling).
extern "C" void haec_suite_polling(int polling) __attribute__((weak));
// Defined by the suite: the calling rank enters an MPI call from the return address `caller`
// (a call site of the application), and leaves it. Code regions are keyed by these sites.
extern "C" void haec_suite_mpi_enter(const char* function, const void* caller) __attribute__((weak));
extern "C" void haec_suite_mpi_exit(void) __attribute__((weak));

namespace {

using haec::pmpi::Fn;
using MessageSink = void (*)(int, int, unsigned long long);
using PollSink    = void (*)(int);
using EnterSink   = void (*)(const char*, const void*);
using ExitSink    = void (*)();

struct PersistentSend {
  int src = -1, dst = -1;
  unsigned long long bytes = 0;
};

// Shared by all ranks: SMPI runs every rank as an actor of this one process.
struct State {
  std::mutex mu; // init/finalize, persistent requests, debug histogram (rare paths)
  haec::pmpi::CallTable calls;
  haec::pmpi::SizeHistogram sizes;
  int world_size   = 0;
  int finalized    = 0;
  int keyval       = MPI_KEYVAL_INVALID;
  bool env_read    = false;
  std::string counts_path, sizes_path; // HAEC_PMPI_DEBUG_COUNTS / HAEC_PMPI_DEBUG_SIZES
  MessageSink sink = nullptr;
  PollSink poll    = nullptr; // haec_suite_polling, when the suite is loaded
  EnterSink enter  = nullptr; // haec_suite_mpi_enter / _exit, when the suite is loaded
  ExitSink exit    = nullptr;
  std::unordered_map<MPI_Request, PersistentSend> persistent;
};

State& state()
{
  static auto* s = new State; // never destroyed: ranks may still call in during exit
  return *s;
}

// SimGrid's MPI_<name>, found inside libsimgrid itself so our own definition is skipped.
template <class F> F next_function(const char* name, F pmpi_fallback)
{
  static void* simgrid = [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&PMPI_Send), &info) == 0 || info.dli_fname == nullptr)
      return static_cast<void*>(nullptr);
    return dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  }();
  void* f = simgrid != nullptr ? dlsym(simgrid, name) : nullptr;
  return f != nullptr ? reinterpret_cast<F>(f) : pmpi_fallback;
}

#define HAEC_NEXT(name) static const auto next = next_function(#name, &P##name)


int world_rank()
{
  int r = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int count_call(Fn f)
{
  int r = world_rank();
  state().calls.count(r, f);
  return r;
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
  State& s = state();
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

// World rank of rank `r` of `comm`, or -1 when there is no real peer (MPI_PROC_NULL, bad args:
// the real call reports those).
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

void deliver(int src, int dst, unsigned long long bytes)
{
  State& s = state();
  if (!s.sizes_path.empty()) {
    std::lock_guard<std::mutex> lock(s.mu);
    s.sizes.add(bytes);
  }
  if (s.sink != nullptr)
    s.sink(src, dst, bytes);
}

void report(int src, MPI_Comm comm, int dst, int count, MPI_Datatype type)
{
  int w = to_world(comm, dst);
  if (src >= 0 && w >= 0)
    deliver(src, w, payload(count, type));
}

void on_init(Fn f)
{
  State& s = state();
  int n    = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &n);
  {
    std::lock_guard<std::mutex> lock(s.mu);
    s.calls.ensure_ranks(n);
    s.world_size = n;
    if (!s.env_read) {
      s.env_read = true;
      if (const char* p = std::getenv("HAEC_PMPI_DEBUG_COUNTS"))
        s.counts_path = p;
      if (const char* p = std::getenv("HAEC_PMPI_DEBUG_SIZES"))
        s.sizes_path = p;
    }
    // The weak reference is bound when this library loads; a suite loaded later is found here.
    if (s.sink == nullptr)
      s.sink = haec_suite_logical_message != nullptr
                   ? &haec_suite_logical_message
                   : reinterpret_cast<MessageSink>(dlsym(RTLD_DEFAULT, "haec_suite_logical_message"));
    if (s.poll == nullptr)
      s.poll = haec_suite_polling != nullptr ? &haec_suite_polling
                                             : reinterpret_cast<PollSink>(dlsym(RTLD_DEFAULT, "haec_suite_polling"));
    if (s.enter == nullptr || s.exit == nullptr) {
      s.enter = haec_suite_mpi_enter != nullptr
                    ? &haec_suite_mpi_enter
                    : reinterpret_cast<EnterSink>(dlsym(RTLD_DEFAULT, "haec_suite_mpi_enter"));
      s.exit = haec_suite_mpi_exit != nullptr ? &haec_suite_mpi_exit
                                              : reinterpret_cast<ExitSink>(dlsym(RTLD_DEFAULT, "haec_suite_mpi_exit"));
      if (s.enter == nullptr || s.exit == nullptr)
        s.enter = nullptr, s.exit = nullptr;
    }
  }
  count_call(f);
}

// One MPI call of the application: counted, and reported to the suite (entry now, exit when
// the wrapper returns) with the call site `caller`, so the suite knows each rank's code region.
class CallScope {
public:
  CallScope(Fn f, const void* caller) : rank(count_call(f))
  {
    if (EnterSink enter = state().enter) {
      enter(haec::pmpi::fn_name(f), caller);
      entered_ = true;
    }
  }
  ~CallScope()
  {
    if (entered_)
      state().exit();
  }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;
  const int rank; // the caller's world rank

private:
  bool entered_ = false;
};

// Opens the call's scope inside a wrapper; the return address is the application's call site.
#define HAEC_CALL(name) CallScope haec_call(Fn::name, __builtin_return_address(0))

// MPI_Init is reported once the rank exists (entered and left at once): regions start there.
void report_init(Fn f, const void* caller)
{
  State& s = state();
  if (s.enter != nullptr) {
    s.enter(haec::pmpi::fn_name(f), caller);
    s.exit();
  }
}

void write_debug_file(const std::string& path, const std::string& content)
{
  if (path.empty())
    return;
  try {
    haec::write_file_atomic(path, content);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "haec_pmpi: %s\n", e.what());
  }
}

void on_finalize()
{
  count_call(Fn::Finalize);
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (++s.finalized == s.world_size) { // last rank: every count is final
    write_debug_file(s.counts_path, s.calls.csv());
    write_debug_file(s.sizes_path, s.sizes.csv());
  }
}

void remember(MPI_Request request, int src, MPI_Comm comm, int dst, int count, MPI_Datatype type)
{
  int w = to_world(comm, dst);
  if (src < 0 || w < 0 || request == MPI_REQUEST_NULL)
    return;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.persistent[request] = PersistentSend{src, w, payload(count, type)};
}

// A persistent send reports one logical message each time it is started.
void started(MPI_Request request)
{
  State& s = state();
  PersistentSend p;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    auto it = s.persistent.find(request);
    if (it == s.persistent.end())
      return; // receive or unknown request
    p = it->second;
  }
  deliver(p.src, p.dst, p.bytes);
}

} // namespace

extern "C" {

int MPI_Init(int* argc, char*** argv)
{
  HAEC_NEXT(MPI_Init);
  int rc = next(argc, argv);
  if (rc == MPI_SUCCESS) {
    on_init(Fn::Init);
    report_init(Fn::Init, __builtin_return_address(0));
  }
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided)
{
  HAEC_NEXT(MPI_Init_thread);
  int rc = next(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) {
    on_init(Fn::Init_thread);
    report_init(Fn::Init_thread, __builtin_return_address(0));
  }
  return rc;
}

int MPI_Finalize(void)
{
  HAEC_NEXT(MPI_Finalize);
  on_finalize();
  State& s = state();
  if (s.enter != nullptr)
    s.enter("MPI_Finalize", __builtin_return_address(0));
  int rc = next();
  if (s.exit != nullptr)
    s.exit();
  return rc;
}

// ---- sends: counted and reported ------------------------------------------------------------
#define HAEC_BLOCKING_SEND(name)                                                                                       \
  int MPI_##name(const void* buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm)                       \
  {                                                                                                                    \
    HAEC_NEXT(MPI_##name);                                                                                             \
    HAEC_CALL(name);                                                                                                   \
    report(haec_call.rank, comm, dst, count, type);                                                                    \
    return next(buf, count, type, dst, tag, comm);                                                                     \
  }
#define HAEC_NONBLOCKING_SEND(name)                                                                                    \
  int MPI_##name(const void* buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm, MPI_Request* req)     \
  {                                                                                                                    \
    HAEC_NEXT(MPI_##name);                                                                                             \
    HAEC_CALL(name);                                                                                                   \
    report(haec_call.rank, comm, dst, count, type);                                                                    \
    return next(buf, count, type, dst, tag, comm, req);                                                                \
  }
#define HAEC_PERSISTENT_SEND(name)                                                                                     \
  int MPI_##name(const void* buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm, MPI_Request* req)     \
  {                                                                                                                    \
    HAEC_NEXT(MPI_##name);                                                                                             \
    HAEC_CALL(name);                                                                                                   \
    int me = haec_call.rank;                                                                                           \
    int rc = next(buf, count, type, dst, tag, comm, req);                                                              \
    if (rc == MPI_SUCCESS && req != nullptr)                                                                           \
      remember(*req, me, comm, dst, count, type);                                                                      \
    return rc;                                                                                                         \
  }

HAEC_BLOCKING_SEND(Send)
HAEC_BLOCKING_SEND(Ssend)
HAEC_BLOCKING_SEND(Bsend)
HAEC_BLOCKING_SEND(Rsend)
HAEC_NONBLOCKING_SEND(Isend)
HAEC_NONBLOCKING_SEND(Issend)
HAEC_NONBLOCKING_SEND(Ibsend)
HAEC_NONBLOCKING_SEND(Irsend)
HAEC_PERSISTENT_SEND(Send_init)
HAEC_PERSISTENT_SEND(Ssend_init)
HAEC_PERSISTENT_SEND(Bsend_init)
HAEC_PERSISTENT_SEND(Rsend_init)

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dst, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int src, int recvtag, MPI_Comm comm, MPI_Status* status)
{
  HAEC_NEXT(MPI_Sendrecv);
  HAEC_CALL(Sendrecv);
  report(haec_call.rank, comm, dst, sendcount, sendtype);
  return next(sendbuf, sendcount, sendtype, dst, sendtag, recvbuf, recvcount, recvtype, src, recvtag, comm, status);
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dst, int sendtag, int src, int recvtag,
                         MPI_Comm comm, MPI_Status* status)
{
  HAEC_NEXT(MPI_Sendrecv_replace);
  HAEC_CALL(Sendrecv_replace);
  report(haec_call.rank, comm, dst, count, type);
  return next(buf, count, type, dst, sendtag, src, recvtag, comm, status);
}

int MPI_Start(MPI_Request* request)
{
  HAEC_NEXT(MPI_Start);
  HAEC_CALL(Start);
  if (request != nullptr)
    started(*request);
  return next(request);
}

int MPI_Startall(int count, MPI_Request* requests)
{
  HAEC_NEXT(MPI_Startall);
  HAEC_CALL(Startall);
  for (int i = 0; requests != nullptr && i < count; ++i)
    started(requests[i]);
  return next(count, requests);
}

int MPI_Request_free(MPI_Request* request)
{
  HAEC_NEXT(MPI_Request_free);
  HAEC_CALL(Request_free);
  if (request != nullptr) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mu);
    s.persistent.erase(*request);
  }
  return next(request);
}

// ---- everything else: counted only ------------------------------------------------------------
// HAEC_COUNTED(name, (params), (args)) defines a wrapper that counts the call and forwards it.
#define HAEC_COUNTED(name, params, args)                                                                               \
  int MPI_##name params                                                                                                \
  {                                                                                                                    \
    HAEC_NEXT(MPI_##name);                                                                                             \
    HAEC_CALL(name);                                                                                                   \
    return next args;                                                                                                  \
  }

HAEC_COUNTED(Recv_init, (void* buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Request* req),
             (buf, count, type, src, tag, comm, req))
HAEC_COUNTED(Recv, (void* buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Status* status),
             (buf, count, type, src, tag, comm, status))
HAEC_COUNTED(Irecv, (void* buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Request* req),
             (buf, count, type, src, tag, comm, req))
HAEC_COUNTED(Probe, (int src, int tag, MPI_Comm comm, MPI_Status* status), (src, tag, comm, status))
HAEC_COUNTED(Iprobe, (int src, int tag, MPI_Comm comm, int* flag, MPI_Status* status), (src, tag, comm, flag, status))
HAEC_COUNTED(Wait, (MPI_Request * req, MPI_Status* status), (req, status))
HAEC_COUNTED(Waitall, (int count, MPI_Request reqs[], MPI_Status statuses[]), (count, reqs, statuses))
HAEC_COUNTED(Waitany, (int count, MPI_Request reqs[], int* index, MPI_Status* status), (count, reqs, index, status))
HAEC_COUNTED(Waitsome, (int incount, MPI_Request reqs[], int* outcount, int* indices, MPI_Status statuses[]),
             (incount, reqs, outcount, indices, statuses))
// HAEC_POLLING: as HAEC_COUNTED, and tells the suite (power plugin) the rank polls during the call.
#define HAEC_POLLING(name, params, args)                                                                               \
  int MPI_##name params                                                                                                \
  {                                                                                                                    \
    HAEC_NEXT(MPI_##name);                                                                                             \
    HAEC_CALL(name);                                                                                                   \
    PollSink poll = state().poll;                                                                                      \
    if (poll)                                                                                                          \
      poll(1);                                                                                                         \
    int rc = next args;                                                                                                \
    if (poll)                                                                                                          \
      poll(0);                                                                                                         \
    return rc;                                                                                                         \
  }
HAEC_POLLING(Test, (MPI_Request * req, int* flag, MPI_Status* status), (req, flag, status))
HAEC_POLLING(Testall, (int count, MPI_Request* reqs, int* flag, MPI_Status* statuses), (count, reqs, flag, statuses))
HAEC_POLLING(Testany, (int count, MPI_Request reqs[], int* index, int* flag, MPI_Status* status),
             (count, reqs, index, flag, status))
HAEC_POLLING(Testsome, (int incount, MPI_Request reqs[], int* outcount, int* indices, MPI_Status statuses[]),
             (incount, reqs, outcount, indices, statuses))
HAEC_COUNTED(Barrier, (MPI_Comm comm), (comm))
HAEC_COUNTED(Bcast, (void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm), (buf, count, type, root, comm))
HAEC_COUNTED(Reduce,
             (const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm),
             (sbuf, rbuf, count, type, op, root, comm))
HAEC_COUNTED(Allreduce, (const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
             (sbuf, rbuf, count, type, op, comm))
HAEC_COUNTED(Gather,
             (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
              MPI_Comm comm),
             (sbuf, scount, stype, rbuf, rcount, rtype, root, comm))
HAEC_COUNTED(Gatherv,
             (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int* rcounts, const int* displs,
              MPI_Datatype rtype, int root, MPI_Comm comm),
             (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm))
HAEC_COUNTED(Scatter,
             (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
              MPI_Comm comm),
             (sbuf, scount, stype, rbuf, rcount, rtype, root, comm))
HAEC_COUNTED(Scatterv,
             (const void* sbuf, const int* scounts, const int* displs, MPI_Datatype stype, void* rbuf, int rcount,
              MPI_Datatype rtype, int root, MPI_Comm comm),
             (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm))
HAEC_COUNTED(Allgather,
             (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
              MPI_Comm comm),
             (sbuf, scount, stype, rbuf, rcount, rtype, comm))
HAEC_COUNTED(Allgatherv,
             (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int* rcounts, const int* displs,
              MPI_Datatype rtype, MPI_Comm comm),
             (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm))
HAEC_COUNTED(Alltoall,
             (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
              MPI_Comm comm),
             (sbuf, scount, stype, rbuf, rcount, rtype, comm))
HAEC_COUNTED(Alltoallv,
             (const void* sbuf, const int* scounts, const int* sdispls, MPI_Datatype stype, void* rbuf,
              const int* rcounts, const int* rdispls, MPI_Datatype rtype, MPI_Comm comm),
             (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm))
HAEC_COUNTED(Reduce_scatter,
             (const void* sbuf, void* rbuf, const int* rcounts, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
             (sbuf, rbuf, rcounts, type, op, comm))
HAEC_COUNTED(Scan, (const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
             (sbuf, rbuf, count, type, op, comm))
HAEC_COUNTED(Exscan, (const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
             (sbuf, rbuf, count, type, op, comm))

// SMPI's iteration markers and migration point (smpi/sampi.h: the application calls the weak
// AMPI_* names; ours bind first). Reported as calls, so the DVFS plugin can take them as
// iteration boundaries and the balancing plugin as migration points; then SMPI's own.
int APMPI_Iteration_in(MPI_Comm comm);
int APMPI_Iteration_out(MPI_Comm comm);
void APMPI_Migrate(MPI_Comm comm);

int AMPI_Iteration_in(MPI_Comm comm)
{
  HAEC_CALL(Iteration_in);
  return APMPI_Iteration_in(comm);
}

int AMPI_Iteration_out(MPI_Comm comm)
{
  HAEC_CALL(Iteration_out);
  return APMPI_Iteration_out(comm);
}

void AMPI_Migrate(MPI_Comm comm)
{
  HAEC_CALL(Migrate);
  APMPI_Migrate(comm);
}

} // extern "C"
