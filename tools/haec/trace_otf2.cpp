// OTF2 side of `haec trace`: export a result directory (events.csv, messages.csv, power.csv) as an
// OTF2 archive, and import an OTF2 archive (e.g. Score-P) as a TI trace. The format-independent
// parts are haec_trace_model (result_tables, ti_builder); this file only talks to libotf2.
#include "trace_otf2.hpp"

#include "atomic_file.hpp"
#include "commands.hpp"
#include "input_error.hpp"
#include "result_tables.hpp"
#include "ti_builder.hpp"
#include "ti_check.hpp"
#include "units.hpp"

#include <otf2/otf2.h>

#include <unistd.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace haec::cli {
namespace {

constexpr uint64_t kTicks = 1000000000000ULL; // export timer: picoseconds

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool)
{
  return OTF2_FLUSH;
}
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef)
{
  return 0;
}

// libotf2 prints every internal error on stderr (several lines); ours is one line, from the code.
OTF2_ErrorCode quiet(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char*, va_list)
{
  return code;
}

void ok(OTF2_ErrorCode e, const std::string& what)
{
  if (e != OTF2_SUCCESS)
    throw std::runtime_error("OTF2 " + what + ": " + OTF2_Error_GetDescription(e));
}

OTF2_TimeStamp ticks(double seconds)
{
  return static_cast<OTF2_TimeStamp>(std::llround(seconds * static_cast<double>(kTicks)));
}

void write_otf2(const trace::RunTrace& t, const fs::path& dir)
{
  OTF2_Error_RegisterCallback(quiet, nullptr);
  OTF2_Archive* ar = OTF2_Archive_Open(dir.parent_path().c_str(), dir.filename().c_str(), OTF2_FILEMODE_WRITE,
                                       1024 * 1024, 4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (ar == nullptr)
    throw std::runtime_error("cannot create the OTF2 archive in " + dir.string());
  static OTF2_FlushCallbacks flush = {pre_flush, post_flush};
  ok(OTF2_Archive_SetFlushCallbacks(ar, &flush, nullptr), "flush callbacks");
  ok(OTF2_Archive_SetSerialCollectiveCallbacks(ar), "collective callbacks");
  ok(OTF2_Archive_SetCreator(ar, "haec trace export"), "creator");
  ok(OTF2_Archive_OpenEvtFiles(ar), "event files");
  // Locations: ranks 0..n-1, then one metric location per host.
  std::vector<uint64_t> counts;
  for (int r = 0; r < t.ranks; ++r) {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(ar, static_cast<OTF2_LocationRef>(r));
    for (auto const& e : t.by_rank[static_cast<size_t>(r)]) {
      OTF2_TimeStamp ts = ticks(e.time);
      switch (e.kind) {
      case trace::RunEvent::Enter: ok(OTF2_EvtWriter_Enter(w, nullptr, ts, e.region), "enter"); break;
      case trace::RunEvent::Leave: ok(OTF2_EvtWriter_Leave(w, nullptr, ts, e.region), "leave"); break;
      case trace::RunEvent::Send:
        ok(OTF2_EvtWriter_MpiSend(w, nullptr, ts, static_cast<uint32_t>(e.peer), 0, 0, e.bytes), "send");
        break;
      case trace::RunEvent::Recv:
        ok(OTF2_EvtWriter_MpiRecv(w, nullptr, ts, static_cast<uint32_t>(e.peer), 0, 0, e.bytes), "recv");
        break;
      }
    }
    counts.push_back(t.by_rank[static_cast<size_t>(r)].size());
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

  OTF2_GlobalDefWriter* d = OTF2_Archive_GetGlobalDefWriter(ar);
  ok(OTF2_GlobalDefWriter_WriteClockProperties(d, kTicks, 0, ticks(t.end) + 1, OTF2_UNDEFINED_TIMESTAMP), "clock");
  uint32_t next = 0;
  auto str = [&](const std::string& s) {
    ok(OTF2_GlobalDefWriter_WriteString(d, next, s.c_str()), "string");
    return next++;
  };
  const uint32_t empty = str(""), machine = str("simulated machine"), node = str("node");
  ok(OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, machine, node, OTF2_UNDEFINED_SYSTEM_TREE_NODE), "tree");
  for (size_t i = 0; i < t.regions.size(); ++i) {
    uint32_t name = str(t.regions[i]);
    ok(OTF2_GlobalDefWriter_WriteRegion(d, static_cast<OTF2_RegionRef>(i), name, name, empty, OTF2_REGION_ROLE_FUNCTION,
                                        OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, empty, 0, 0),
       "region");
  }
  for (int r = 0; r < t.ranks; ++r) {
    uint32_t name = str("rank " + std::to_string(r));
    ok(OTF2_GlobalDefWriter_WriteLocationGroup(d, static_cast<OTF2_LocationGroupRef>(r), name,
                                               OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP),
       "location group");
    ok(OTF2_GlobalDefWriter_WriteLocation(d, static_cast<OTF2_LocationRef>(r), name, OTF2_LOCATION_TYPE_CPU_THREAD,
                                          counts[static_cast<size_t>(r)], static_cast<OTF2_LocationGroupRef>(r)),
       "location");
  }
  for (size_t h = 0; h < t.hosts.size(); ++h) {
    uint32_t name = str("power " + t.hosts[h]);
    auto id       = static_cast<uint64_t>(t.ranks) + h;
    ok(OTF2_GlobalDefWriter_WriteLocationGroup(d, id, name, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                               OTF2_UNDEFINED_LOCATION_GROUP),
       "location group");
    ok(OTF2_GlobalDefWriter_WriteLocation(d, id, name, OTF2_LOCATION_TYPE_METRIC, counts[id], id), "location");
  }
  if (!t.hosts.empty()) {
    uint32_t power = str("power"), desc = str("host power (haec power plugin)"), watt = str("W");
    ok(OTF2_GlobalDefWriter_WriteMetricMember(d, 0, power, desc, OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT,
                                              OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0, watt),
       "metric member");
    OTF2_MetricMemberRef member = 0;
    ok(OTF2_GlobalDefWriter_WriteMetricClass(d, 0, 1, &member, OTF2_METRIC_ASYNCHRONOUS, OTF2_RECORDER_KIND_ABSTRACT),
       "metric class");
  }
  std::vector<uint64_t> members;
  for (int r = 0; r < t.ranks; ++r)
    members.push_back(static_cast<uint64_t>(r));
  uint32_t world = str("MPI_COMM_WORLD"), locations = str("MPI ranks");
  // MPI communicators name ranks of a COMM_LOCATIONS group (rank r = location r).
  ok(OTF2_GlobalDefWriter_WriteGroup(d, 0, locations, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                     OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(members.size()), members.data()),
     "group");
  ok(OTF2_GlobalDefWriter_WriteGroup(d, 1, world, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                     static_cast<uint32_t>(members.size()), members.data()),
     "group");
  ok(OTF2_GlobalDefWriter_WriteComm(d, 0, world, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE), "comm");
  ok(OTF2_Archive_CloseGlobalDefWriter(ar, d), "close definitions");
  ok(OTF2_Archive_Close(ar), "close archive");
}

int export_run(const std::string& result_dir, const std::string& out)
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
  if (t.skipped_messages)
    std::printf("%-22s %llu (ranks unknown: several ranks share a node)\n", "messages left out",
                static_cast<unsigned long long>(t.skipped_messages));
  return 0;
}

// ---- import -------------------------------------------------------------------------------
struct Import {
  std::map<uint32_t, std::string> strings;
  std::map<uint32_t, std::string> regions;          // region -> name
  std::map<uint64_t, uint64_t> location_group;      // location -> group
  std::map<uint64_t, int> rank_of_group;            // process groups in id order
  std::map<uint32_t, uint32_t> comm_group;          // comm -> group
  std::map<uint32_t, uint32_t> group_size;
  std::map<uint32_t, std::string> comm_name;
  uint64_t resolution = 1, offset = 0;
  std::unique_ptr<trace::TiBuilder> ti;
  std::map<uint64_t, int> rank_of_location;
  uint64_t events = 0;
  std::string anchor;
};

Import* me(void* p)
{
  return static_cast<Import*>(p);
}

double secs(Import* im, OTF2_TimeStamp t)
{
  return static_cast<double>(t - im->offset) / static_cast<double>(im->resolution);
}

int rank(Import* im, OTF2_LocationRef loc)
{
  auto it = im->rank_of_location.find(loc);
  if (it == im->rank_of_location.end())
    throw InputError(im->anchor + ": event " + std::to_string(im->events), "location " + std::to_string(loc) + " is not defined",
                     "the trace is corrupt");
  return it->second;
}

void world(Import* im, OTF2_CommRef comm)
{
  auto it = im->comm_group.find(comm);
  if (it == im->comm_group.end() || im->group_size[it->second] != static_cast<uint32_t>(im->ti->ranks()))
    throw InputError(im->anchor + ": event " + std::to_string(im->events),
                     "communicator '" + (im->comm_name.count(comm) ? im->comm_name[comm] : std::to_string(comm)) +
                         "' does not span all " + std::to_string(im->ti->ranks()) + " ranks",
                     "TI replay runs every call on MPI_COMM_WORLD; only such traces can be imported");
}

// Exceptions must not cross libotf2's C frames: kept here and rethrown after the read.
std::exception_ptr pending_error;
#define GUARD(body)                                                                                                    \
  try {                                                                                                                \
    me(data)->events++;                                                                                                \
    body;                                                                                                              \
    return OTF2_CALLBACK_SUCCESS;                                                                                      \
  } catch (...) {                                                                                                      \
    pending_error = std::current_exception();                                                                          \
    return OTF2_CALLBACK_INTERRUPT;                                                                                    \
  }

OTF2_CallbackCode on_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, void* data, OTF2_AttributeList*, OTF2_RegionRef reg)
{
  GUARD(me(data)->ti->enter(rank(me(data), loc), secs(me(data), t), me(data)->regions[reg]))
}
OTF2_CallbackCode on_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, void* data, OTF2_AttributeList*, OTF2_RegionRef)
{
  GUARD(me(data)->ti->leave(rank(me(data), loc), secs(me(data), t)))
}
OTF2_CallbackCode on_send(OTF2_LocationRef loc, OTF2_TimeStamp, void* data, OTF2_AttributeList*, uint32_t to,
                          OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
  GUARD(world(me(data), comm); me(data)->ti->send(rank(me(data), loc), static_cast<int>(to), tag, len))
}
OTF2_CallbackCode on_isend(OTF2_LocationRef loc, OTF2_TimeStamp, void* data, OTF2_AttributeList*, uint32_t to,
                           OTF2_CommRef comm, uint32_t tag, uint64_t len, uint64_t req)
{
  GUARD(world(me(data), comm); me(data)->ti->isend(rank(me(data), loc), static_cast<int>(to), tag, len, req))
}
OTF2_CallbackCode on_isend_done(OTF2_LocationRef loc, OTF2_TimeStamp, void* data, OTF2_AttributeList*, uint64_t req)
{
  GUARD(me(data)->ti->request_complete(rank(me(data), loc), req))
}
OTF2_CallbackCode on_irecv_req(OTF2_LocationRef loc, OTF2_TimeStamp, void* data, OTF2_AttributeList*, uint64_t req)
{
  GUARD(me(data)->ti->irecv_request(rank(me(data), loc), req))
}
OTF2_CallbackCode on_recv(OTF2_LocationRef loc, OTF2_TimeStamp, void* data, OTF2_AttributeList*, uint32_t from,
                          OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
  GUARD(world(me(data), comm); me(data)->ti->recv(rank(me(data), loc), static_cast<int>(from), tag, len))
}
OTF2_CallbackCode on_irecv(OTF2_LocationRef loc, OTF2_TimeStamp, void* data, OTF2_AttributeList*, uint32_t from,
                           OTF2_CommRef comm, uint32_t tag, uint64_t len, uint64_t req)
{
  GUARD(world(me(data), comm); me(data)->ti->irecv(rank(me(data), loc), static_cast<int>(from), tag, len, req))
}
OTF2_CallbackCode on_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp, void* data, OTF2_AttributeList*,
                              OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t recv)
{
  static const std::map<int, std::string> names = {
      {OTF2_COLLECTIVE_OP_BARRIER, "BARRIER"},     {OTF2_COLLECTIVE_OP_BCAST, "BCAST"},
      {OTF2_COLLECTIVE_OP_GATHER, "GATHER"},       {OTF2_COLLECTIVE_OP_SCATTER, "SCATTER"},
      {OTF2_COLLECTIVE_OP_ALLGATHER, "ALLGATHER"}, {OTF2_COLLECTIVE_OP_ALLTOALL, "ALLTOALL"},
      {OTF2_COLLECTIVE_OP_REDUCE, "REDUCE"},       {OTF2_COLLECTIVE_OP_ALLREDUCE, "ALLREDUCE"},
      {OTF2_COLLECTIVE_OP_SCAN, "SCAN"},           {OTF2_COLLECTIVE_OP_EXSCAN, "EXSCAN"}};
  GUARD(world(me(data), comm); auto it = names.find(op);
        me(data)->ti->collective(rank(me(data), loc), it == names.end() ? "op " + std::to_string(op) : it->second,
                                 root == OTF2_UNDEFINED_UINT32 ? -1 : static_cast<int>(root), sent, recv))
}

OTF2_CallbackCode def_string(void* data, OTF2_StringRef self, const char* s)
{
  me(data)->strings[self] = s;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode def_clock(void* data, uint64_t res, uint64_t off, uint64_t, uint64_t)
{
  me(data)->resolution = res ? res : 1;
  me(data)->offset     = off;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode def_region(void* data, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                             OTF2_RegionRole, OTF2_Paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t, uint32_t)
{
  me(data)->regions[self] = me(data)->strings[name];
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode def_lgroup(void* data, OTF2_LocationGroupRef self, OTF2_StringRef, OTF2_LocationGroupType type,
                             OTF2_SystemTreeNodeRef, OTF2_LocationGroupRef)
{
  if (type == OTF2_LOCATION_GROUP_TYPE_PROCESS) {
    int n = static_cast<int>(me(data)->rank_of_group.size());
    me(data)->rank_of_group[self] = n;
  }
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode def_location(void* data, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType type, uint64_t,
                               OTF2_LocationGroupRef group)
{
  if (type == OTF2_LOCATION_TYPE_CPU_THREAD)
    me(data)->location_group[self] = group;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode def_group(void* data, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType, OTF2_Paradigm,
                            OTF2_GroupFlag, uint32_t n, const uint64_t*)
{
  me(data)->group_size[self] = n;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode def_comm(void* data, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group, OTF2_CommRef,
                           OTF2_CommFlag)
{
  me(data)->comm_group[self] = group;
  me(data)->comm_name[self]  = me(data)->strings[name];
  return OTF2_CALLBACK_SUCCESS;
}

int import_otf2(const std::string& anchor, const std::string& out, const std::string& speed_text)
{
  const double speed = units::parse_speed(speed_text, "--host-speed");
  if (!fs::is_regular_file(anchor))
    throw InputError(anchor, "OTF2 anchor file not found", "give the .otf2 file of the archive");
  const fs::path list = fs::absolute(out), files = list.string() + "_files";
  if (fs::exists(list) || fs::exists(files))
    throw InputError("--out " + out, "already exists", "choose another name");
  OTF2_Error_RegisterCallback(quiet, nullptr);
  Import im;
  im.anchor      = anchor;
  OTF2_Reader* rd = OTF2_Reader_Open(anchor.c_str());
  if (rd == nullptr)
    throw InputError(anchor, "cannot be opened as an OTF2 archive", "give the .otf2 anchor file");
  struct Closer {
    OTF2_Reader* r;
    ~Closer() { OTF2_Reader_Close(r); }
  } closer{rd};
  auto check = [&](OTF2_ErrorCode e, const std::string& what) {
    if (pending_error) {
      auto p        = pending_error;
      pending_error = nullptr;
      std::rethrow_exception(p);
    }
    if (e != OTF2_SUCCESS)
      throw InputError(anchor + (im.events ? ": event " + std::to_string(im.events) : std::string()),
                       what + ": " + OTF2_Error_GetDescription(e), "the trace is truncated or corrupt");
  };
  check(OTF2_Reader_SetSerialCollectiveCallbacks(rd), "reader");
  OTF2_GlobalDefReader* gdr    = OTF2_Reader_GetGlobalDefReader(rd);
  if (gdr == nullptr)
    throw InputError(anchor, "has no global definitions", "the trace is truncated or corrupt");
  OTF2_GlobalDefReaderCallbacks* dc = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(dc, def_string);
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(dc, def_clock);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(dc, def_region);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(dc, def_lgroup);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dc, def_location);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dc, def_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(dc, def_comm);
  check(OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, dc, &im), "definitions");
  OTF2_GlobalDefReaderCallbacks_Delete(dc);
  uint64_t n = 0;
  check(OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n), "definitions");
  for (auto const& [loc, group] : im.location_group)
    if (im.rank_of_group.count(group) && !im.rank_of_location.count(loc))
      im.rank_of_location[loc] = im.rank_of_group[group];
  if (im.rank_of_location.empty())
    throw InputError(anchor, "defines no MPI process location", "the trace is truncated or corrupt");
  im.ti = std::make_unique<trace::TiBuilder>(static_cast<int>(im.rank_of_group.size()), speed);
  for (auto const& [loc, r] : im.rank_of_location)
    OTF2_Reader_SelectLocation(rd, loc);
  const bool defs = OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS;
  check(OTF2_Reader_OpenEvtFiles(rd), "event files");
  for (auto const& [loc, r] : im.rank_of_location) {
    // Local definitions are optional (Score-P writes them, our export does not); libotf2 reports
    // a missing file loudly, so look first.
    const fs::path local = fs::path(anchor).replace_extension("") / (std::to_string(loc) + ".def");
    if (defs && fs::exists(local))
      if (OTF2_DefReader* dr = OTF2_Reader_GetDefReader(rd, loc)) {
        uint64_t k = 0;
        OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &k);
        OTF2_Reader_CloseDefReader(rd, dr);
      }
    if (OTF2_Reader_GetEvtReader(rd, loc) == nullptr)
      throw InputError(anchor, "no events for location " + std::to_string(loc), "the trace is truncated or corrupt");
  }
  if (defs)
    OTF2_Reader_CloseDefFiles(rd);
  OTF2_GlobalEvtReader* ger      = OTF2_Reader_GetGlobalEvtReader(rd);
  OTF2_GlobalEvtReaderCallbacks* ec = OTF2_GlobalEvtReaderCallbacks_New();
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(ec, on_enter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ec, on_leave);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(ec, on_send);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(ec, on_isend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(ec, on_isend_done);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(ec, on_irecv_req);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(ec, on_recv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(ec, on_irecv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(ec, on_coll_end);
  check(OTF2_Reader_RegisterGlobalEvtCallbacks(rd, ger, ec, &im), "event callbacks");
  OTF2_GlobalEvtReaderCallbacks_Delete(ec);
  check(OTF2_Reader_ReadAllGlobalEvents(rd, ger, &n), "events");
  check(OTF2_Reader_CloseGlobalEvtReader(rd, ger), "events");
  OTF2_Reader_CloseEvtFiles(rd);

  // Write: rank files staged, checked, moved into place; the list last.
  const int ranks = im.ti->ranks();
  const fs::path stage = list.string() + ".tmp-" + std::to_string(::getpid());
  std::error_code errc;
  fs::remove_all(stage, errc);
  fs::create_directories(stage);
  try {
    std::string list_text;
    for (int r = 0; r < ranks; ++r) {
      const std::string name = "rank-" + std::to_string(r) + ".txt";
      const std::string text = im.ti->text(r);
      trace::check_ti_rank_text(text, (files / name).string(), r, ranks);
      write_file_atomic((stage / name).string(), text);
      list_text += (files / name).string() + "\n";
    }
    fs::create_directories(list.parent_path());
    fs::rename(stage, files);
    write_file_atomic(list.string(), list_text);
  } catch (...) {
    fs::remove_all(stage, errc);
    throw;
  }
  std::printf("%-22s %s (%d ranks, %llu OTF2 events)\n", "trace", out.c_str(), ranks,
              static_cast<unsigned long long>(im.events));
  return 0;
}

} // namespace

void add_otf2_commands(CLI::App& trace)
{
  auto ex = std::make_shared<std::pair<std::string, std::string>>();
  auto* e = trace.add_subcommand("export", "Write a result directory (events.csv from haec run --events, messages.csv, "
                                           "power.csv) as an OTF2 archive Vampir opens");
  e->add_option("result_dir", ex->first, "Result directory of haec run --events [--messages] [--power-series]")->required();
  e->add_option("--out", ex->second, "Directory to create; the anchor is OUT/traces.otf2")->required();
  e->callback([ex] { exit_code() = export_run(ex->first, ex->second); });

  struct Im {
    std::string anchor, out, speed = "1Gf";
  };
  auto im = std::make_shared<Im>();
  auto* i = trace.add_subcommand("import", "Convert an OTF2 trace (e.g. Score-P) into a SimGrid TI trace");
  i->add_option("anchor", im->anchor, "The archive's .otf2 anchor file")->required();
  i->add_option("--out", im->out, "TI list file to write; rank files go to OUT_files/")->required();
  i->add_option("--host-speed", im->speed, "Speed that turns time between MPI calls into flops")->capture_default_str();
  i->callback([im] { exit_code() = import_otf2(im->anchor, im->out, im->speed); });
}

} // namespace haec::cli
