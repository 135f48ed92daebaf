// Turns a RunRecord into the result directory's files: summary.json and the CSV tables, each
// written atomically. Pure C++ (nlohmann-json), so it is testable without SimGrid.
#pragma once
#include "run_record.hpp"

#include <string>
#include <utility>
#include <vector>

namespace haec::suite {

struct ResultsInput {
  const RunRecord& record;
  double makespan_s;
  std::string simgrid_version;
  const std::vector<std::pair<std::string, std::string>>& extra; // key -> JSON text
  bool write_messages;
};

// Writes into `dir` (which must exist): summary.json, msg_sizes.csv, hops.csv, traffic_matrix.csv
// (when the application's messages were observed) and messages.csv (when asked).
void write_results(const std::string& dir, const ResultsInput& in);

} // namespace haec::suite
