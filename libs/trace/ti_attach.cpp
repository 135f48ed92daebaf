// TI trace joined to events.csv: see ti_attach.hpp.
#include "ti_attach.hpp"

#include "call_annotation.hpp"
#include "counter_annotation.hpp"
#include "input_error.hpp"
#include "ti_attach_rma.hpp"
#include "ti_check.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace haec::trace {
namespace {

std::vector<std::string> fields(const std::string& line)
{
  std::istringstream in(line);
  std::vector<std::string> f;
  for (std::string w; in >> w;)
    f.push_back(w);
  return f;
}

uint64_t bytes(const std::vector<std::string>& f, size_t count_at, size_t type_at)
{
  const double n = std::strtod(f.at(count_at).c_str(), nullptr);
  const double b = n * (f.size() > type_at ? ti_datatype_bytes(f[type_at]) : 8.0);
  return static_cast<uint64_t>(std::llround(b));
}

// The call's record for viewers (Vampir): OTF2's per-rank sizes, as `haec trace import` reads them.
void add_record(std::vector<RunEvent>& out, const std::vector<std::string>& f, double time, int ranks)
{
  const std::string& a = f[1];
  const uint64_t n     = static_cast<uint64_t>(ranks);
  auto coll            = [&](const std::string& op, int root, uint64_t sent, uint64_t received) {
    RunEvent e{RunEvent::Collective, time, 0, root, sent};
    e.received = received;
    e.op       = op;
    out.push_back(e);
  };
  if ((a == "send" || a == "isend" || a == "recv" || a == "irecv") && f.size() >= 5) {
    const bool receive = a == "recv" || a == "irecv";
    RunEvent e{receive ? RunEvent::Recv : RunEvent::Send, time, 0, std::atoi(f[2].c_str()), bytes(f, 4, 5)};
    e.tag  = static_cast<uint32_t>(std::strtoul(f[3].c_str(), nullptr, 10));
    out.push_back(e);
  } else if (a == "barrier") {
    coll("BARRIER", -1, 0, 0);
  } else if (a == "allreduce" && f.size() >= 3) {
    coll("ALLREDUCE", -1, bytes(f, 2, 4), bytes(f, 2, 4));
  } else if (a == "bcast" && f.size() >= 3) {
    const int root = f.size() > 3 ? std::atoi(f[3].c_str()) : 0;
    const uint64_t b = bytes(f, 2, 4);
    coll("BCAST", root, std::atoi(f[0].c_str()) == root ? b * (n > 1 ? n - 1 : 1) : 0, b);
  } else if (a == "reduce" && f.size() >= 3) {
    coll("REDUCE", f.size() > 4 ? std::atoi(f[4].c_str()) : 0, bytes(f, 2, 5), 0);
  } else if (a == "alltoall" && f.size() >= 4) {
    coll("ALLTOALL", -1, bytes(f, 2, 4) * n, bytes(f, 3, 5) * n);
  }
}

// events.csv names a replayed action MPI_<Action> ("send" -> "MPI_Send"; ours "haec_iallreduce"
// -> "MPI_Iallreduce").
bool same_call(const std::string& region, std::string action)
{
  if (action.rfind("haec_", 0) == 0)
    action = action.substr(5);
  if (region.size() != action.size() + 4 || region.rfind("MPI_", 0) != 0)
    return false;
  for (size_t i = 0; i < action.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(region[4 + i])) != std::tolower(static_cast<unsigned char>(action[i])))
      return false;
  return true;
}

// "MPI_Send" of a call site "MPI_Send@app+0x1a2b" (events.csv's calls may be named either way).
std::string function_of(const std::string& site)
{
  return site.substr(0, site.find('@'));
}

// A counter annotation (kept verbatim with the call's lines, and summed for the OTF2 metrics).
bool add_counters(RunTrace& t, const std::vector<std::string>& f, const std::string& at, std::vector<double>& sum)
{
  auto sample = parse_counter_annotation(f, at);
  if (!sample)
    return false;
  if (t.counter_events.empty())
    t.counter_events = sample->events;
  sum.resize(t.counter_events.size(), 0.0);
  size_t matched = 0; // counts in the order of the trace's first annotation (any order is allowed)
  for (size_t i = 0; i < sample->events.size(); ++i)
    for (size_t k = 0; k < t.counter_events.size(); ++k)
      if (t.counter_events[k] == sample->events[i])
        sum[k] += sample->counts[i], ++matched;
  if (matched != t.counter_events.size() || sample->events.size() != t.counter_events.size())
    throw InputError(at, "counters differ from the trace's first annotation", "check the trace: haec trace check TRACE");
  return true;
}

// Rank r's calls (Enter/Leave) with its TI lines attached and the MPI records added. In a trace
// with call annotations (call_annotation.hpp) a call is an annotation's group of actions, as the
// replay reported it (named by its call site); else each action but the computations is a call.
std::vector<RunEvent> attach_rank(RunTrace& t, const std::vector<RunEvent>& calls, int r, const std::string& text,
                                  const std::string& file, RmaRecords& rma)
{
  std::vector<RunEvent> out;
  size_t next = 0, lineno = 0;
  std::string pending;
  std::vector<double> counters;
  CallGroups groups;
  std::string site;                         // the annotated call being read ("": none)
  std::vector<std::vector<std::string>> actions; // its actions
  const std::string fix = "export the result of haec run --replay THIS_TRACE --events, or name its trace with --trace";
  // The rank's next call in events.csv is `name`'s: it gets the TI lines so far and the records.
  auto attach = [&](const std::string& at, const std::string& name, bool annotated,
                    const std::vector<std::vector<std::string>>& records) {
    while (next < calls.size() && calls[next].kind != RunEvent::Enter)
      out.push_back(calls[next++]);
    if (next == calls.size() ||
        !(annotated ? function_of(t.regions[calls[next].region]) == function_of(name)
                    : same_call(t.regions[calls[next].region], name)))
      throw InputError(at, "'" + name + "' is not rank " + std::to_string(r) + "'s next call in events.csv (" +
                               (next == calls.size() ? std::string("none left") : t.regions[calls[next].region]) + ")",
                       fix);
    RunEvent enter = calls[next++];
    enter.ti       = pending;
    enter.counters.swap(counters);
    pending.clear();
    out.push_back(enter);
    for (auto const& f : records) {
      add_record(out, f, enter.time, t.ranks);
      rma.add(t, out, r, f, enter.time);
    }
  };
  auto step = [&](const CallGroups::Step& s, const std::string& at) {
    if (s.leave) {
      attach(at, site, true, actions);
      site.clear();
      actions.clear();
    }
  };
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    ++lineno;
    auto f = fields(line);
    const std::string at = file + ":" + std::to_string(lineno);
    if (!f.empty() && f[0] == "#" && add_counters(t, f, at, counters)) {
      pending += (pending.empty() ? "" : "\n") + line;
      continue;
    }
    if (!f.empty() && f[0] == "#") {
      if (auto a = parse_call_annotation(f, at)) { // kept verbatim: an import gives it back
        pending += (pending.empty() ? "" : "\n") + line;
        CallGroups::Step now;
        site = groups.announce(*a, at, now);
        step(now, at);
      }
      continue;
    }
    if (f.size() < 2)
      continue;
    const std::string action = line.substr(line.find(f[1]));
    pending += (pending.empty() ? "" : "\n") + action;
    const bool computation = f[1] == "compute" || f[1] == "sleep";
    if (groups.open()) {
      if (!computation)
        actions.push_back(f);
      step(groups.action(), at);
      continue;
    }
    if (!computation)
      attach(at, f[1], false, {f});
  }
  if (!pending.empty())
    throw InputError(file, "ends with computations after its last call", "end every rank file with finalize");
  for (; next < calls.size(); ++next) {
    if (calls[next].kind == RunEvent::Enter)
      throw InputError(file, "has fewer calls than rank " + std::to_string(r) + " made in events.csv",
                       "export the result of haec run --replay THIS_TRACE --events, or name its trace with --trace");
    out.push_back(calls[next]);
  }
  return out;
}

} // namespace

double ti_datatype_bytes(const std::string& id)
{
  // CREATE_MPI_DATATYPE order in SimGrid's smpi_datatype.cpp, as pmpi/recording.cpp writes them
  static const double size[] = {8, 4, 1, 2, 8, 4, 1, 8, 1, 1, 2, 4, 8, 8, 16};
  const long i = std::strtol(id.c_str(), nullptr, 10);
  return i >= 0 && i < 15 ? size[i] : 1.0;
}

void attach_ti_trace(RunTrace& t, const std::vector<std::string>& rank_texts, const std::vector<std::string>& rank_files)
{
  if (static_cast<int>(rank_texts.size()) != t.ranks)
    throw InputError(rank_files.empty() ? std::string("trace") : rank_files[0],
                     "trace has " + std::to_string(rank_texts.size()) + " ranks, events.csv " + std::to_string(t.ranks),
                     "export the result of haec run --replay THIS_TRACE --events, or name its trace with --trace");
  // the communicators' members, for the windows' OTF2 communicators (the check's own matching)
  t.comms = ti_communicators(read_ti_texts(rank_texts, rank_files), t.ranks);
  RmaRecords rma;
  std::vector<std::vector<RunEvent>> joined;
  for (int r = 0; r < t.ranks; ++r) {
    std::vector<RunEvent> calls_only;
    for (auto const& e : t.by_rank[static_cast<size_t>(r)])
      if (e.kind == RunEvent::Enter || e.kind == RunEvent::Leave)
        calls_only.push_back(e);
    joined.push_back(
        attach_rank(t, calls_only, r, rank_texts[static_cast<size_t>(r)], rank_files[static_cast<size_t>(r)], rma));
  }
  t.by_rank.swap(joined);
  t.messages = t.skipped_messages = 0;
  for (auto const& rank : t.by_rank)
    for (auto const& e : rank)
      t.messages += e.kind == RunEvent::Send;
  t.carries_ti = true;
}

} // namespace haec::trace
