#include "results.hpp"
#include "atomic_file.hpp"
#include "units.hpp"

namespace haec::core {

void Results::add_file(const std::string& name, std::string content)
{
  files_.emplace_back(name, std::move(content));
}

void Results::add_summary(const std::string& key, const std::string& json_text)
{
  summary_.emplace_back(key, json_text);
}

void Results::add_check(Check check)
{
  checks_.push_back(std::move(check));
}

const std::string* Results::file(const std::string& name) const
{
  for (auto const& [n, content] : files_)
    if (n == name)
      return &content;
  return nullptr;
}

const std::string* Results::summary(const std::string& key) const
{
  const std::string* found = nullptr;
  for (auto const& [k, value] : summary_)
    if (k == key)
      found = &value;
  return found;
}

const Check* Results::first_failure() const
{
  for (auto const& c : checks_)
    if (c.result == Check::Result::Failed)
      return &c;
  return nullptr;
}

void Results::write(const std::string& dir, nlohmann::ordered_json s) const
{
  for (auto const& [key, value] : summary_)
    s[key] = nlohmann::ordered_json::parse(value);
  if (!s.contains("link_model"))
    s["link_model"] = "none";
  nlohmann::ordered_json checks = nlohmann::ordered_json::object();
  for (auto const& c : checks_) {
    auto& j     = checks[c.name];
    j["result"] = c.result == Check::Result::Passed ? "passed" : c.result == Check::Result::Failed ? "failed" : "not checked";
    j[c.result == Check::Result::NotChecked ? "why" : "figures"] = c.figures;
  }
  s["checks"] = checks;
  for (auto const& [name, content] : files_)
    write_file_atomic(dir + "/" + name, content);
  // summary.json last: its presence means the run's files are complete.
  write_file_atomic(dir + "/summary.json", s.dump(2) + "\n");
}

void add_run_record(Results& results, const RunRecord& r, const RecordOutput& output)
{
  results.add_summary("messages", std::to_string(r.transfers()));
  results.add_summary("bytes", std::to_string(r.bytes()));
  results.add_summary("transfer_hops", std::to_string(r.transfer_hops()));
  if (output.messages_observed)
    results.add_summary("app_messages", std::to_string(r.logical_messages()));
  if (output.messages_csv)
    results.add_file("messages.csv", r.messages_csv());
  results.add_file("msg_sizes.csv", r.msg_sizes_csv());
  results.add_file("hops.csv", r.hops_csv());
  if (output.messages_observed)
    results.add_file("traffic_matrix.csv", r.traffic_matrix_csv());
}

std::string counters_csv(const std::vector<std::string>& events, const std::vector<CounterRow>& rows)
{
  std::string out = "rank,region,computations,busy_s";
  for (auto const& e : events)
    out += ",\"" + e + "\"";
  for (auto const& e : events)
    out += ",\"" + e + "_per_s\"";
  out += "\n";
  for (auto const& r : rows) {
    out += std::to_string(r.rank) + ",\"" + r.region + "\"," + std::to_string(r.computations) + "," +
           units::exact(r.busy_s);
    for (double c : r.counts)
      out += "," + units::exact(c);
    for (double c : r.counts)
      out += "," + (r.busy_s > 0 ? units::exact(c / r.busy_s) : std::string());
    out += "\n";
  }
  return out;
}

} // namespace haec::core
