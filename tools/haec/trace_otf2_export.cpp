// `haec trace export`: a result directory (events.csv, messages.csv, power.csv) as an OTF2
// archive (ranks as locations, MPI regions, messages, per-host power as metrics). The
// format-independent part is haec_trace_model (result_tables); this file only talks to libotf2.
#include "trace_otf2.hpp"

#include "atomic_file.hpp"
#include "input_error.hpp"
#include "otf2_support.hpp"
#include "result_tables.hpp"
#include "ti_attach.hpp"
#include "ti_check.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

namespace fs = std::filesystem;

namespace haec::cli {

void otf2::ok(OTF2_ErrorCode e, const std::string& what)
{
  if (e != OTF2_SUCCESS)
    throw std::runtime_error("OTF2 " + what + ": " + OTF2_Error_GetDescription(e));
}

namespace {

using otf2::ok;

constexpr uint64_t kTicks = 1000000000000ULL; // export timer: picoseconds

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool)
{
  return OTF2_FLUSH;
}
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef)
{
  return 0;
}

OTF2_TimeStamp ticks(double seconds)
{
  return static_cast<OTF2_TimeStamp>(std::llround(seconds * static_cast<double>(kTicks)));
}

OTF2_Archive* open_archive(const fs::path& dir)
{
  OTF2_Error_RegisterCallback(otf2::quiet, nullptr);
  OTF2_Archive* ar = OTF2_Archive_Open(dir.parent_path().c_str(), dir.filename().c_str(), OTF2_FILEMODE_WRITE,
                                       1024 * 1024, 4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (ar == nullptr)
    throw std::runtime_error("cannot create the OTF2 archive in " + dir.string());
  static OTF2_FlushCallbacks flush = {pre_flush, post_flush};
  ok(OTF2_Archive_SetFlushCallbacks(ar, &flush, nullptr), "flush callbacks");
  ok(OTF2_Archive_SetSerialCollectiveCallbacks(ar), "collective callbacks");
  ok(OTF2_Archive_SetCreator(ar, "haec trace export"), "creator");
  return ar;
}

// Strings numbered as first used (events name the TI text of their call), written with the definitions.
class Strings {
public:
  uint32_t id(const std::string& s)
  {
    auto it = ids_.emplace(s, static_cast<uint32_t>(order_.size()));
    if (it.second)
      order_.push_back(s);
    return it.first->second;
  }
  const std::vector<std::string>& all() const { return order_; }

private:
  std::map<std::string, uint32_t> ids_;
  std::vector<std::string> order_;
};

constexpr OTF2_AttributeRef kTiAttribute = 0; // "haec::ti": a call's TI lines (haec trace import reads them)
// Counters of the replayed trace's annotations, as Score-P writes PAPI metrics: one strictly
// synchronous metric class whose members (one per event) are accumulated from the start, written
// on the rank's own location just before every enter and leave, at the same time. Definitions are
// numbered densely (readers warn otherwise): after the hosts' power member and class when there are.
OTF2_MetricRef first_counter_ref(const trace::RunTrace& t)
{
  return t.hosts.empty() ? 0 : 1;
}
constexpr const char* kCounterDescription = "PAPI counter (haec trace record --counters)";

// Each rank's counters accumulated over the computations so far, written before a call's enter and leave.
class CounterMetrics {
public:
  CounterMetrics(size_t events, OTF2_MetricRef metric_class)
      : class_(metric_class), values_(events), types_(events, OTF2_TYPE_UINT64), acc_(events, 0)
  {
  }
  void add(const std::vector<double>& counts)
  {
    for (size_t i = 0; i < counts.size() && i < acc_.size(); ++i)
      acc_[i] += static_cast<uint64_t>(std::llround(counts[i])); // PAPI counts are integers (Score-P: UINT64)
  }
  void write(OTF2_EvtWriter* w, OTF2_TimeStamp ts)
  {
    if (acc_.empty())
      return;
    for (size_t i = 0; i < acc_.size(); ++i)
      values_[i].unsigned_int = acc_[i];
    ok(OTF2_EvtWriter_Metric(w, nullptr, ts, class_, static_cast<uint8_t>(acc_.size()), types_.data(),
                             values_.data()),
       "metric");
  }

private:
  OTF2_MetricRef class_;
  std::vector<OTF2_MetricValue> values_;
  std::vector<OTF2_Type> types_;
  std::vector<uint64_t> acc_;
};

const std::map<std::string, OTF2_CollectiveOp>& collective_ops()
{
  static const std::map<std::string, OTF2_CollectiveOp> ops = {{"BARRIER", OTF2_COLLECTIVE_OP_BARRIER},
      {"ALLREDUCE", OTF2_COLLECTIVE_OP_ALLREDUCE}, {"BCAST", OTF2_COLLECTIVE_OP_BCAST},
      {"REDUCE", OTF2_COLLECTIVE_OP_REDUCE}, {"ALLTOALL", OTF2_COLLECTIVE_OP_ALLTOALL}};
  return ops;
}

void write_enter(OTF2_EvtWriter* w, const trace::RunEvent& e, Strings& strings)
{
  OTF2_AttributeList* attributes = nullptr;
  if (!e.ti.empty()) {
    attributes = OTF2_AttributeList_New();
    ok(OTF2_AttributeList_AddStringRef(attributes, kTiAttribute, strings.id(e.ti)), "attribute");
  }
  const OTF2_ErrorCode code = OTF2_EvtWriter_Enter(w, attributes, ticks(e.time), e.region);
  if (attributes != nullptr)
    OTF2_AttributeList_Delete(attributes);
  ok(code, "enter");
}

// OTF2 references of the one-sided records: each communicator a window lives on (MPI_COMM_WORLD:
// comm 0, group 1; the others from comm 1 and group 2 on), then the post/start groups.
struct RmaRefs {
  std::map<long long, OTF2_CommRef> comm;  // trace communicator -> OTF2 communicator
  OTF2_GroupRef first_sync_group = 2;      // of RunTrace::rma_groups[0]
};

RmaRefs rma_refs(const trace::RunTrace& t)
{
  RmaRefs refs; // numbered in the communicators' order: definitions are written in that order
  std::set<long long> comms = {0};
  for (auto const& [window, comm] : t.rma_windows)
    comms.insert(comm);
  for (long long comm : comms)
    refs.comm.emplace(comm, static_cast<OTF2_CommRef>(refs.comm.size()));
  refs.first_sync_group = static_cast<OTF2_GroupRef>(1 + refs.comm.size());
  return refs;
}

void write_rma(OTF2_EvtWriter* w, const trace::RunEvent& e, OTF2_TimeStamp ts, const RmaRefs& refs)
{
  const auto win    = static_cast<OTF2_RmaWinRef>(e.window);
  const auto remote = e.peer < 0 ? OTF2_UNDEFINED_UINT32 : static_cast<uint32_t>(e.peer);
  const auto lock   = e.tag == 1 ? OTF2_LOCK_SHARED : OTF2_LOCK_EXCLUSIVE;
  const std::string& op = e.op;
  OTF2_ErrorCode c      = OTF2_SUCCESS;
  if (op == "WIN_CREATE")
    c = OTF2_EvtWriter_RmaWinCreate(w, nullptr, ts, win);
  else if (op == "WIN_DESTROY")
    c = OTF2_EvtWriter_RmaWinDestroy(w, nullptr, ts, win);
  else if (op == "COLLECTIVE_BEGIN")
    c = OTF2_EvtWriter_RmaCollectiveBegin(w, nullptr, ts);
  else if (op == "COLLECTIVE_END")
    c = OTF2_EvtWriter_RmaCollectiveEnd(w, nullptr, ts, OTF2_COLLECTIVE_OP_BARRIER,
                                        OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY, win,
                                        OTF2_UNDEFINED_UINT32, 0, 0);
  else if (op == "GROUP_SYNC")
    c = OTF2_EvtWriter_RmaGroupSync(w, nullptr, ts, OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY, win,
                                    refs.first_sync_group + e.tag);
  else if (op == "REQUEST_LOCK")
    c = OTF2_EvtWriter_RmaRequestLock(w, nullptr, ts, win, remote, e.matching, lock);
  else if (op == "ACQUIRE_LOCK")
    c = OTF2_EvtWriter_RmaAcquireLock(w, nullptr, ts, win, remote, e.matching, lock);
  else if (op == "RELEASE_LOCK")
    c = OTF2_EvtWriter_RmaReleaseLock(w, nullptr, ts, win, remote, e.matching);
  else if (op == "SYNC")
    c = OTF2_EvtWriter_RmaSync(w, nullptr, ts, win, remote, OTF2_RMA_SYNC_TYPE_MEMORY);
  else if (op == "PUT")
    c = OTF2_EvtWriter_RmaPut(w, nullptr, ts, win, remote, e.bytes, e.matching);
  else if (op == "GET")
    c = OTF2_EvtWriter_RmaGet(w, nullptr, ts, win, remote, e.received, e.matching);
  else if (op == "ATOMIC")
    c = OTF2_EvtWriter_RmaAtomic(w, nullptr, ts, win, remote, static_cast<OTF2_RmaAtomicType>(e.tag), e.bytes,
                                 e.received, e.matching);
  else if (op == "OP_COMPLETE_BLOCKING")
    c = OTF2_EvtWriter_RmaOpCompleteBlocking(w, nullptr, ts, win, e.matching);
  else if (op == "OP_COMPLETE_NON_BLOCKING")
    c = OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, nullptr, ts, win, e.matching);
  ok(c, "RMA record " + op);
}

void write_rank_events(OTF2_EvtWriter* w, const std::vector<trace::RunEvent>& events, Strings& strings,
                       CounterMetrics metrics, const RmaRefs& rma)
{
  for (auto const& e : events) {
    OTF2_TimeStamp ts = ticks(e.time);
    switch (e.kind) {
    case trace::RunEvent::Enter:
      metrics.add(e.counters);
      metrics.write(w, ts);
      write_enter(w, e, strings);
      break;
    case trace::RunEvent::Leave:
      metrics.write(w, ts);
      ok(OTF2_EvtWriter_Leave(w, nullptr, ts, e.region), "leave");
      break;
    case trace::RunEvent::Send:
      ok(OTF2_EvtWriter_MpiSend(w, nullptr, ts, static_cast<uint32_t>(e.peer), 0, e.tag, e.bytes), "send");
      break;
    case trace::RunEvent::Recv:
      ok(OTF2_EvtWriter_MpiRecv(w, nullptr, ts, static_cast<uint32_t>(e.peer), 0, e.tag, e.bytes), "recv");
      break;
    case trace::RunEvent::Collective:
      ok(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, ts), "collective");
      ok(OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, ts, collective_ops().at(e.op), 0,
                                         e.peer < 0 ? OTF2_UNDEFINED_UINT32 : static_cast<uint32_t>(e.peer), e.bytes,
                                         e.received),
         "collective");
      break;
    case trace::RunEvent::Rma:
      write_rma(w, e, ts, rma);
      break;
    }
  }
}

// Locations: ranks 0..n-1, then one metric location per host. Returns each location's event count.
std::vector<uint64_t> write_events(OTF2_Archive* ar, const trace::RunTrace& t, Strings& strings)
{
  ok(OTF2_Archive_OpenEvtFiles(ar), "event files");
  std::vector<uint64_t> counts;
  for (int r = 0; r < t.ranks; ++r) {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(ar, static_cast<OTF2_LocationRef>(r));
    const auto& events = t.by_rank[static_cast<size_t>(r)];
    write_rank_events(w, events, strings, CounterMetrics(t.counter_events.size(), first_counter_ref(t)), rma_refs(t));
    uint64_t metric_events = 0; // one before each enter and leave
    for (auto const& e : events)
      metric_events += !t.counter_events.empty() && (e.kind == trace::RunEvent::Enter || e.kind == trace::RunEvent::Leave);
    counts.push_back(events.size() + metric_events);
    ok(OTF2_Archive_CloseEvtWriter(ar, w), "close events");
  }
  for (size_t h = 0; h < t.hosts.size(); ++h) {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(ar, static_cast<OTF2_LocationRef>(t.ranks + h));
    OTF2_Type type    = OTF2_TYPE_DOUBLE;
    for (auto const& [time, watts] : t.power[h]) {
      OTF2_MetricValue v;
      v.floating_point = watts;
      ok(OTF2_EvtWriter_Metric(w, nullptr, ticks(time), 0, 1, &type, &v), "metric");
    }
    counts.push_back(t.power[h].size());
    ok(OTF2_Archive_CloseEvtWriter(ar, w), "close events");
  }
  ok(OTF2_Archive_CloseEvtFiles(ar), "close event files");
  // Empty local definition files: readers (otf2-print, Vampir) expect one per location.
  ok(OTF2_Archive_OpenDefFiles(ar), "definition files");
  for (uint64_t loc = 0; loc < counts.size(); ++loc)
    ok(OTF2_Archive_CloseDefWriter(ar, OTF2_Archive_GetDefWriter(ar, loc)), "local definitions");
  ok(OTF2_Archive_CloseDefFiles(ar), "close definition files");
  return counts;
}

// Global definitions, strings numbered in the order they are written.
class Definitions {
public:
  Definitions(OTF2_GlobalDefWriter* d, Strings& strings) : d_(d), strings_(strings) {}
  uint32_t str(const std::string& s) { return strings_.id(s); }
  // Every string the definitions below name, then all of them: readers want strings defined before use.
  void write_strings(const trace::RunTrace& t)
  {
    for (const char* s : {"", "simulated machine", "node", "power", "host power (haec power plugin)", "W",
                          "MPI_COMM_WORLD", "MPI ranks", "haec::ti", kTiDescription})
      str(s);
    for (auto const& region : t.regions)
      str(region);
    for (int r = 0; r < t.ranks; ++r)
      str("rank " + std::to_string(r));
    for (auto const& host : t.hosts)
      str("power " + host);
    for (auto const& event : t.counter_events)
      str(event);
    for (auto const& [window, comm] : t.rma_windows)
      str("window " + std::to_string(window)), str("communicator " + std::to_string(comm));
    if (!t.rma_groups.empty())
      str("post/start group");
    if (!t.counter_events.empty())
      str(kCounterDescription), str("#");
    written_ = strings_.all().size();
    for (size_t i = 0; i < written_; ++i)
      ok(OTF2_GlobalDefWriter_WriteString(d_, static_cast<uint32_t>(i), strings_.all()[i].c_str()), "string");
  }
  void check_strings() const
  {
    if (strings_.all().size() != written_)
      throw std::logic_error("OTF2 export: a definition names a string written after it");
  }
  void ti_attribute()
  {
    ok(OTF2_GlobalDefWriter_WriteAttribute(d_, kTiAttribute, str("haec::ti"), str(kTiDescription), OTF2_TYPE_STRING),
       "attribute");
  }
  void regions_and_locations(const trace::RunTrace& t, const std::vector<uint64_t>& counts);
  void power_metric();
  void counter_metrics(const std::vector<std::string>& events, OTF2_MetricRef first);
  void world(int ranks);
  void windows(const trace::RunTrace& t);

private:
  static constexpr const char* kTiDescription = "TI lines of the replayed trace up to this call (haec trace import)";
  OTF2_GlobalDefWriter* d_;
  Strings& strings_;
  size_t written_ = 0;
  uint32_t empty_ = 0;
};

void Definitions::regions_and_locations(const trace::RunTrace& t, const std::vector<uint64_t>& counts)
{
  empty_                 = str("");
  const uint32_t machine = str("simulated machine"), node = str("node");
  ok(OTF2_GlobalDefWriter_WriteSystemTreeNode(d_, 0, machine, node, OTF2_UNDEFINED_SYSTEM_TREE_NODE), "tree");
  for (size_t i = 0; i < t.regions.size(); ++i) {
    uint32_t name = str(t.regions[i]);
    ok(OTF2_GlobalDefWriter_WriteRegion(d_, static_cast<OTF2_RegionRef>(i), name, name, empty_,
                                        OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, empty_, 0,
                                        0),
       "region");
  }
  for (int r = 0; r < t.ranks; ++r) {
    uint32_t name = str("rank " + std::to_string(r));
    ok(OTF2_GlobalDefWriter_WriteLocationGroup(d_, static_cast<OTF2_LocationGroupRef>(r), name,
                                               OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP),
       "location group");
    ok(OTF2_GlobalDefWriter_WriteLocation(d_, static_cast<OTF2_LocationRef>(r), name, OTF2_LOCATION_TYPE_CPU_THREAD,
                                          counts[static_cast<size_t>(r)], static_cast<OTF2_LocationGroupRef>(r)),
       "location");
  }
  for (size_t h = 0; h < t.hosts.size(); ++h) {
    uint32_t name = str("power " + t.hosts[h]);
    auto id       = static_cast<uint64_t>(t.ranks) + h;
    ok(OTF2_GlobalDefWriter_WriteLocationGroup(d_, id, name, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                               OTF2_UNDEFINED_LOCATION_GROUP),
       "location group");
    ok(OTF2_GlobalDefWriter_WriteLocation(d_, id, name, OTF2_LOCATION_TYPE_METRIC, counts[id], id), "location");
  }
}

void Definitions::power_metric()
{
  uint32_t power = str("power"), desc = str("host power (haec power plugin)"), watt = str("W");
  ok(OTF2_GlobalDefWriter_WriteMetricMember(d_, 0, power, desc, OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT,
                                            OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0, watt),
     "metric member");
  OTF2_MetricMemberRef member = 0;
  ok(OTF2_GlobalDefWriter_WriteMetricClass(d_, 0, 1, &member, OTF2_METRIC_ASYNCHRONOUS, OTF2_RECORDER_KIND_ABSTRACT),
     "metric class");
}

void Definitions::counter_metrics(const std::vector<std::string>& events, OTF2_MetricRef first)
{
  std::vector<OTF2_MetricMemberRef> members;
  for (size_t i = 0; i < events.size(); ++i) {
    const auto member = static_cast<OTF2_MetricMemberRef>(first + i);
    ok(OTF2_GlobalDefWriter_WriteMetricMember(d_, member, str(events[i]), str(kCounterDescription), OTF2_METRIC_TYPE_PAPI,
                                              OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0,
                                              str("#")),
       "metric member");
    members.push_back(member);
  }
  ok(OTF2_GlobalDefWriter_WriteMetricClass(d_, first, static_cast<uint8_t>(members.size()), members.data(),
                                           OTF2_METRIC_SYNCHRONOUS_STRICT, OTF2_RECORDER_KIND_CPU),
     "metric class");
}

// MPI communicators name ranks of a COMM_LOCATIONS group (rank r = location r).
void Definitions::world(int ranks)
{
  std::vector<uint64_t> members;
  for (int r = 0; r < ranks; ++r)
    members.push_back(static_cast<uint64_t>(r));
  uint32_t world = str("MPI_COMM_WORLD"), locations = str("MPI ranks");
  ok(OTF2_GlobalDefWriter_WriteGroup(d_, 0, locations, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                     OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(members.size()), members.data()),
     "group");
  ok(OTF2_GlobalDefWriter_WriteGroup(d_, 1, world, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                     static_cast<uint32_t>(members.size()), members.data()),
     "group");
  ok(OTF2_GlobalDefWriter_WriteComm(d_, 0, world, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE), "comm");
}

// The one-sided records' windows, their communicators (group = the members' world ranks) and the
// post/start groups (rma_refs' numbering).
void Definitions::windows(const trace::RunTrace& t)
{
  const RmaRefs refs = rma_refs(t);
  for (auto const& [comm, ref] : refs.comm) {
    if (comm == 0)
      continue; // MPI_COMM_WORLD: world()
    const auto found = t.comms.find(comm);
    std::vector<uint64_t> members;
    if (found != t.comms.end())
      for (int r : found->second)
        members.push_back(static_cast<uint64_t>(r));
    const uint32_t name = str("communicator " + std::to_string(comm));
    ok(OTF2_GlobalDefWriter_WriteGroup(d_, 1 + ref, name, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                       OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(members.size()), members.data()),
       "group");
    ok(OTF2_GlobalDefWriter_WriteComm(d_, ref, name, 1 + ref, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE), "comm");
  }
  for (size_t i = 0; i < t.rma_groups.size(); ++i) {
    std::vector<uint64_t> members(t.rma_groups[i].begin(), t.rma_groups[i].end());
    ok(OTF2_GlobalDefWriter_WriteGroup(d_, refs.first_sync_group + static_cast<OTF2_GroupRef>(i), str("post/start group"),
                                       OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                       static_cast<uint32_t>(members.size()), members.data()),
       "group");
  }
  for (auto const& [window, comm] : t.rma_windows)
    ok(OTF2_GlobalDefWriter_WriteRmaWin(d_, static_cast<OTF2_RmaWinRef>(window), str("window " + std::to_string(window)),
                                        refs.comm.at(comm), OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS),
       "RMA window");
}

void write_otf2(const trace::RunTrace& t, const fs::path& dir)
{
  OTF2_Archive* ar = open_archive(dir);
  Strings strings;
  const std::vector<uint64_t> counts = write_events(ar, t, strings);
  OTF2_GlobalDefWriter* d            = OTF2_Archive_GetGlobalDefWriter(ar);
  ok(OTF2_GlobalDefWriter_WriteClockProperties(d, kTicks, 0, ticks(t.end) + 1, OTF2_UNDEFINED_TIMESTAMP), "clock");
  Definitions defs(d, strings);
  defs.write_strings(t);
  defs.regions_and_locations(t, counts);
  if (!t.hosts.empty())
    defs.power_metric();
  if (!t.counter_events.empty())
    defs.counter_metrics(t.counter_events, first_counter_ref(t));
  defs.world(t.ranks);
  defs.windows(t);
  if (t.carries_ti)
    defs.ti_attribute();
  defs.check_strings();
  ok(OTF2_Archive_CloseGlobalDefWriter(ar, d), "close definitions");
  ok(OTF2_Archive_Close(ar), "close archive");
}

// The list file a replay replayed: the argument of -replay in the run's command.txt, "" for an emulation.
std::string replayed_trace(const fs::path& dir)
{
  const fs::path command = dir / "command.txt";
  if (!fs::exists(command))
    return "";
  const std::string text = read_file(command.string(), "command.txt");
  const size_t at        = text.find(" -replay ");
  if (at == std::string::npos)
    return "";
  std::string path = text.substr(at + 9); // the trace, then our replayer and the rest of the line
  if (!path.empty() && path[0] == '\'')  // shell-quoted by haec run
    return path.substr(1, path.find('\'', 1) - 1);
  return path.substr(0, path.find_first_of(" \n"));
}

// A replay's trace, joined to its events: every call carries its TI lines, so nothing is lost.
void attach_replayed_trace(trace::RunTrace& t, const fs::path& dir, const std::string& trace_arg)
{
  const std::string list = trace_arg.empty() ? replayed_trace(dir) : trace_arg;
  if (list.empty())
    return;
  if (!fs::is_regular_file(list))
    throw InputError(trace_arg.empty() ? (dir / "command.txt").string() : "--trace " + trace_arg,
                     "the replayed trace " + list + " is not there", "name the trace this run replayed: --trace TRACE");
  std::vector<std::string> files = trace::ti_rank_files(list), texts;
  for (auto const& f : files)
    texts.push_back(read_file(f, "TI trace"));
  trace::attach_ti_trace(t, texts, files);
}

} // namespace

int export_run(const std::string& result_dir, const std::string& out, const std::string& trace_arg)
{
  const fs::path dir(result_dir);
  const fs::path events = dir / "events.csv";
  if (!fs::exists(events))
    throw InputError(result_dir, "has no events.csv", "run it with haec run --events (and --messages, --power-series)");
  auto opt = [](const fs::path& p) { return fs::exists(p) ? read_file(p.string(), p.filename().string()) : std::string(); };
  trace::RunTrace t = trace::build_run_trace(read_file(events.string(), "events.csv"), events.string(),
                                             opt(dir / "messages.csv"), (dir / "messages.csv").string(),
                                             opt(dir / "power.csv"), (dir / "power.csv").string());
  const fs::path target = fs::absolute(out);
  if (fs::exists(target))
    throw InputError("--out " + out, "already exists", "choose another directory");
  attach_replayed_trace(t, dir, trace_arg);
  if (t.skipped_messages)
    throw InputError((dir / "messages.csv").string(),
                     std::to_string(t.skipped_messages) + " messages have no rank (ranks share a node) and cannot be exported",
                     "export a replay of the recorded trace (haec trace record, haec run --replay TRACE --events)");
  const fs::path stage = target.string() + ".tmp-" + std::to_string(::getpid());
  std::error_code ec;
  fs::remove_all(stage, ec);
  fs::create_directories(stage);
  try {
    write_otf2(t, stage / "traces");
    fs::rename(stage, target);
  } catch (...) {
    fs::remove_all(stage, ec);
    throw;
  }
  std::printf("%-22s %s/traces.otf2 (%d ranks, %zu regions, %llu messages, %zu power series)\n", "OTF2 archive",
              out.c_str(), t.ranks, t.regions.size(), static_cast<unsigned long long>(t.messages), t.hosts.size());
  if (!t.counter_events.empty())
    std::printf("%-22s %zu PAPI metrics before every call's enter and leave (accumulated, as Score-P writes them)\n",
                "counters", t.counter_events.size());
  std::printf("%-22s %s\n", "calls",
              t.carries_ti ? "each with its TI lines (haec trace import replays it exactly); MPI records from the trace"
                           : "regions only: an emulation, haec trace import refuses it (export a replay)");
  return 0;
}

} // namespace haec::cli
