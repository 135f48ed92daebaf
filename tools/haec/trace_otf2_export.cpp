// `haec trace export`: a result directory (events.csv, messages.csv, power.csv) as an OTF2
// archive (ranks as locations, MPI regions, messages, per-host power as metrics). The
// format-independent part is haec_trace_model (result_tables); this file only talks to libotf2.
#include "trace_otf2.hpp"

#include "atomic_file.hpp"
#include "input_error.hpp"
#include "otf2_support.hpp"
#include "result_tables.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
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

void write_rank_events(OTF2_EvtWriter* w, const std::vector<trace::RunEvent>& events)
{
  for (auto const& e : events) {
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
}

// Locations: ranks 0..n-1, then one metric location per host. Returns each location's event count.
std::vector<uint64_t> write_events(OTF2_Archive* ar, const trace::RunTrace& t)
{
  ok(OTF2_Archive_OpenEvtFiles(ar), "event files");
  std::vector<uint64_t> counts;
  for (int r = 0; r < t.ranks; ++r) {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(ar, static_cast<OTF2_LocationRef>(r));
    write_rank_events(w, t.by_rank[static_cast<size_t>(r)]);
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
  return counts;
}

// Global definitions, strings numbered in the order they are written.
class Definitions {
public:
  Definitions(OTF2_GlobalDefWriter* d) : d_(d) {}
  uint32_t str(const std::string& s)
  {
    ok(OTF2_GlobalDefWriter_WriteString(d_, next_, s.c_str()), "string");
    return next_++;
  }
  void regions_and_locations(const trace::RunTrace& t, const std::vector<uint64_t>& counts);
  void power_metric();
  void world(int ranks);

private:
  OTF2_GlobalDefWriter* d_;
  uint32_t next_ = 0;
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

void write_otf2(const trace::RunTrace& t, const fs::path& dir)
{
  OTF2_Archive* ar                   = open_archive(dir);
  const std::vector<uint64_t> counts = write_events(ar, t);
  OTF2_GlobalDefWriter* d            = OTF2_Archive_GetGlobalDefWriter(ar);
  ok(OTF2_GlobalDefWriter_WriteClockProperties(d, kTicks, 0, ticks(t.end) + 1, OTF2_UNDEFINED_TIMESTAMP), "clock");
  Definitions defs(d);
  defs.regions_and_locations(t, counts);
  if (!t.hosts.empty())
    defs.power_metric();
  defs.world(t.ranks);
  ok(OTF2_Archive_CloseGlobalDefWriter(ar, d), "close definitions");
  ok(OTF2_Archive_Close(ar), "close archive");
}

} // namespace

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

} // namespace haec::cli
