// A replayed trace that carries the recording run's calls (`# RANK haec_call ...` annotations,
// libs/trace/call_annotation.hpp): each rank's actions are grouped into those calls and named by
// their call sites, so that code regions, iteration boundaries, events.csv, polling and the DVFS
// governors' tasks are the emulation's. SimGrid's reader skips comments, so a rank's annotations
// are read from its file before its first action (replay_ranks.cpp), each with the ordinal of the
// action it precedes, and checked then (a malformed one stops the run before it starts). Around
// each action of the rank (replay_actions.cpp) the annotations due are applied: the announcement
// where the emulation announced the call (the computation after it is in the region that ends at
// the call), the entry after the computation SMPI charged at the call's entry, the exit after the
// call's last action. The actions of such a rank do not report themselves.
#include "call_annotation.hpp"
#include "core_parts.hpp"
#include "input_error.hpp"
#include "replay_reader.hpp"
#include "run.hpp"
#include "site_table.hpp"

#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

extern "C" void haec_suite_mpi_exit(void);
extern "C" void haec_suite_mpi_returned(void);

namespace haec::core::parts {
namespace {

struct RankCalls {
  std::vector<std::pair<size_t, trace::CallAnnotation>> annotations; // (ordinal of the next action, annotation)
  size_t next    = 0; // the next annotation to apply
  size_t ordinal = 0; // the rank's actions run so far
  trace::CallGroups groups;
  std::vector<uint32_t> sites; // annotation ID -> the suite's site id (kNoSite: not named yet)
  uint32_t site = kNoSite;     // the open call's
  bool polling  = false;
};

std::vector<std::unique_ptr<RankCalls>>& ranks() // by actor pid; null: the rank's actions report themselves
{
  static std::vector<std::unique_ptr<RankCalls>> r;
  return r;
}

RankCalls* of(long pid)
{
  auto& r = ranks();
  return pid >= 0 && pid < static_cast<long>(r.size()) ? r[static_cast<size_t>(pid)].get() : nullptr;
}

void apply(long pid, const RankCalls& r, const trace::CallGroups::Step& step)
{
  if (step.enter) {
    enter_site(r.site);
    if (r.polling)
      bus().polling.publish(Polling{pid, true});
  }
  if (step.leave) {
    if (r.polling)
      bus().polling.publish(Polling{pid, false});
    haec_suite_mpi_exit();
  }
}

// The annotation's call site as the suite names it, interned on the ID's first use.
uint32_t site_of(RankCalls& r, const trace::CallAnnotation& a, const std::string& name)
{
  if (a.id >= r.sites.size())
    r.sites.resize(static_cast<size_t>(a.id) + 1, kNoSite);
  if (r.sites[a.id] == kNoSite)
    r.sites[a.id] = named_site(name);
  return r.sites[a.id];
}

} // namespace

void read_call_annotations(long pid, const std::string& text, const std::string& file, const std::string& actor)
{
  if (pid < 0 || text.find(trace::call_annotation_action) == std::string::npos)
    return;
  auto r = std::make_unique<RankCalls>();
  std::istringstream lines(text);
  trace::ReplayReader reader(lines);
  trace::CallGroups check; // the file's calls, as the replay will step through them
  std::vector<std::string> action;
  size_t actions = 0;
  auto comment   = [&](const std::vector<std::string>& fields) {
    const std::string where = file + ":" + std::to_string(reader.lines());
    auto a                  = trace::parse_call_annotation(fields, where);
    if (!a || fields[1] != actor)
      return;
    trace::CallGroups::Step now;
    check.announce(*a, where, now);
    r->annotations.emplace_back(actions, std::move(*a));
  };
  try {
    while (reader.next(action, comment)) {
      ++actions;
      check.action();
    }
    check.end(file + ":" + std::to_string(reader.lines()));
  } catch (const InputError& e) {
    reject_setting(e.what());
  }
  if (r->annotations.empty())
    return;
  auto& all = ranks();
  if (pid >= static_cast<long>(all.size()))
    all.resize(static_cast<size_t>(pid) + 1);
  all[static_cast<size_t>(pid)] = std::move(r);
}

bool annotated_replay(long pid)
{
  return of(pid) != nullptr;
}

// The annotations before the rank's next action (checked when read: they cannot fail here).
void before_replayed_action(long pid)
{
  RankCalls& r = *of(pid);
  while (r.next < r.annotations.size() && r.annotations[r.next].first == r.ordinal) {
    const trace::CallAnnotation& a = r.annotations[r.next++].second;
    trace::CallGroups::Step now;
    const std::string& name = r.groups.announce(a, "", now);
    r.site                  = site_of(r, a, name);
    r.polling               = a.polling;
    announce_site(r.site);
    apply(pid, r, now);
  }
}

// A call's communication ends with its last action that is no computation: the call returned
// then, as SimGrid's function did in emulation (a computation SMPI charged after it, before the
// wrapper returned, is still the call's, but its exit time is the return's).
void after_replayed_action(long pid, bool computation)
{
  RankCalls& r = *of(pid);
  ++r.ordinal;
  if (!computation && r.groups.open())
    haec_suite_mpi_returned();
  apply(pid, r, r.groups.action());
}

} // namespace haec::core::parts
