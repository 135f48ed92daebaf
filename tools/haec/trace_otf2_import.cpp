// `haec trace import`: an OTF2 archive (e.g. Score-P) as a SimGrid TI trace. The
// format-independent part is haec_trace_model (ti_builder); this file only talks to libotf2.
#include "trace_otf2.hpp"

#include "atomic_file.hpp"
#include "input_error.hpp"
#include "otf2_support.hpp"
#include "ti_builder.hpp"
#include "ti_check.hpp"
#include "units.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>

namespace fs = std::filesystem;

namespace haec::cli {
namespace {

struct Import {
  std::map<uint32_t, std::string> strings;
  std::map<uint32_t, std::string> regions;          // region -> name
  std::map<uint64_t, uint64_t> location_group;      // location -> group
  std::map<uint64_t, int> rank_of_group;            // process groups with a CPU thread, in id order
  std::map<uint64_t, bool> process_groups;          // every process group (power metrics have theirs)
  bool exact = false;                                // calls carry their TI lines (haec trace export)
  OTF2_AttributeRef ti_attribute = 0;
  std::map<uint32_t, uint32_t> comm_group;          // comm -> group
  std::map<uint32_t, uint32_t> group_size;
  std::map<uint32_t, std::string> comm_name;
  uint64_t resolution = 1, offset = 0;
  // Counters (Score-P's PAPI metrics): the accumulated members of the strictly synchronous metric class.
  struct Member {
    std::string name;
    bool accumulated = false;
  };
  std::map<uint32_t, Member> metric_members;
  std::map<uint32_t, std::vector<uint32_t>> metric_classes; // synchronous classes: their members
  uint32_t counter_class = OTF2_UNDEFINED_UINT32;
  std::vector<size_t> counter_positions; // which of the class's values are counters
  std::vector<std::string> counter_names;
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

// A call exported by haec trace export: its TI lines (computations, then the call), verbatim.
void enter_exact(Import* im, OTF2_LocationRef loc, OTF2_AttributeList* attributes)
{
  OTF2_StringRef text = 0;
  if (attributes == nullptr || OTF2_AttributeList_GetStringRef(attributes, im->ti_attribute, &text) != OTF2_SUCCESS)
    throw InputError(im->anchor + ": event " + std::to_string(im->events), "a call without its haec::ti attribute",
                     "the archive is corrupt; export it again");
  const std::string& lines = im->strings[text];
  for (size_t at = 0; at <= lines.size();) {
    size_t end = std::min(lines.find('\n', at), lines.size());
    im->ti->verbatim(rank(im, loc), lines.substr(at, end - at));
    at = end + 1;
  }
}

// An archive of haec trace export: each call's TI lines ride on its enter event, nothing else is read.
OTF2_CallbackCode on_enter_exact(OTF2_LocationRef loc, OTF2_TimeStamp, void* data, OTF2_AttributeList* a, OTF2_RegionRef)
{
  GUARD(enter_exact(me(data), loc, a))
}

// Any other archive (e.g. Score-P): regions give the computations, MPI events give the calls.
OTF2_CallbackCode on_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, void* data, OTF2_AttributeList*, OTF2_RegionRef reg)
{
  GUARD(me(data)->ti->where = me(data)->anchor + ": event " + std::to_string(me(data)->events);
        me(data)->ti->enter(rank(me(data), loc), secs(me(data), t), me(data)->regions[reg]))
}
// Counter values read before an enter or leave (the class's other members are not counters).
void metric(Import* im, OTF2_LocationRef loc, OTF2_TimeStamp t, uint8_t n, const OTF2_Type* types,
            const OTF2_MetricValue* values)
{
  std::vector<double> v;
  for (size_t i : im->counter_positions) {
    if (i >= n)
      throw InputError(im->anchor + ": event " + std::to_string(im->events), "a counter metric event with too few values",
                       "the trace is corrupt");
    v.push_back(types[i] == OTF2_TYPE_DOUBLE  ? values[i].floating_point
                : types[i] == OTF2_TYPE_INT64 ? static_cast<double>(values[i].signed_int)
                                              : static_cast<double>(values[i].unsigned_int));
  }
  im->ti->counter_values(rank(im, loc), secs(im, t), v);
}
OTF2_CallbackCode on_metric(OTF2_LocationRef loc, OTF2_TimeStamp t, void* data, OTF2_AttributeList*, OTF2_MetricRef ref,
                            uint8_t n, const OTF2_Type* types, const OTF2_MetricValue* values)
{
  GUARD(if (ref == me(data)->counter_class && me(data)->rank_of_location.count(loc)) metric(me(data), loc, t, n, types, values))
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
  if (type == OTF2_LOCATION_GROUP_TYPE_PROCESS)
    me(data)->process_groups[self] = true;
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
OTF2_CallbackCode def_attribute(void* data, OTF2_AttributeRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_Type type)
{
  if (me(data)->strings[name] == "haec::ti" && type == OTF2_TYPE_STRING) {
    me(data)->exact        = true;
    me(data)->ti_attribute = self;
  }
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode def_metric_member(void* data, OTF2_MetricMemberRef self, OTF2_StringRef name, OTF2_StringRef,
                                    OTF2_MetricType, OTF2_MetricMode mode, OTF2_Type, OTF2_Base, int64_t, OTF2_StringRef)
{
  me(data)->metric_members[self] = {me(data)->strings[name], mode == OTF2_METRIC_ACCUMULATED_START};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode def_metric_class(void* data, OTF2_MetricRef self, uint8_t n, const OTF2_MetricMemberRef* members,
                                   OTF2_MetricOccurrence occurrence, OTF2_RecorderKind)
{
  if (occurrence != OTF2_METRIC_ASYNCHRONOUS) // Score-P's PAPI metrics: strictly synchronous
    me(data)->metric_classes[self].assign(members, members + n);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode def_comm(void* data, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group, OTF2_CommRef,
                           OTF2_CommFlag)
{
  me(data)->comm_group[self] = group;
  me(data)->comm_name[self]  = me(data)->strings[name];
  return OTF2_CALLBACK_SUCCESS;
}


// Fails with one line: a callback's own error first, else libotf2's.
void check(OTF2_ErrorCode e, const Import& im, const std::string& what)
{
  if (pending_error) {
    auto p        = pending_error;
    pending_error = nullptr;
    std::rethrow_exception(p);
  }
  if (e != OTF2_SUCCESS)
    throw InputError(im.anchor + (im.events ? ": event " + std::to_string(im.events) : std::string()),
                     what + ": " + OTF2_Error_GetDescription(e), "the trace is truncated or corrupt");
}

// Strings, clock, regions, processes and communicators; ranks are the process groups in id order.
void read_definitions(OTF2_Reader* rd, Import& im)
{
  OTF2_GlobalDefReader* gdr = OTF2_Reader_GetGlobalDefReader(rd);
  if (gdr == nullptr)
    throw InputError(im.anchor, "has no global definitions", "the trace is truncated or corrupt");
  OTF2_GlobalDefReaderCallbacks* dc = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(dc, def_string);
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(dc, def_clock);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(dc, def_region);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(dc, def_lgroup);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dc, def_location);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dc, def_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(dc, def_comm);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(dc, def_attribute);
  OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(dc, def_metric_member);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(dc, def_metric_class);
  check(OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, dc, &im), im, "definitions");
  OTF2_GlobalDefReaderCallbacks_Delete(dc);
  uint64_t n = 0;
  check(OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n), im, "definitions");
  // Ranks: the process groups holding a CPU thread (a metric location's group is no rank), in id order.
  for (auto const& [group, yes] : im.process_groups)
    for (auto const& [loc, g] : im.location_group)
      if (g == group && !im.rank_of_group.count(group))
        im.rank_of_group[group] = static_cast<int>(im.rank_of_group.size());
  for (auto const& [loc, group] : im.location_group)
    if (im.rank_of_group.count(group) && !im.rank_of_location.count(loc))
      im.rank_of_location[loc] = im.rank_of_group[group];
  if (im.rank_of_location.empty())
    throw InputError(im.anchor, "defines no MPI process location", "the trace is truncated or corrupt");
}

// The synchronous metric class with accumulated members (PAPI counters as Score-P writes them), if any.
void find_counters(Import& im)
{
  for (auto const& [ref, members] : im.metric_classes) {
    std::vector<size_t> positions;
    std::vector<std::string> names;
    for (size_t i = 0; i < members.size(); ++i)
      if (im.metric_members[members[i]].accumulated)
        positions.push_back(i), names.push_back(im.metric_members[members[i]].name);
    if (positions.empty())
      continue;
    if (im.counter_class != OTF2_UNDEFINED_UINT32)
      throw InputError(im.anchor, "has several synchronous metric classes with counters",
                       "import archives with one (Score-P writes its PAPI metrics as one class)");
    im.counter_class     = ref;
    im.counter_positions = positions;
    im.counter_names     = names;
  }
}

// Our export of an emulation has regions and network transfers, not MPI calls: no trace in it.
void refuse_emulation_export(OTF2_Reader* rd, const Import& im)
{
  char* creator = nullptr;
  if (OTF2_Reader_GetCreator(rd, &creator) != OTF2_SUCCESS || creator == nullptr)
    return;
  const bool ours = std::string(creator) == "haec trace export";
  free(creator);
  if (ours && !im.exact)
    throw InputError(im.anchor, "was exported from an emulation (regions and network transfers, not the MPI calls)",
                     "export a replay: haec trace record, haec run --replay TRACE --events, haec trace export");
}

// Every process location's event reader (and its local definitions, when there are some).
void open_locations(OTF2_Reader* rd, const Import& im)
{
  for (auto const& [loc, r] : im.rank_of_location)
    OTF2_Reader_SelectLocation(rd, loc);
  const bool defs = OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS;
  check(OTF2_Reader_OpenEvtFiles(rd), im, "event files");
  for (auto const& [loc, r] : im.rank_of_location) {
    // Local definitions are optional (Score-P writes them, our export does not); libotf2 reports
    // a missing file loudly, so look first.
    const fs::path local = fs::path(im.anchor).replace_extension("") / (std::to_string(loc) + ".def");
    if (defs && fs::exists(local))
      if (OTF2_DefReader* dr = OTF2_Reader_GetDefReader(rd, loc)) {
        uint64_t k = 0;
        OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &k);
        OTF2_Reader_CloseDefReader(rd, dr);
      }
    if (OTF2_Reader_GetEvtReader(rd, loc) == nullptr)
      throw InputError(im.anchor, "no events for location " + std::to_string(loc), "the trace is truncated or corrupt");
  }
  if (defs)
    OTF2_Reader_CloseDefFiles(rd);
}

// One-sided records of another tool's archive: OTF2 has no displacements nor window sizes, which
// the replay's windows need (our own export carries its calls' TI lines and imports exactly).
void refuse_rma(Import* im)
{
  throw InputError(im->anchor + ": event " + std::to_string(im->events),
                   "one-sided communication (OTF2 RMA records) cannot be imported from an archive haec did not "
                   "export: OTF2 keeps no window sizes or displacements",
                   "record the program with haec trace record (haec cc, haec fc) instead");
}
OTF2_CallbackCode on_rma_window(OTF2_LocationRef, OTF2_TimeStamp, void* data, OTF2_AttributeList*, OTF2_RmaWinRef)
{
  GUARD(refuse_rma(me(data)))
}
OTF2_CallbackCode on_rma_transfer(OTF2_LocationRef, OTF2_TimeStamp, void* data, OTF2_AttributeList*, OTF2_RmaWinRef,
                                  uint32_t, uint64_t, uint64_t)
{
  GUARD(refuse_rma(me(data)))
}

void register_mpi_callbacks(OTF2_GlobalEvtReaderCallbacks* ec)
{
  OTF2_GlobalEvtReaderCallbacks_SetRmaWinCreateCallback(ec, on_rma_window);
  OTF2_GlobalEvtReaderCallbacks_SetRmaPutCallback(ec, on_rma_transfer);
  OTF2_GlobalEvtReaderCallbacks_SetRmaGetCallback(ec, on_rma_transfer);
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(ec, on_enter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ec, on_leave);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(ec, on_send);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(ec, on_isend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(ec, on_isend_done);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(ec, on_irecv_req);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(ec, on_recv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(ec, on_irecv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(ec, on_coll_end);
  OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(ec, on_metric);
}

// Every event in time order, into the TI builder.
void read_events(OTF2_Reader* rd, Import& im)
{
  OTF2_GlobalEvtReader* ger         = OTF2_Reader_GetGlobalEvtReader(rd);
  OTF2_GlobalEvtReaderCallbacks* ec = OTF2_GlobalEvtReaderCallbacks_New();
  if (im.exact)
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(ec, on_enter_exact);
  else
    register_mpi_callbacks(ec);
  check(OTF2_Reader_RegisterGlobalEvtCallbacks(rd, ger, ec, &im), im, "event callbacks");
  OTF2_GlobalEvtReaderCallbacks_Delete(ec);
  uint64_t n = 0;
  const OTF2_ErrorCode read = OTF2_Reader_ReadAllGlobalEvents(rd, ger, &n);
  // Closed before an interrupted read's error is thrown: libotf2 frees the readers' buffers only here.
  const OTF2_ErrorCode closed = OTF2_Reader_CloseGlobalEvtReader(rd, ger);
  OTF2_Reader_CloseEvtFiles(rd);
  check(read, im, "events");
  check(closed, im, "events");
}

// Rank files staged, checked, moved into place; the list last.
void write_ti(const trace::TiBuilder& ti, const fs::path& list, const fs::path& files)
{
  const int ranks      = ti.ranks();
  const fs::path stage = list.string() + ".tmp-" + std::to_string(::getpid());
  std::error_code errc;
  fs::remove_all(stage, errc);
  fs::create_directories(stage);
  try {
    std::string list_text;
    for (int r = 0; r < ranks; ++r) {
      const std::string name = "rank-" + std::to_string(r) + ".txt";
      const std::string text = ti.text(r);
      trace::check_ti_rank_text(text, (files / name).string(), r, ranks);
      write_file_atomic((stage / name).string(), text);
      list_text += (files.filename() / name).string() + "\n"; // relative to the list: the trace can be moved
    }
    fs::create_directories(list.parent_path());
    fs::rename(stage, files);
    write_file_atomic(list.string(), list_text);
  } catch (...) {
    fs::remove_all(stage, errc);
    throw;
  }
}

} // namespace

int import_otf2(const std::string& anchor, const std::string& out, const std::string& speed_text)
{
  const double speed = units::parse_speed(speed_text, "--host-speed");
  if (!(speed > 0))
    throw InputError("--host-speed " + speed_text, "is not a positive speed", "give the traced machine's speed, e.g. 1Gf");
  if (!fs::is_regular_file(anchor))
    throw InputError(anchor, "OTF2 anchor file not found", "give the .otf2 file of the archive");
  const fs::path list = fs::absolute(out), files = list.string() + "_files";
  if (fs::exists(list) || fs::exists(files))
    throw InputError("--out " + out, "already exists", "choose another name");
  OTF2_Error_RegisterCallback(otf2::quiet, nullptr);
  Import im;
  im.anchor       = anchor;
  OTF2_Reader* rd = OTF2_Reader_Open(anchor.c_str());
  if (rd == nullptr)
    throw InputError(anchor, "cannot be opened as an OTF2 archive", "give the .otf2 anchor file");
  struct Closer {
    OTF2_Reader* r;
    ~Closer() { OTF2_Reader_Close(r); }
  } closer{rd};
  check(OTF2_Reader_SetSerialCollectiveCallbacks(rd), im, "reader");
  read_definitions(rd, im);
  refuse_emulation_export(rd, im);
  im.ti = std::make_unique<trace::TiBuilder>(static_cast<int>(im.rank_of_group.size()), speed);
  if (!im.exact) { // our export carries the annotations in its TI lines
    find_counters(im);
    if (!im.counter_names.empty())
      im.ti->counter_events(im.counter_names);
  }
  open_locations(rd, im);
  read_events(rd, im);
  write_ti(*im.ti, list, files);
  std::printf("%-22s %s (%d ranks, %llu OTF2 events)\n", "trace", out.c_str(), im.ti->ranks(),
              static_cast<unsigned long long>(im.events));
  if (!im.counter_names.empty())
    std::printf("%-22s %zu accumulated metrics as annotations of every computation\n", "counters",
                im.counter_names.size());
  return 0;
}

} // namespace haec::cli
