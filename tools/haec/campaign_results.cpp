// DIR/results.csv: the collection step of both executors. Figures are copied from each run's
// summary.json as written there; a figure the run did not compute is an empty cell, never 0.
#include "atomic_file.hpp"
#include "campaign_columns.hpp"
#include "campaign_exec.hpp"

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

namespace haec::cli {
namespace {

std::string field(const std::string& s)
{
  if (s.find_first_of(",\"\n\r") == std::string::npos)
    return s;
  std::string q = "\"";
  for (char c : s)
    q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string cell(const json& summary, const std::string& pointer)
{
  const json::json_pointer ptr(pointer);
  if (summary.is_null() || !summary.contains(ptr) || summary[ptr].is_null())
    return "";
  const json& v = summary[ptr];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

const char* state_name(RunState s)
{
  return s == RunState::done ? "done" : s == RunState::failed ? "failed" : "pending";
}

} // namespace

void write_results(const CampaignPlan& p)
{
  std::string csv = "run,status";
  for (const auto& a : p.campaign.axis_names) // an axis "governor" is not the figure "governor"
    csv += "," + field(is_result_column(a) ? "axis:" + a : a);
  csv += ",ranks,nodes,nodes_used";
  for (const auto& f : result_figures())
    csv += "," + f.first;
  csv += ",result_dir,log\n";
  for (size_t i = 0; i < p.campaign.runs.size(); ++i) {
    const auto& run = p.campaign.runs[i];
    json summary;
    if (p.states[i] == RunState::done)
      summary = json::parse(read_file((run_dir(p, i) / "summary.json").string(), "summary.json"));
    csv += field(run.id) + "," + state_name(p.states[i]);
    for (const auto& [axis, value] : run.axes)
      csv += "," + field(value);
    const RunPreview& r = p.previews[i];
    csv += "," + std::to_string(r.ranks) + "," + std::to_string(r.platform_nodes) + "," + std::to_string(r.nodes_used);
    for (const auto& f : result_figures())
      csv += "," + field(cell(summary, f.second));
    const bool done = p.states[i] == RunState::done;
    csv += "," + (done ? field(fs::relative(run_dir(p, i), p.out).string()) : "");
    csv += "," + (fs::exists(log_path(p, i)) ? field(fs::relative(log_path(p, i), p.out).string()) : "") + "\n";
  }
  write_file_atomic((p.out / "results.csv").string(), csv);
}

} // namespace haec::cli
