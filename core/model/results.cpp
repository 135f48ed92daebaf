#include "results.hpp"
#include "atomic_file.hpp"

#include <nlohmann/json.hpp>

namespace haec::suite {

void write_results(const std::string& dir, const ResultsInput& in)
{
  const RunRecord& r = in.record;
  nlohmann::ordered_json s;
  s["makespan_s"]       = in.makespan_s;
  s["messages"]         = r.transfers();
  s["bytes"]            = r.bytes();
  s["total_hops"]       = r.total_hops();
  s["app_messages"]     = r.logical_messages();
  s["simgrid_version"]  = in.simgrid_version;
  for (auto const& [key, value] : in.extra)
    s[key] = nlohmann::ordered_json::parse(value);
  if (!s.contains("link_model"))
    s["link_model"] = "none";

  if (in.write_messages)
    write_file_atomic(dir + "/messages.csv", r.messages_csv());
  write_file_atomic(dir + "/msg_sizes.csv", r.msg_sizes_csv());
  write_file_atomic(dir + "/hops.csv", r.hops_csv());
  if (r.logical_messages() > 0)
    write_file_atomic(dir + "/traffic_matrix.csv", r.traffic_matrix_csv());
  // summary.json last: its presence means the run's files are complete.
  write_file_atomic(dir + "/summary.json", s.dump(2) + "\n");
}

} // namespace haec::suite
