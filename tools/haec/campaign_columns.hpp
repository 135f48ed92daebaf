// The columns of DIR/results.csv besides the axes (campaign_results.cpp writes them,
// scripts/campaign_report.py reads them): an axis of one of these names is written "axis:NAME".
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace haec::cli {

// The summary.json figures of a row: column name -> JSON pointer.
inline const std::vector<std::pair<std::string, std::string>>& result_figures()
{
  static const std::vector<std::pair<std::string, std::string>> figures = {
      {"makespan_s", "/makespan_s"},
      {"energy_j", "/energy_j"},
      {"host_energy_j", "/host_energy_j"},
      {"link_energy_j", "/link_energy_j"},
      {"messages", "/messages"},
      {"bytes", "/bytes"},
      {"transfer_hops", "/transfer_hops"},
      {"message_hops", "/mapping/metrics/message_hops"},
      {"mapping", "/mapping/strategy"},
      {"link_model", "/link_model"},
      {"governor", "/governor"},
      {"pstate_switches", "/pstate_switches"},
      {"migrations", "/migrations"},
  };
  return figures;
}

inline bool is_result_column(const std::string& name)
{
  for (const char* c : {"run", "status", "ranks", "nodes", "nodes_used", "result_dir", "log"})
    if (name == c)
      return true;
  for (const auto& f : result_figures())
    if (name == f.first)
      return true;
  return false;
}

} // namespace haec::cli
