#include "counter_annotation.hpp"
#include "input_error.hpp"
#include "units.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace haec::trace {
namespace {

const std::string fix = "write `# RANK haec_counters EVENT=COUNT ...` with counts >= 0 (libs/trace/counter_annotation.hpp)";

std::string format_count(double count)
{
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", count);
  return buffer;
}

void add_field(CounterSample& sample, const std::string& field, const std::string& where)
{
  const auto eq = field.rfind('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(where, "counter field '" + field + "' is not EVENT=COUNT", fix);
  const std::string event = field.substr(0, eq);
  const double count      = units::parse_number(field.substr(eq + 1), where + ": count of " + event);
  if (!(count >= 0) || !std::isfinite(count))
    throw InputError(where, "count of " + event + " is " + field.substr(eq + 1) + ", not a finite number >= 0", fix);
  if (std::find(sample.events.begin(), sample.events.end(), event) != sample.events.end())
    throw InputError(where, "counter " + event + " is given twice", "give each event once per line");
  sample.events.push_back(event);
  sample.counts.push_back(count);
}

} // namespace

std::string format_counter_annotation(int rank, const CounterSample& sample)
{
  std::string line = "# " + std::to_string(rank) + " " + counter_annotation_action;
  for (size_t i = 0; i < sample.events.size(); ++i)
    line += " " + sample.events[i] + "=" + format_count(sample.counts[i]);
  return line;
}

std::optional<CounterSample> parse_counter_annotation(const std::vector<std::string>& fields, const std::string& where)
{
  if (fields.size() < 3 || fields[0] != "#" || fields[2] != counter_annotation_action)
    return std::nullopt;
  if (counter_annotation_rank(fields) < 0)
    throw InputError(where, "counter annotation names rank '" + fields[1] + "'", fix);
  if (fields.size() == 3)
    throw InputError(where, "counter annotation lists no event", fix);
  CounterSample sample;
  for (size_t i = 3; i < fields.size(); ++i)
    add_field(sample, fields[i], where);
  return sample;
}

int counter_annotation_rank(const std::vector<std::string>& fields)
{
  if (fields.size() < 2 || fields[1].empty() || fields[1].size() > 9)
    return -1;
  for (char c : fields[1])
    if (c < '0' || c > '9')
      return -1;
  return std::atoi(fields[1].c_str());
}

} // namespace haec::trace
