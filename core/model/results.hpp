// Everything a run writes, collected before anything is written: the plugins' and the core's
// files, summary.json's entries and the checks the run verified. write() runs only when every
// check passed; each file is written atomically and summary.json last, so its presence means the
// directory is complete. Pure C++ (nlohmann-json), testable without SimGrid.
#pragma once
#include "run_record.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace haec::core {

// One invariant of the run: verified (passed or failed, with the figures), or not checked (why).
struct Check {
  std::string name;
  enum class Result { Passed, Failed, NotChecked } result = Result::Passed;
  std::string figures; // what was compared, or why it could not be
};

class Results {
public:
  void add_file(const std::string& name, std::string content);
  void add_summary(const std::string& key, const std::string& json_text);
  void add_check(Check check);

  const std::string* file(const std::string& name) const; // nullptr when not added
  const std::string* summary(const std::string& key) const;
  const std::vector<Check>& checks() const { return checks_; }
  const Check* first_failure() const;

  // Into `dir` (which must exist): every file, then summary.json = `head`, the added entries (a
  // later entry of the same key wins), "link_model": "none" when no plugin named one, then checks.
  void write(const std::string& dir, nlohmann::ordered_json head) const;

private:
  std::vector<std::pair<std::string, std::string>> files_;
  std::vector<std::pair<std::string, std::string>> summary_; // key -> JSON text
  std::vector<Check> checks_;
};

// The run record's share: summary figures, msg_sizes.csv, hops.csv, messages.csv (when asked)
// and, when the application's messages were observed, app_messages and traffic_matrix.csv (with
// only its header when the application sent none).
struct RecordOutput {
  bool messages_csv      = false;
  bool messages_observed = false;
};
void add_run_record(Results& results, const RunRecord& record, const RecordOutput& output);

// counters.csv: per rank and code region, the computations that carried hardware counters, their
// summed counts per event, busy seconds (the sum of their durations) and mean rates (sum / busy).
struct CounterRow {
  int rank = -1;
  std::string region; // regions.csv's key, "" when the run reports no calls
  uint64_t computations = 0;
  std::vector<double> counts; // summed, in the order of the events
  double busy_s = 0;
};
// Header rank,region,computations,busy_s,<EVENT>...,<EVENT>_per_s...; rows in the given order. A
// rate over zero busy seconds is left empty (not a number we could compute).
std::string counters_csv(const std::vector<std::string>& events, const std::vector<CounterRow>& rows);

} // namespace haec::core
