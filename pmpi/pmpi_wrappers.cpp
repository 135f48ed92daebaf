// PMPI layer of haec-smpi: the application's MPI calls land here first (the app is linked
// against libhaec_pmpi before libsimgrid, see README.md), are counted per world rank and
// function, and every point-to-point send is reported to the suite as a logical message.
// Each wrapper then calls SimGrid's own MPI_ entry point (looked up inside libsimgrid, so
// SMPI's error handlers still run), falling back to PMPI_ if that lookup fails.
#include <mpi.h> // SMPI's header (/usr/include/smpi)

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "atomic_file.hpp"
#include "call_table.hpp"
#include "ti_capture.hpp"
#include "ti_recorder.hpp"

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
  // haec trace record (HAEC_TRACE_OUT=<dir>): the TI recorder and what it needs per request.
  haec::pmpi::TiRecorder* ti = nullptr;
  std::string ti_dir;
  std::unordered_map<MPI_Request, MPI_Comm> ti_recv_comm; // receives: statuses name comm ranks
  struct TiPersistent {
    bool send = true;
    int peer = -1, tag = 0, count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Comm comm     = MPI_COMM_NULL;
  };
  std::unordered_map<MPI_Request, TiPersistent> ti_persistent;
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
      if (const char* p = std::getenv("HAEC_TRACE_OUT"); p && *p) {
        s.ti_dir = p;
        s.ti     = new haec::pmpi::TiRecorder;
      }
    }
    if (s.ti != nullptr)
      s.ti->ensure_ranks(n);
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
  int rank = count_call(f);
  if (s.ti != nullptr) { // this rank's computations are recorded from here on
    haec::pmpi::ti_capture_rank(s.ti, rank);
    s.ti->init(rank, haec::pmpi::ti_clock());
  }
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

// ---- TI recording (haec trace record) -------------------------------------------------------
using haec::pmpi::TiRecorder;

TiRecorder* ti()
{
  return state().ti;
}

// SimGrid's TI datatype id (CREATE_MPI_DATATYPE in smpi_datatype.cpp) of a predefined type; any
// other type is written as bytes (MPI_BYTE, id 6) with `count` scaled to its size.
int ti_type(MPI_Datatype type, double& count)
{
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
  return haec::pmpi::ti_number(c) + " " + std::to_string(id);
}

uint64_t ti_key(MPI_Request r)
{
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(r));
}

// Replay runs every collective on MPI_COMM_WORLD: others cannot be written.
bool ti_world(int rank, MPI_Comm comm, const char* call)
{
  int result = MPI_UNEQUAL;
  if (comm == MPI_COMM_WORLD || (PMPI_Comm_compare(comm, MPI_COMM_WORLD, &result) == MPI_SUCCESS &&
                                 (result == MPI_IDENT || result == MPI_CONGRUENT)))
    return true;
  ti()->unsupported(rank, call,
                    "a collective on a communicator other than MPI_COMM_WORLD (TI replay runs collectives on "
                    "MPI_COMM_WORLD)");
  return false;
}

std::string ti_cn(int count, MPI_Datatype type);
std::string ti_type_id(MPI_Datatype type);
std::string ti_counts(const int* counts, MPI_Comm comm, MPI_Datatype type, bool significant, double* sum);

std::string ti_alltoallv(const int* scounts, MPI_Datatype stype, const int* rcounts, MPI_Datatype rtype, MPI_Comm comm)
{
  double ssum = 0, rsum = 0;
  std::string s = ti_counts(scounts, comm, stype, true, &ssum);
  std::string r = ti_counts(rcounts, comm, rtype, true, &rsum);
  return "alltoallv " + haec::pmpi::ti_number(ssum) + " " + s + " " + haec::pmpi::ti_number(rsum) + " " + r + " " +
         ti_type_id(stype) + " " + ti_type_id(rtype);
}

// The collective's root as a world rank.
std::string ti_root(MPI_Comm comm, int root)
{
  return std::to_string(std::max(0, to_world(comm, root)));
}

// Counts of a v-collective (world-sized), zeros when the argument is not significant here.
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
    out += (i ? " " : "") + haec::pmpi::ti_number(c);
  }
  if (sum)
    *sum = total;
  return out;
}

// The count as written for `type` (in bytes for a derived type).
std::string ti_cn(int count, MPI_Datatype type)
{
  double c = count;
  ti_type(type, c);
  return haec::pmpi::ti_number(c);
}

std::string ti_type_id(MPI_Datatype type)
{
  double c = 1;
  return std::to_string(ti_type(type, c));
}

// Records one call: the gap before it at entry; done() at its end (the call's own time becomes
// a sleep when `timed`: polling calls), after which the wrapper writes the call's actions.
class TiScope {
public:
  TiScope(int rank, bool timed) : rec_(ti()), rank_(rank), timed_(timed)
  {
    if (rec_)
      rec_->enter(rank, haec::pmpi::ti_clock());
  }
  ~TiScope() { done(); }
  TiScope(const TiScope&) = delete;
  TiScope& operator=(const TiScope&) = delete;
  explicit operator bool() const { return rec_ != nullptr; }
  void done()
  {
    if (rec_ && !left_) {
      rec_->leave(rank_, haec::pmpi::ti_clock(), timed_);
      left_ = true;
    }
  }

private:
  TiRecorder* rec_;
  int rank_;
  bool timed_;
  bool left_ = false;
};

// A request `before` the call completed with `status` (may be null: no status).
void ti_complete(int rank, MPI_Request before, const MPI_Status* status)
{
  State& s = state();
  if (before == MPI_REQUEST_NULL || !s.ti->knows(rank, ti_key(before)))
    return;
  int src = TiRecorder::kAny, tag = TiRecorder::kAny;
  auto it = s.ti_recv_comm.find(before);
  if (it != s.ti_recv_comm.end()) {
    if (status != nullptr) {
      src = to_world(it->second, status->MPI_SOURCE);
      tag = status->MPI_TAG;
    }
    s.ti_recv_comm.erase(it);
  }
  s.ti->complete(rank, ti_key(before), src, tag);
}

void ti_isend(int rank, MPI_Request req, MPI_Comm comm, int dst, int tag, int count, MPI_Datatype type)
{
  int w = to_world(comm, dst);
  if (w < 0 || req == MPI_REQUEST_NULL)
    return;
  double c = count;
  int id   = ti_type(type, c);
  ti()->send(rank, false, w, tag, c, id, ti_key(req));
}

void ti_irecv(int rank, MPI_Request req, MPI_Comm comm, int src, int tag, int count, MPI_Datatype type)
{
  if (src == MPI_PROC_NULL || req == MPI_REQUEST_NULL)
    return;
  int w = src == MPI_ANY_SOURCE ? TiRecorder::kAny : to_world(comm, src);
  if (w == -1 && src != MPI_ANY_SOURCE)
    return;
  double c = count;
  int id   = ti_type(type, c);
  ti()->irecv(rank, w, tag == MPI_ANY_TAG ? TiRecorder::kAny : tag, c, id, ti_key(req));
  state().ti_recv_comm[req] = comm;
}

// At the last MPI_Finalize: the rank files, or the reason the run cannot be replayed.
void ti_write()
{
  State& s = state();
  try {
    if (!s.ti->error().empty()) {
      haec::write_file_atomic(s.ti_dir + "/error.txt", s.ti->error() + "\n");
      return;
    }
    for (int r = 0; r < s.ti->ranks(); ++r)
      haec::write_file_atomic(s.ti_dir + "/rank-" + std::to_string(r) + ".txt", s.ti->rank_text(r));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "haec_pmpi: %s\n", e.what());
  }
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
  const int me = s.ti ? world_rank() : -1;
  std::unique_ptr<TiScope> scope(s.ti ? new TiScope(me, false) : nullptr);
  int rc = next();
  if (scope) {
    scope->done();
    s.ti->finalize(me);
    if (s.ti->finished())
      ti_write();
  }
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
    TiScope ti_scope(haec_call.rank, false);                                                                           \
    int rc = next(buf, count, type, dst, tag, comm);                                                                   \
    if (ti_scope) {                                                                                                    \
      ti_scope.done();                                                                                                 \
      double c = count;                                                                                                \
      int id   = ti_type(type, c);                                                                                     \
      if (int w = to_world(comm, dst); w >= 0)                                                                         \
        ti()->send(haec_call.rank, true, w, tag, c, id, 0);                                                            \
    }                                                                                                                  \
    return rc;                                                                                                         \
  }
#define HAEC_NONBLOCKING_SEND(name)                                                                                    \
  int MPI_##name(const void* buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm, MPI_Request* req)     \
  {                                                                                                                    \
    HAEC_NEXT(MPI_##name);                                                                                             \
    HAEC_CALL(name);                                                                                                   \
    report(haec_call.rank, comm, dst, count, type);                                                                    \
    TiScope ti_scope(haec_call.rank, false);                                                                           \
    int rc = next(buf, count, type, dst, tag, comm, req);                                                              \
    if (ti_scope && rc == MPI_SUCCESS && req != nullptr) {                                                             \
      ti_scope.done();                                                                                                 \
      ti_isend(haec_call.rank, *req, comm, dst, tag, count, type);                                                     \
    }                                                                                                                  \
    return rc;                                                                                                         \
  }
// Persistent requests are written as isend/irecv at each MPI_Start.
static void ti_remember(MPI_Request* req, bool send, int peer, int tag, int count, MPI_Datatype type, MPI_Comm comm)
{
  if (ti() != nullptr && req != nullptr && *req != MPI_REQUEST_NULL)
    state().ti_persistent[*req] = State::TiPersistent{send, peer, tag, count, type, comm};
}
#define HAEC_PERSISTENT_SEND(name)                                                                                     \
  int MPI_##name(const void* buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm, MPI_Request* req)     \
  {                                                                                                                    \
    HAEC_NEXT(MPI_##name);                                                                                             \
    HAEC_CALL(name);                                                                                                   \
    int me = haec_call.rank;                                                                                           \
    int rc = next(buf, count, type, dst, tag, comm, req);                                                              \
    if (rc == MPI_SUCCESS && req != nullptr) {                                                                         \
      remember(*req, me, comm, dst, count, type);                                                                      \
      ti_remember(req, true, dst, tag, count, type, comm);                                                             \
    }                                                                                                                  \
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

// A sendrecv is written as isend, recv, wait (with the real tags; SimGrid's sendRecv action
// uses tag 0 for both halves): the same requests and completion as SMPI's own sendrecv.
static void ti_sendrecv(int me, int dst, int sendtag, int sendcount, MPI_Datatype sendtype, int src, int /*recvtag: the status has it*/,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const MPI_Status* status)
{
  const int wd = to_world(comm, dst);
  if (wd >= 0) {
    double c = sendcount;
    int id   = ti_type(sendtype, c);
    ti()->send(me, false, wd, sendtag, c, id, ~0ULL);
  }
  if (src != MPI_PROC_NULL && status != nullptr) {
    double c = recvcount;
    int id   = ti_type(recvtype, c);
    ti()->recv(me, to_world(comm, status->MPI_SOURCE), status->MPI_TAG, c, id);
  }
  if (wd >= 0)
    ti()->complete(me, ~0ULL, 0, 0);
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dst, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int src, int recvtag, MPI_Comm comm, MPI_Status* status)
{
  HAEC_NEXT(MPI_Sendrecv);
  HAEC_CALL(Sendrecv);
  report(haec_call.rank, comm, dst, sendcount, sendtype);
  TiScope ti_scope(haec_call.rank, false);
  MPI_Status local;
  MPI_Status* st = ti_scope && status == MPI_STATUS_IGNORE ? &local : status;
  int rc = next(sendbuf, sendcount, sendtype, dst, sendtag, recvbuf, recvcount, recvtype, src, recvtag, comm, st);
  if (ti_scope && rc == MPI_SUCCESS) {
    ti_scope.done();
    ti_sendrecv(haec_call.rank, dst, sendtag, sendcount, sendtype, src, recvtag, recvcount, recvtype, comm, st);
  }
  return rc;
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dst, int sendtag, int src, int recvtag,
                         MPI_Comm comm, MPI_Status* status)
{
  HAEC_NEXT(MPI_Sendrecv_replace);
  HAEC_CALL(Sendrecv_replace);
  report(haec_call.rank, comm, dst, count, type);
  TiScope ti_scope(haec_call.rank, false);
  MPI_Status local;
  MPI_Status* st = ti_scope && status == MPI_STATUS_IGNORE ? &local : status;
  int rc = next(buf, count, type, dst, sendtag, src, recvtag, comm, st);
  if (ti_scope && rc == MPI_SUCCESS) {
    ti_scope.done();
    ti_sendrecv(haec_call.rank, dst, sendtag, count, type, src, recvtag, count, type, comm, st);
  }
  return rc;
}

static void ti_started(int rank, MPI_Request req)
{
  State& s = state();
  auto it  = s.ti_persistent.find(req);
  if (it == s.ti_persistent.end())
    return;
  const State::TiPersistent& p = it->second;
  if (p.send)
    ti_isend(rank, req, p.comm, p.peer, p.tag, p.count, p.type);
  else
    ti_irecv(rank, req, p.comm, p.peer, p.tag, p.count, p.type);
}

int MPI_Start(MPI_Request* request)
{
  HAEC_NEXT(MPI_Start);
  HAEC_CALL(Start);
  if (request != nullptr)
    started(*request);
  TiScope ti_scope(haec_call.rank, false);
  int rc = next(request);
  if (ti_scope && rc == MPI_SUCCESS && request != nullptr) {
    ti_scope.done();
    ti_started(haec_call.rank, *request);
  }
  return rc;
}

int MPI_Startall(int count, MPI_Request* requests)
{
  HAEC_NEXT(MPI_Startall);
  HAEC_CALL(Startall);
  for (int i = 0; requests != nullptr && i < count; ++i)
    started(requests[i]);
  TiScope ti_scope(haec_call.rank, false);
  int rc = next(count, requests);
  if (ti_scope && rc == MPI_SUCCESS && requests != nullptr) {
    ti_scope.done();
    for (int i = 0; i < count; ++i)
      ti_started(haec_call.rank, requests[i]);
  }
  return rc;
}

int MPI_Request_free(MPI_Request* request)
{
  HAEC_NEXT(MPI_Request_free);
  HAEC_CALL(Request_free);
  if (request != nullptr) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mu);
    s.persistent.erase(*request);
    if (s.ti != nullptr) {
      s.ti->forget(haec_call.rank, ti_key(*request));
      s.ti_persistent.erase(*request);
      s.ti_recv_comm.erase(*request);
    }
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
// HAEC_RECORDED(name, timed, (params), (args), record): as HAEC_COUNTED; when recording a TI
// trace, runs `record` (with `me`, the caller's world rank) after a successful call.
#define HAEC_RECORDED(name, timed, params, args, record)                                                               \
  int MPI_##name params                                                                                                \
  {                                                                                                                    \
    HAEC_NEXT(MPI_##name);                                                                                             \
    HAEC_CALL(name);                                                                                                   \
    TiScope ti_scope(haec_call.rank, timed);                                                                           \
    int rc = next args;                                                                                                \
    if (ti_scope && rc == MPI_SUCCESS) {                                                                               \
      ti_scope.done();                                                                                                 \
      const int me = haec_call.rank;                                                                                   \
      record;                                                                                                          \
    }                                                                                                                  \
    return rc;                                                                                                         \
  }

int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Request* req)
{
  HAEC_NEXT(MPI_Recv_init);
  HAEC_CALL(Recv_init);
  int rc = next(buf, count, type, src, tag, comm, req);
  if (rc == MPI_SUCCESS)
    ti_remember(req, false, src, tag, count, type, comm);
  return rc;
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Status* status)
{
  HAEC_NEXT(MPI_Recv);
  HAEC_CALL(Recv);
  TiScope ti_scope(haec_call.rank, false);
  MPI_Status local;
  MPI_Status* st = ti_scope && status == MPI_STATUS_IGNORE ? &local : status;
  int rc = next(buf, count, type, src, tag, comm, st);
  if (ti_scope && rc == MPI_SUCCESS && src != MPI_PROC_NULL) {
    ti_scope.done();
    double c = count;
    int id   = ti_type(type, c);
    ti()->recv(haec_call.rank, to_world(comm, st->MPI_SOURCE), st->MPI_TAG, c, id);
  }
  return rc;
}

HAEC_RECORDED(Irecv, false, (void* buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Request* req),
              (buf, count, type, src, tag, comm, req), if (req) ti_irecv(me, *req, comm, src, tag, count, type))
HAEC_RECORDED(Probe, true, (int src, int tag, MPI_Comm comm, MPI_Status* status), (src, tag, comm, status), (void)me)
HAEC_RECORDED(Iprobe, true, (int src, int tag, MPI_Comm comm, int* flag, MPI_Status* status),
              (src, tag, comm, flag, status), (void)me)

// Completion calls. When recording, the requests are copied before the call (SMPI nulls the
// completed ones) and statuses are kept even if the application ignores them: a wildcard
// receive is written with the source its status names.
struct TiRequests {
  std::vector<MPI_Request> before;
  std::vector<MPI_Status> statuses;
  TiRequests(int count, const MPI_Request* reqs)
      : before(reqs != nullptr && count > 0 ? reqs : nullptr, reqs != nullptr && count > 0 ? reqs + count : nullptr),
        statuses(static_cast<size_t>(std::max(count, 1)))
  {
  }
};

int MPI_Wait(MPI_Request* req, MPI_Status* status)
{
  HAEC_NEXT(MPI_Wait);
  HAEC_CALL(Wait);
  TiScope ti_scope(haec_call.rank, false);
  if (!ti_scope)
    return next(req, status);
  MPI_Request before = req ? *req : MPI_REQUEST_NULL;
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc         = next(req, st);
  ti_scope.done();
  if (rc == MPI_SUCCESS)
    ti_complete(haec_call.rank, before, st);
  return rc;
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
  HAEC_NEXT(MPI_Waitall);
  HAEC_CALL(Waitall);
  TiScope ti_scope(haec_call.rank, false);
  if (!ti_scope)
    return next(count, reqs, statuses);
  TiRequests t(count, reqs);
  MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? t.statuses.data() : statuses;
  int rc         = next(count, reqs, st);
  ti_scope.done();
  if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS)
    for (int i = 0; i < count; ++i)
      ti_complete(haec_call.rank, t.before[static_cast<size_t>(i)], &st[i]);
  return rc;
}

int MPI_Waitany(int count, MPI_Request reqs[], int* index, MPI_Status* status)
{
  HAEC_NEXT(MPI_Waitany);
  HAEC_CALL(Waitany);
  TiScope ti_scope(haec_call.rank, false);
  if (!ti_scope)
    return next(count, reqs, index, status);
  TiRequests t(count, reqs);
  MPI_Status* st = status == MPI_STATUS_IGNORE ? t.statuses.data() : status;
  int rc         = next(count, reqs, index, st);
  ti_scope.done();
  if (rc == MPI_SUCCESS && index != nullptr && *index >= 0 && *index < count)
    ti_complete(haec_call.rank, t.before[static_cast<size_t>(*index)], st);
  return rc;
}

int MPI_Waitsome(int incount, MPI_Request reqs[], int* outcount, int* indices, MPI_Status statuses[])
{
  HAEC_NEXT(MPI_Waitsome);
  HAEC_CALL(Waitsome);
  TiScope ti_scope(haec_call.rank, false);
  if (!ti_scope)
    return next(incount, reqs, outcount, indices, statuses);
  TiRequests t(incount, reqs);
  MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? t.statuses.data() : statuses;
  int rc         = next(incount, reqs, outcount, indices, st);
  ti_scope.done();
  if ((rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && outcount != nullptr && *outcount != MPI_UNDEFINED)
    for (int k = 0; k < *outcount; ++k)
      if (indices[k] >= 0 && indices[k] < incount)
        ti_complete(haec_call.rank, t.before[static_cast<size_t>(indices[k])], &st[k]);
  return rc;
}

// HAEC_POLLING: as HAEC_COUNTED, and tells the suite (power plugin) the rank polls during the call.
// When recording, the call's time is written as a sleep, then a wait for each request it completed.
#define HAEC_POLLING(name, params, args, count_expr, completed)                                                        \
  int MPI_##name params                                                                                                \
  {                                                                                                                    \
    HAEC_NEXT(MPI_##name);                                                                                             \
    HAEC_CALL(name);                                                                                                   \
    PollSink poll = state().poll;                                                                                      \
    if (poll)                                                                                                          \
      poll(1);                                                                                                         \
    TiScope ti_scope(haec_call.rank, true);                                                                            \
    std::unique_ptr<TiRequests> t(ti_scope ? new TiRequests count_expr : nullptr);                                    \
    int rc = next args;                                                                                                \
    if (poll)                                                                                                          \
      poll(0);                                                                                                         \
    if (t) {                                                                                                           \
      ti_scope.done();                                                                                                 \
      if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) {                                                              \
        completed;                                                                                                     \
      }                                                                                                                \
    }                                                                                                                  \
    return rc;                                                                                                         \
  }
HAEC_POLLING(Test, (MPI_Request * req, int* flag, MPI_Status* status),
             (req, flag, status == MPI_STATUS_IGNORE && t ? t->statuses.data() : status), (1, req),
             if (*flag) ti_complete(haec_call.rank, t->before[0],
                                    status == MPI_STATUS_IGNORE ? t->statuses.data() : status))
HAEC_POLLING(Testall, (int count, MPI_Request* reqs, int* flag, MPI_Status* statuses),
             (count, reqs, flag, statuses == MPI_STATUSES_IGNORE && t ? t->statuses.data() : statuses), (count, reqs),
             for (int i = 0; i < count; ++i) if (*flag || reqs[i] == MPI_REQUEST_NULL) ti_complete(
                 haec_call.rank, t->before[static_cast<size_t>(i)],
                 statuses == MPI_STATUSES_IGNORE ? &t->statuses[static_cast<size_t>(i)] : &statuses[i]))
HAEC_POLLING(Testany, (int count, MPI_Request reqs[], int* index, int* flag, MPI_Status* status),
             (count, reqs, index, flag, status == MPI_STATUS_IGNORE && t ? t->statuses.data() : status), (count, reqs),
             if (*flag && *index >= 0 && *index < count) ti_complete(
                 haec_call.rank, t->before[static_cast<size_t>(*index)],
                 status == MPI_STATUS_IGNORE ? t->statuses.data() : status))
HAEC_POLLING(Testsome, (int incount, MPI_Request reqs[], int* outcount, int* indices, MPI_Status statuses[]),
             (incount, reqs, outcount, indices, statuses == MPI_STATUSES_IGNORE && t ? t->statuses.data() : statuses),
             (incount, reqs),
             if (*outcount != MPI_UNDEFINED) for (int k = 0; k < *outcount; ++k) if (indices[k] >= 0 &&
                                                                                      indices[k] < incount)
                 ti_complete(haec_call.rank, t->before[static_cast<size_t>(indices[k])],
                             statuses == MPI_STATUSES_IGNORE ? &t->statuses[static_cast<size_t>(k)] : &statuses[k]))

// ---- collectives: SimGrid's TI actions, on MPI_COMM_WORLD only --------------------------------------
#define TI_ON_WORLD(call) if (ti_world(me, comm, call))
HAEC_RECORDED(Barrier, false, (MPI_Comm comm), (comm), TI_ON_WORLD("MPI_Barrier") ti()->action(me, "barrier"))
HAEC_RECORDED(Bcast, false, (void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm),
              (buf, count, type, root, comm), TI_ON_WORLD("MPI_Bcast") ti()->action(me, "bcast " + ti_cn(count, type) + " " + ti_root(comm, root) + " " + ti_type_id(type)))
HAEC_RECORDED(Reduce, false,
              (const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm),
              (sbuf, rbuf, count, type, op, root, comm), TI_ON_WORLD("MPI_Reduce") ti()->action(me, "reduce " + ti_cn(count, type) + " 0 " + ti_root(comm, root) + " " + ti_type_id(type)))
HAEC_RECORDED(Allreduce, false,
              (const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
              (sbuf, rbuf, count, type, op, comm), TI_ON_WORLD("MPI_Allreduce") ti()->action(me, "allreduce " + ti_cn(count, type) + " 0 " + ti_type_id(type)))
HAEC_RECORDED(Gather, false,
              (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
               MPI_Comm comm),
              (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
              TI_ON_WORLD("MPI_Gather") ti()->action(me, "gather " + ti_cn(scount, stype) + " " + ti_cn(rcount, rtype) + " " + ti_root(comm, root) + " " + ti_type_id(stype) + " " + ti_type_id(rtype)))
HAEC_RECORDED(Gatherv, false,
              (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int* rcounts, const int* displs,
               MPI_Datatype rtype, int root, MPI_Comm comm),
              (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm), TI_ON_WORLD("MPI_Gatherv") ti()->action(me, "gatherv " + ti_cn(scount, stype) + " " + ti_counts(rcounts, comm, rtype, to_world(comm, root) == me, nullptr) + " " + ti_root(comm, root) + " " + ti_type_id(stype) + " " + ti_type_id(rtype)))
HAEC_RECORDED(Scatter, false,
              (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
               MPI_Comm comm),
              (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
              TI_ON_WORLD("MPI_Scatter") ti()->action(me, "scatter " + ti_cn(scount, stype) + " " + ti_cn(rcount, rtype) + " " + ti_root(comm, root) + " " + ti_type_id(stype) + " " + ti_type_id(rtype)))
HAEC_RECORDED(Scatterv, false,
              (const void* sbuf, const int* scounts, const int* displs, MPI_Datatype stype, void* rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm),
              (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm), TI_ON_WORLD("MPI_Scatterv") ti()->action(me, "scatterv " + ti_counts(scounts, comm, stype, to_world(comm, root) == me, nullptr) + " " + ti_cn(rcount, rtype) + " " + ti_root(comm, root) + " " + ti_type_id(stype) + " " + ti_type_id(rtype)))
HAEC_RECORDED(Allgather, false,
              (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
               MPI_Comm comm),
              (sbuf, scount, stype, rbuf, rcount, rtype, comm),
              TI_ON_WORLD("MPI_Allgather") ti()->action(me, "allgather " + ti_cn(scount, stype) + " " + ti_cn(rcount, rtype) + " " + ti_type_id(stype) + " " + ti_type_id(rtype)))
HAEC_RECORDED(Allgatherv, false,
              (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int* rcounts, const int* displs,
               MPI_Datatype rtype, MPI_Comm comm),
              (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm), TI_ON_WORLD("MPI_Allgatherv") ti()->action(me, "allgatherv " + ti_cn(scount, stype) + " " + ti_counts(rcounts, comm, rtype, true, nullptr) + " " + ti_type_id(stype) + " " + ti_type_id(rtype)))
HAEC_RECORDED(Alltoall, false,
              (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
               MPI_Comm comm),
              (sbuf, scount, stype, rbuf, rcount, rtype, comm),
              TI_ON_WORLD("MPI_Alltoall") ti()->action(me, "alltoall " + ti_cn(scount, stype) + " " + ti_cn(rcount, rtype) + " " + ti_type_id(stype) + " " + ti_type_id(rtype)))
HAEC_RECORDED(Alltoallv, false,
              (const void* sbuf, const int* scounts, const int* sdispls, MPI_Datatype stype, void* rbuf,
               const int* rcounts, const int* rdispls, MPI_Datatype rtype, MPI_Comm comm),
              (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
              TI_ON_WORLD("MPI_Alltoallv") ti()->action(me, ti_alltoallv(scounts, stype, rcounts, rtype, comm)))
HAEC_RECORDED(Reduce_scatter, false,
              (const void* sbuf, void* rbuf, const int* rcounts, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
              (sbuf, rbuf, rcounts, type, op, comm),
              TI_ON_WORLD("MPI_Reduce_scatter") ti()->action(me, "reducescatter " +
                                                                     ti_counts(rcounts, comm, type, true, nullptr) +
                                                                     " 0 " + ti_type_id(type)))
HAEC_RECORDED(Scan, false, (const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
              (sbuf, rbuf, count, type, op, comm), TI_ON_WORLD("MPI_Scan") ti()->action(me, "scan " + ti_cn(count, type) + " 0 " + ti_type_id(type)))
HAEC_RECORDED(Exscan, false, (const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
              (sbuf, rbuf, count, type, op, comm), TI_ON_WORLD("MPI_Exscan") ti()->action(me, "exscan " + ti_cn(count, type) + " 0 " + ti_type_id(type)))

// ---- non-blocking collectives: our replay actions haec_<op> (core/replay_extra_actions.cpp)
#define TI_NBC(call, op, args)                                                                                         \
  if (req != nullptr && ti_world(me, comm, call))                                                                      \
  ti()->collective_start(me, op, args, ti_key(*req))
HAEC_RECORDED(Ibarrier, false, (MPI_Comm comm, MPI_Request* req), (comm, req), TI_NBC("MPI_Ibarrier", "ibarrier", ""))
HAEC_RECORDED(Ibcast, false, (void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* req),
              (buf, count, type, root, comm, req), TI_NBC("MPI_Ibcast", "ibcast", ti_cn(count, type) + " " + ti_root(comm, root) + " " + ti_type_id(type)))
HAEC_RECORDED(Ireduce, false,
              (const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
               MPI_Request* req),
              (sbuf, rbuf, count, type, op, root, comm, req), TI_NBC("MPI_Ireduce", "ireduce", ti_cn(count, type) + " " + ti_root(comm, root) + " " + ti_type_id(type)))
HAEC_RECORDED(Iallreduce, false,
              (const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* req),
              (sbuf, rbuf, count, type, op, comm, req), TI_NBC("MPI_Iallreduce", "iallreduce", ti_count_type(count, type)))
HAEC_RECORDED(Ialltoall, false,
              (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
               MPI_Comm comm, MPI_Request* req),
              (sbuf, scount, stype, rbuf, rcount, rtype, comm, req),
              TI_NBC("MPI_Ialltoall", "ialltoall", ti_count_type(scount, stype) + " " + ti_count_type(rcount, rtype)))
HAEC_RECORDED(Iallgather, false,
              (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
               MPI_Comm comm, MPI_Request* req),
              (sbuf, scount, stype, rbuf, rcount, rtype, comm, req),
              TI_NBC("MPI_Iallgather", "iallgather", ti_count_type(scount, stype) + " " + ti_count_type(rcount, rtype)))
HAEC_RECORDED(Igather, false,
              (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
               MPI_Comm comm, MPI_Request* req),
              (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req),
              TI_NBC("MPI_Igather", "igather",
                     ti_count_type(scount, stype) + " " + ti_count_type(rcount, rtype) + " " + ti_root(comm, root)))
HAEC_RECORDED(Iscatter, false,
              (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
               MPI_Comm comm, MPI_Request* req),
              (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req),
              TI_NBC("MPI_Iscatter", "iscatter",
                     ti_count_type(scount, stype) + " " + ti_count_type(rcount, rtype) + " " + ti_root(comm, root)))

// ---- one-sided communication: counted; a recorded trace cannot hold it ---------------------------
#define TI_RMA(call) ti()->unsupported(me, call, "one-sided communication (SimGrid 3.32's TI replay has no RMA)")
HAEC_RECORDED(Win_create, false, (void* base, MPI_Aint size, int unit, MPI_Info info, MPI_Comm comm, MPI_Win* win),
              (base, size, unit, info, comm, win), TI_RMA("MPI_Win_create"))
HAEC_RECORDED(Win_allocate, false, (MPI_Aint size, int unit, MPI_Info info, MPI_Comm comm, void* base, MPI_Win* win),
              (size, unit, info, comm, base, win), TI_RMA("MPI_Win_allocate"))
HAEC_RECORDED(Win_free, false, (MPI_Win * win), (win), TI_RMA("MPI_Win_free"))
HAEC_RECORDED(Win_fence, false, (int assert_, MPI_Win win), (assert_, win), TI_RMA("MPI_Win_fence"))
HAEC_RECORDED(Win_lock, false, (int type, int rank, int assert_, MPI_Win win), (type, rank, assert_, win),
              TI_RMA("MPI_Win_lock"))
HAEC_RECORDED(Win_unlock, false, (int rank, MPI_Win win), (rank, win), TI_RMA("MPI_Win_unlock"))
HAEC_RECORDED(Put, false,
              (const void* obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
               MPI_Datatype ttype, MPI_Win win),
              (obuf, ocount, otype, target, disp, tcount, ttype, win), TI_RMA("MPI_Put"))
HAEC_RECORDED(Get, false,
              (void* obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype,
               MPI_Win win),
              (obuf, ocount, otype, target, disp, tcount, ttype, win), TI_RMA("MPI_Get"))
HAEC_RECORDED(Accumulate, false,
              (const void* obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
               MPI_Datatype ttype, MPI_Op op, MPI_Win win),
              (obuf, ocount, otype, target, disp, tcount, ttype, op, win), TI_RMA("MPI_Accumulate"))

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
