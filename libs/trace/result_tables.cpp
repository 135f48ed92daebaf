// Result files to event streams: see result_tables.hpp.
#include "result_tables.hpp"

#include "csv.hpp"
#include "input_error.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>

namespace haec::trace {
namespace {

double number(const std::string& s, const std::string& at, const char* what)
{
  char* end = nullptr;
  errno     = 0;
  double v  = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw InputError(at, std::string(what) + " '" + s + "' is not a number", "the file is corrupt");
  return v;
}

// events.csv: each rank's MPI calls as Enter/Leave events, regions named by their function.
class EventReader {
public:
  explicit EventReader(RunTrace& t) : t_(t) {}
  void row(const std::vector<std::string>& c, const std::string& at);
  // A run always leaves its calls; a cut file does not.
  void check_closed(const std::string& file) const;

private:
  int rank_of(const std::string& s, const std::string& at);
  RunTrace& t_;
  std::map<std::string, uint32_t> region_id_;
  std::vector<std::vector<uint32_t>> stack_; // per rank: the regions it is in
};

int EventReader::rank_of(const std::string& s, const std::string& at)
{
  double r = number(s, at, "rank");
  if (r < 0 || r != std::trunc(r) || r > 1e7)
    throw InputError(at, "rank '" + s + "' is not a rank", "the file is corrupt");
  int ri = static_cast<int>(r);
  if (ri >= t_.ranks) {
    t_.ranks = ri + 1;
    t_.by_rank.resize(static_cast<size_t>(t_.ranks));
    stack_.resize(static_cast<size_t>(t_.ranks));
  }
  return ri;
}

void EventReader::row(const std::vector<std::string>& c, const std::string& at)
{
  double time = number(c[0], at, "time");
  int r       = rank_of(c[1], at);
  auto& s     = stack_[static_cast<size_t>(r)];
  auto& ev    = t_.by_rank[static_cast<size_t>(r)];
  if (!ev.empty() && time < ev.back().time)
    throw InputError(at, "time goes backwards for rank " + c[1], "the file is corrupt");
  const std::string function = c[3].substr(0, c[3].find('@'));
  if (c[2] == "enter") {
    auto it = region_id_.find(function);
    if (it == region_id_.end()) {
      it = region_id_.emplace(function, static_cast<uint32_t>(t_.regions.size())).first;
      t_.regions.push_back(function);
    }
    s.push_back(it->second);
    ev.push_back({RunEvent::Enter, time, it->second, -1, 0});
  } else if (c[2] == "exit") {
    if (s.empty())
      throw InputError(at, "exit of " + function + " without an entry on rank " + c[1], "the file is corrupt");
    ev.push_back({RunEvent::Leave, time, s.back(), -1, 0});
    s.pop_back();
  } else {
    throw InputError(at, "event '" + c[2] + "' is neither enter nor exit", "the file is corrupt");
  }
  t_.end = std::max(t_.end, time);
}

void EventReader::check_closed(const std::string& file) const
{
  for (int r = 0; r < t_.ranks; ++r)
    if (!stack_[static_cast<size_t>(r)].empty())
      throw InputError(file, "rank " + std::to_string(r) + " never leaves " + t_.regions[stack_[static_cast<size_t>(r)].back()],
                       "the file is truncated");
}

// messages.csv: a Send on the source's stream at its start, a Recv on the destination's at its end.
std::vector<std::vector<RunEvent>> read_messages(RunTrace& t, const std::string& messages, const std::string& file,
                                                 const std::string& events_file)
{
  std::vector<std::vector<RunEvent>> msgs(static_cast<size_t>(t.ranks));
  if (messages.empty())
    return msgs;
  csv::for_each_row(messages, file, "src_rank,dst_rank", 8, [&](const std::vector<std::string>& c, const std::string& at) {
    double src = number(c[0], at, "src_rank"), dst = number(c[1], at, "dst_rank");
    double bytes = number(c[4], at, "bytes"), start = number(c[6], at, "start"), end = number(c[7], at, "end");
    if (end < start || bytes < 0)
      throw InputError(at, "message ends before it starts or has negative size", "the file is corrupt");
    if (src < 0 || dst < 0) {
      ++t.skipped_messages;
      return;
    }
    if (src >= t.ranks || dst >= t.ranks)
      throw InputError(at, "rank " + (src >= t.ranks ? c[0] : c[1]) + " has no events in " + events_file,
                       "give the messages.csv of the same run");
    msgs[static_cast<size_t>(src)].push_back({RunEvent::Send, start, 0, static_cast<int>(dst), static_cast<uint64_t>(bytes)});
    msgs[static_cast<size_t>(dst)].push_back({RunEvent::Recv, end, 0, static_cast<int>(src), static_cast<uint64_t>(bytes)});
    ++t.messages;
    t.end = std::max(t.end, end);
  });
  return msgs;
}

// A message goes after every call event at or before its time (enter/exit order is kept).
void merge_messages(RunTrace& t, std::vector<std::vector<RunEvent>>& msgs)
{
  for (int r = 0; r < t.ranks; ++r) {
    auto& m = msgs[static_cast<size_t>(r)];
    std::stable_sort(m.begin(), m.end(), [](const RunEvent& a, const RunEvent& b) { return a.time < b.time; });
    auto& ev = t.by_rank[static_cast<size_t>(r)];
    std::vector<RunEvent> out;
    out.reserve(ev.size() + m.size());
    size_t j = 0;
    for (auto const& e : ev) {
      while (j < m.size() && m[j].time < e.time)
        out.push_back(m[j++]);
      out.push_back(e);
    }
    while (j < m.size())
      out.push_back(m[j++]);
    ev.swap(out);
  }
}

// power.csv: each host's watts over time.
void read_power(RunTrace& t, const std::string& power, const std::string& file)
{
  std::map<std::string, size_t> host_id;
  csv::for_each_row(power, file, "time,host,watts", 3, [&](const std::vector<std::string>& c, const std::string& at) {
    double time = number(c[0], at, "time"), watts = number(c[2], at, "watts");
    auto it = host_id.find(c[1]);
    if (it == host_id.end()) {
      it = host_id.emplace(c[1], t.hosts.size()).first;
      t.hosts.push_back(c[1]);
      t.power.emplace_back();
    }
    auto& series = t.power[it->second];
    if (!series.empty() && time < series.back().first)
      throw InputError(at, "time goes backwards for host " + c[1], "the file is corrupt");
    series.emplace_back(time, watts);
    t.end = std::max(t.end, time);
  });
}

} // namespace

RunTrace build_run_trace(const std::string& events, const std::string& events_file, const std::string& messages,
                         const std::string& messages_file, const std::string& power, const std::string& power_file)
{
  RunTrace t;
  EventReader reader(t);
  csv::for_each_row(events, events_file, "time,rank,event,site", 4,
       [&](const std::vector<std::string>& c, const std::string& at) { reader.row(c, at); });
  reader.check_closed(events_file);
  auto msgs = read_messages(t, messages, messages_file, events_file);
  merge_messages(t, msgs);
  if (!power.empty())
    read_power(t, power, power_file);
  return t;
}

} // namespace haec::trace
