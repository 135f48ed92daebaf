#include "placement.hpp"
#include "atomic_file.hpp"
#include "input_error.hpp"
#include "slots.hpp"
#include "units.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <map>
#include <sstream>

namespace haec::cli {
namespace {

// SMPI hostfile: "host" or "host:count" per line; expanded to one rank per entry, cycling when
// -np asks for more ranks than entries (as smpirun does).
std::vector<int> read_hostfile(const ResolvedPlatform& platform, const std::string& path, int ranks)
{
  std::map<std::string, int> index;
  for (size_t i = 0; i < platform.nodes.size(); ++i)
    index[platform.nodes[i].host] = static_cast<int>(i);
  std::istringstream in(read_file(path, "--hostfile"));
  std::vector<int> slots;
  int lineno = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineno;
    auto hash = line.find('#');
    if (hash != std::string::npos)
      line.erase(hash);
    std::istringstream ls(line);
    std::string entry;
    if (!(ls >> entry))
      continue;
    std::string host = entry;
    int count        = 1;
    auto colon       = entry.find(':');
    if (colon != std::string::npos) {
      host  = entry.substr(0, colon);
      count = static_cast<int>(units::parse_integer(entry.substr(colon + 1), path + ":" + std::to_string(lineno)));
    }
    auto it = index.find(host);
    if (it == index.end())
      throw InputError(path + ":" + std::to_string(lineno), "host '" + host + "' is not on platform " + platform.text,
                       "use host names of that platform (`haec platform " + platform.text + " --hosts` lists them)");
    for (int c = 0; c < count; ++c)
      slots.push_back(it->second);
  }
  if (slots.empty())
    throw InputError(path, "hostfile names no host", "write one host name per line");
  std::vector<int> assignment;
  for (int r = 0; r < ranks; ++r)
    assignment.push_back(slots[static_cast<size_t>(r) % slots.size()]);
  return assignment;
}

// A MapLib matrix is named *.size.csv or *.count.csv (read_maplib_matrix needs that name), or starts
// with a number followed by a comma; our traffic_matrix.csv with its header. By the name, a 1x1
// matrix ("0", no comma) is a matrix too, not a trace list naming a file '0'.
bool looks_like_maplib(const std::string& path, const std::string& text)
{
  for (const std::string suffix : {".size.csv", ".count.csv"})
    if (path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0)
      return true;
  const std::string first = text.substr(0, text.find('\n'));
  const size_t comma      = first.find(',');
  if (comma == std::string::npos)
    return false;
  std::string field = first.substr(0, comma);
  field.erase(0, field.find_first_not_of(" \t"));
  field.erase(field.find_last_not_of(" \t\r") + 1);
  if (!field.empty() && field[0] == '-')
    field.erase(0, 1);
  return !field.empty() && field.find_first_not_of("0123456789") == std::string::npos;
}

// The matrix for -np ranks: traffic_matrix.csv and TI traces name the ranks that talk (1 + the
// largest seen), so silent ranks are padded; a MapLib matrix states its size, which must be -np.
mapping::CommMatrix read_padded_matrix(const std::string& path, int ranks)
{
  mapping::CommMatrix m = read_comm_matrix(path);
  const bool sized      = looks_like_maplib(path, read_file(path, "--traffic"));
  if (m.ranks > ranks || (sized && m.ranks != ranks))
    throw InputError("--traffic " + path, "has " + std::to_string(m.ranks) + " ranks but -np is " + std::to_string(ranks),
                     "give the matrix of a run with the same number of ranks");
  if (m.ranks == ranks)
    return m;
  mapping::CommMatrix padded = m;
  padded.ranks               = ranks;
  padded.messages.assign(static_cast<size_t>(ranks) * ranks, 0);
  padded.bytes.assign(padded.messages.size(), 0);
  for (int s = 0; s < m.ranks; ++s)
    for (int d = 0; d < m.ranks; ++d) {
      padded.messages[static_cast<size_t>(s) * ranks + d] = m.msgs(s, d);
      padded.bytes[static_cast<size_t>(s) * ranks + d]    = m.byte_count(s, d);
    }
  return padded;
}

// A campaign places every run in one process, most of them with the same traffic: read it once.
const mapping::CommMatrix& matrix_for(const std::string& path, int ranks)
{
  static std::map<std::pair<std::string, int>, mapping::CommMatrix> read;
  auto it = read.find({path, ranks});
  if (it == read.end())
    it = read.emplace(std::make_pair(path, ranks), read_padded_matrix(path, ranks)).first;
  return it->second;
}

mapping::AutoObjective parse_objective(const std::string& text)
{
  if (text == "time")
    return mapping::AutoObjective::Time;
  if (text == "energy")
    return mapping::AutoObjective::Energy;
  throw InputError("--objective " + text, "unknown objective", "use time or energy");
}

} // namespace

mapping::Target make_target(const ResolvedPlatform& platform)
{
  if (platform.topology)
    return mapping::target_from_topology(*platform.topology);
  if (!platform.has_route_hops())
    return mapping::target_from_nodes(platform.nodes, {}); // hop figures absent
  return mapping::target_from_nodes(platform.nodes, [&platform](int a, int b) { return platform.hops(a, b); });
}

mapping::CommMatrix read_comm_matrix(const std::string& path)
{
  std::string text = read_file(path, "--traffic");
  if (text.rfind("src_rank,dst_rank", 0) == 0)
    return mapping::read_traffic_matrix(path);
  if (looks_like_maplib(path, text))
    return mapping::read_maplib_matrix(path);
  return mapping::read_ti_trace(path);
}

Placement place_ranks(const ResolvedPlatform& platform, const PlacementOptions& opt)
{
  if (opt.ranks <= 0)
    throw InputError("-np " + std::to_string(opt.ranks), "the number of ranks must be positive", "give -np N with N >= 1");
  const mapping::AutoObjective objective = parse_objective(opt.objective);
  Placement p;
  if (!opt.traffic.empty())
    p.matrix = matrix_for(opt.traffic, opt.ranks);
  if (!opt.hostfile.empty()) {
    p.strategy   = "hostfile";
    p.assignment = read_hostfile(platform, opt.hostfile, opt.ranks);
  } else if (!opt.mapping_file.empty()) {
    std::string text = read_file(opt.mapping_file, "--mapping-file");
    p.assignment     = mapping::read_mapping_file(text, opt.mapping_file, platform.nodes);
    p.strategy       = text.substr(0, text.find('\n'));
    if (!p.strategy.empty() && p.strategy.back() == '\r')
      p.strategy.pop_back();
    if (static_cast<int>(p.assignment.size()) != opt.ranks)
      throw InputError("--mapping-file " + opt.mapping_file,
                       "places " + std::to_string(p.assignment.size()) + " ranks but -np is " + std::to_string(opt.ranks),
                       "give -np " + std::to_string(p.assignment.size()) + " or a mapping of " +
                           std::to_string(opt.ranks) + " ranks");
  } else {
    mapping::Request req;
    req.strategy  = mapping::parse_strategy(opt.strategy);
    req.ranks     = opt.ranks;
    req.seed      = opt.seed;
    req.dims      = platform.dims;
    req.objective = objective;
    if (req.strategy == mapping::Strategy::File)
      throw InputError("--map file", "is not a strategy", "give the file with --mapping-file");
    if (mapping::needs_matrix(req.strategy)) {
      if (!p.matrix)
        throw InputError("--map " + opt.strategy, "needs the application's communication matrix",
                         "add --traffic traffic_matrix.csv (from an earlier run), a MapLib *.size.csv or a TI trace");
      req.matrix = &*p.matrix;
    }
    mapping::Target target = make_target(platform);
    const auto start       = std::chrono::steady_clock::now();
    if (mapping::needs_target(req.strategy) && !target.hops)
      throw InputError("--map " + opt.strategy, "needs the route lengths between nodes, not known for an XML platform of " +
                           std::to_string(platform.nodes.size()) + " hosts (over " + std::to_string(kRouteTableHosts) + ")",
                       "use xyz, block-xyz, random or a hostfile, or a generated platform (haec platform)");
    if (mapping::needs_target(req.strategy))
      mapping::attach_hop_table(target);
    if (req.strategy == mapping::Strategy::Auto) {
      mapping::Request r = req;
      r.target           = &target;
      p.auto_report.emplace();
      p.assignment = mapping::map_auto(r, target, &*p.auto_report);
    } else {
      p.assignment = mapping::map_strategy(req, target);
    }
    p.seconds  = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    p.strategy = mapping::strategy_name(req.strategy);
  }
  if (!opt.oversubscribe)
    check_slots(platform, p.assignment);
  return p;
}

std::string metrics_json(const mapping::Metrics& m)
{
  if (!m.has_messages) // sizes only: no message count is known
    return "{}";
  std::ostringstream j;
  j << "{\"ieplc\": " << m.ieplc << ", \"ianlc\": " << m.ianlc << ", \"ienlc\": " << m.ienlc
    << ", \"ienlc_avg\": " << units::exact(m.ienlc_avg) << ", \"ienlc_min\": " << m.ienlc_min
    << ", \"ienlc_max\": " << m.ienlc_max;
  if (m.message_hops)
    j << ", \"message_hops\": " << *m.message_hops;
  j << "}";
  return j.str();
}

std::string metrics_text(const mapping::Metrics& m)
{
  if (!m.has_messages)
    return "message counts unknown (the matrix gives sizes only)";
  std::ostringstream t;
  t << "IePLC " << m.ieplc << "  IaNLC " << m.ianlc << "  IeNLC " << m.ienlc << "  (avg " << m.ienlc_avg << ", min "
    << m.ienlc_min << ", max " << m.ienlc_max << " per communicating node pair)  message hops ";
  if (m.message_hops)
    t << *m.message_hops;
  else
    t << "unknown (no route lengths)";
  return t.str();
}

namespace {

template <typename T>
void put(nlohmann::ordered_json& j, const char* key, const std::optional<T>& v)
{
  if (v)
    j[key] = *v;
}

nlohmann::ordered_json figures(const mapping::MappingMetrics& m)
{
  nlohmann::ordered_json j;
  put(j, "hop_bytes", m.hop_bytes);
  put(j, "avg_dilation", m.avg_dilation);
  put(j, "max_dilation", m.max_dilation);
  put(j, "max_link_load", m.max_link_load);
  put(j, "wireless_share", m.wireless_share);
  put(j, "total_bytes", m.total_bytes);
  if (m.counts.has_messages) {
    const auto& c   = m.counts;
    j["ieplc"]      = c.ieplc;
    j["ianlc"]      = c.ianlc;
    j["ienlc"]      = c.ienlc;
    j["ienlc_avg"]  = c.ienlc_avg;
    j["ienlc_min"]  = c.ienlc_min;
    j["ienlc_max"]  = c.ienlc_max;
    if (c.message_hops)
      j["message_hops"] = *c.message_hops;
  }
  j["nodes_used"]         = m.nodes_used;
  j["max_ranks_per_node"] = m.max_ranks_per_node;
  return j;
}

} // namespace

std::string mapping_metrics_json(const Placement& p, const PlacementOptions& opt, const ResolvedPlatform& platform,
                                 const mapping::MappingMetrics* metrics, const mapping::ModelCosts* costs)
{
  nlohmann::ordered_json j;
  j["strategy"] = p.strategy;
  j["platform"] = platform.text;
  j["ranks"]    = opt.ranks;
  if (p.strategy == "random" || p.strategy == "bokhari" || p.strategy == "scotch" || p.strategy == "auto")
    j["seed"] = opt.seed;
  if (p.matrix) {
    j["traffic"] = opt.traffic;
    j["weight"]  = p.matrix->has_bytes ? "bytes" : "messages";
  }
  if (metrics)
    j["metrics"] = figures(*metrics);
  if (costs) // uncontended DOR model of every message, and the links' dynamic energy
    j["link_model"] = {{"time_s", costs->time_s}, {"energy_j", costs->energy_j}};
  if (p.auto_report) {
    const auto& r = *p.auto_report;
    j["auto"]     = {{"objective", opt.objective},       {"start", r.start},
                     {"start_hop_bytes", r.start_hop_bytes}, {"hop_bytes", r.hop_bytes},
                     {"start_cost", r.start_cost},       {"cost", r.cost},
                     {"passes", r.passes},               {"skipped", r.skipped}};
  }
  return j.dump(2) + "\n";
}

std::string mapping_metrics_text(const mapping::MappingMetrics& m)
{
  std::ostringstream t;
  if (m.hop_bytes)
    t << "hop-bytes " << *m.hop_bytes;
  if (m.avg_dilation)
    t << "  avg dilation " << *m.avg_dilation;
  if (m.max_dilation)
    t << "  max dilation " << *m.max_dilation;
  if (m.max_link_load)
    t << "  max link load " << *m.max_link_load << " B";
  if (m.wireless_share)
    t << "  wireless share " << *m.wireless_share;
  t << "\n" << metrics_text(m.counts);
  return t.str();
}

} // namespace haec::cli
