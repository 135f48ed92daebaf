#include "run_description.hpp"
#include "atomic_file.hpp"
#include "input_error.hpp"
#include "units.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>

namespace haec::core {
namespace {

using json = nlohmann::ordered_json;

// A matrix of `ranks` ranks holding `source`'s cells (smaller matrices are padded with zeros).
mapping::CommMatrix padded(const mapping::CommMatrix& source, int ranks)
{
  mapping::CommMatrix m;
  m.ranks = ranks;
  m.messages.assign(static_cast<size_t>(ranks) * ranks, 0);
  m.bytes.assign(m.messages.size(), 0);
  for (int s = 0; s < source.ranks && s < ranks; ++s)
    for (int d = 0; d < source.ranks && d < ranks; ++d) {
      m.messages[static_cast<size_t>(s) * ranks + d] = source.msgs(s, d);
      m.bytes[static_cast<size_t>(s) * ranks + d]    = source.bytes[static_cast<size_t>(s) * source.ranks + d];
    }
  return m;
}

std::vector<mapping::MessageCount> message_counts(const RunRecord::PairCounts& traffic, int ranks)
{
  std::vector<mapping::MessageCount> cells;
  cells.reserve(traffic.size());
  for (auto const& [pair, cell] : traffic)
    if (pair.first >= 0 && pair.first < ranks && pair.second >= 0 && pair.second < ranks)
      cells.push_back({pair.first, pair.second, cell.first});
  return cells;
}

void read_traffic(const json& t, RunDescription& d, const std::string& path, const std::string& fix)
{
  d.traffic_file = t.at("file").get<std::string>();
  mapping::CommMatrix m;
  m.ranks = t.at("ranks").get<int>();
  if (m.ranks < 0 || m.ranks > 1 << 16)
    throw InputError(path, "traffic matrix of " + std::to_string(m.ranks) + " ranks", fix);
  m.messages.assign(static_cast<size_t>(m.ranks) * m.ranks, 0);
  m.bytes.assign(m.messages.size(), 0);
  for (auto const& c : t.at("cells")) {
    const int s = c.at(0).get<int>(), r = c.at(1).get<int>();
    if (s < 0 || r < 0 || s >= m.ranks || r >= m.ranks)
      throw InputError(path, "traffic cell outside the matrix", fix);
    m.messages[static_cast<size_t>(s) * m.ranks + r] = c.at(2).get<uint64_t>();
    m.bytes[static_cast<size_t>(s) * m.ranks + r]    = c.at(3).get<uint64_t>();
  }
  d.traffic = std::move(m);
}

} // namespace

std::string to_json_text(const RunDescription& d)
{
  json j;
  j["platform"] = d.platform;
  j["ranks"]    = d.ranks;
  j["mode"]     = d.mode;
  if (!d.program.empty())
    j["program"] = d.program;
  if (!d.trace.empty())
    j["trace"] = d.trace;
  j["simgrid_library"] = d.simgrid_library;
  j["allocator"] = d.allocator;
  j["strategy"] = d.strategy;
  if (d.seed)
    j["seed"] = *d.seed;
  if (d.traffic) { // non-zero cells: [src, dst, messages, bytes]
    json cells = json::array();
    for (int s = 0; s < d.traffic->ranks; ++s)
      for (int t = 0; t < d.traffic->ranks; ++t)
        if (d.traffic->msgs(s, t))
          cells.push_back({s, t, d.traffic->msgs(s, t), d.traffic->bytes[static_cast<size_t>(s) * d.traffic->ranks + t]});
    j["traffic"] = {{"file", d.traffic_file}, {"ranks", d.traffic->ranks}, {"cells", cells}};
  }
  j["placement"] = d.placement;
  json coords    = json::array();
  for (auto const& [node, c] : d.coords)
    coords.push_back({node, c[0], c[1], c[2]});
  j["coords"] = coords;
  if (!d.hosts.empty()) {
    json hosts = json::array();
    for (auto const& [node, name] : d.hosts)
      hosts.push_back({node, name});
    j["hosts"] = hosts;
  }
  return j.dump() + "\n";
}

RunDescription read_run_description(const std::string& path)
{
  const auto j = json::parse(read_file(path, "haec/run"), nullptr, false);
  const std::string fix = "haec run writes this file; run through haec run or drop --cfg=haec/run";
  if (j.is_discarded() || !j.is_object())
    throw InputError(path, "is not a run description (JSON object)", fix);
  try {
    RunDescription d;
    d.platform  = j.at("platform").get<std::string>();
    d.ranks     = j.at("ranks").get<int>();
    d.mode      = j.at("mode").get<std::string>();
    d.program   = j.value("program", "");
    d.trace     = j.value("trace", "");
    d.simgrid_library = j.value("simgrid_library", "");
    d.allocator = j.value("allocator", "system");
    d.strategy  = j.at("strategy").get<std::string>();
    if (j.contains("seed"))
      d.seed = j.at("seed").get<uint64_t>();
    if (j.contains("traffic"))
      read_traffic(j.at("traffic"), d, path, fix);
    d.placement = j.at("placement").get<std::vector<int>>();
    for (auto const& c : j.at("coords"))
      d.coords[c.at(0).get<int>()] = {c.at(1).get<int>(), c.at(2).get<int>(), c.at(3).get<int>()};
    if (j.contains("hosts"))
      for (auto const& h : j.at("hosts"))
        d.hosts[h.at(0).get<int>()] = h.at(1).get<std::string>();
    if (d.ranks <= 0 || static_cast<int>(d.placement.size()) != d.ranks)
      throw InputError(path, "places " + std::to_string(d.placement.size()) + " ranks of " + std::to_string(d.ranks),
                       fix);
    for (int node : d.placement)
      if (!d.coords.count(node))
        throw InputError(path, "node " + std::to_string(node) + " has no coordinates", fix);
    return d;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, std::string("is not a run description (") + e.what() + ")", fix);
  }
}

std::optional<mapping::Metrics> run_metrics(const RunDescription& d, const RunRecord& record, bool messages_observed,
                                            const std::function<int(int, int)>& hops)
{
  if (d.traffic) {
    if (d.traffic->ranks > d.ranks)
      return std::nullopt;
    return mapping::compute_metrics(padded(*d.traffic, d.ranks), d.placement, hops);
  }
  if (!messages_observed)
    return std::nullopt;
  return mapping::compute_metrics(message_counts(record.traffic(), d.ranks), d.placement, hops);
}

void add_run_description(Results& results, const RunDescription& d, const std::optional<mapping::Metrics>& metrics)
{
  results.add_summary("platform", json(d.platform).dump());
  results.add_summary("ranks", std::to_string(d.ranks));
  results.add_summary("mode", json(d.mode).dump());
  results.add_summary("simgrid_library", json(d.simgrid_library).dump());
  results.add_summary("allocator", json(d.allocator).dump());
  if (d.mode == "replay")
    results.add_summary("trace", json(d.trace).dump());
  else
    results.add_summary("program", json(d.program).dump());
  json m;
  m["strategy"] = d.strategy;
  if (d.seed)
    m["seed"] = *d.seed;
  if (metrics) {
    json k;
    k["ieplc"]      = metrics->ieplc;
    k["ianlc"]      = metrics->ianlc;
    k["ienlc"]      = metrics->ienlc;
    k["ienlc_avg"]  = json::parse(units::exact(metrics->ienlc_avg)); // 48, not 48.0, as before
    k["ienlc_min"]  = metrics->ienlc_min;
    k["ienlc_max"]  = metrics->ienlc_max;
    if (metrics->message_hops)
      k["message_hops"] = *metrics->message_hops;
    m["metrics"]    = k;
  }
  results.add_summary("mapping", m.dump());
}

} // namespace haec::core
