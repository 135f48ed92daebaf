// A rank of a trace replay, handed to the suite by our replayer (haec_replay_main.cpp) after SMPI
// registered its replay actions and before the rank's first action:
// - every registered action gets wrapped (replay_actions.cpp);
// - the rank's trace file is named as our list files name them: relative to the list's own
//   directory (a trace can be moved); SMPI takes a name as written, relative to the working
//   directory;
// - the trace's counter annotations for this rank (`# RANK haec_counters ...`,
//   libs/trace/counter_annotation.hpp), which SimGrid's reader skips with every comment, are read
//   from the file first: each belongs to the rank's next `compute` action, and is handed to the
//   core (set_pending_counters) just before that action runs, so its computation carries it;
// - likewise the trace's call annotations for this rank (`# RANK haec_call ...`,
//   libs/trace/call_annotation.hpp: replay_calls.cpp), which group its actions into the recording
//   run's calls.
// A replay through SimGrid's own replayer never reaches this file: the run then fails at its end
// (run_end.cpp, replayer_missing).
#include "core_parts.hpp"
#include "counter_annotation.hpp"
#include "input_error.hpp"
#include "replay_reader.hpp"
#include "run.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <xbt/config.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace haec::core::parts {
namespace {

// One rank's annotations: the ordinal of the compute action each belongs to, in file order.
struct Annotations {
  std::vector<std::pair<size_t, trace::CounterSample>> samples;
  std::vector<std::string> where; // "file:line" of each, for errors
  size_t next    = 0;             // the next sample to hand over
  size_t compute = 0;             // compute actions run so far
};

std::unordered_map<long, Annotations>& annotations() // by actor pid
{
  static std::unordered_map<long, Annotations> a;
  return a;
}

// Our list files name rank files relative to the list's own directory; SMPI would resolve them
// against the working directory.
std::string rank_file_path(const char* name)
{
  std::filesystem::path p(name);
  if (p.is_absolute() || std::filesystem::exists(p))
    return p.string();
  std::filesystem::path list = simgrid::config::get_value<std::string>("smpi/replay");
  std::error_code ec;
  if (std::filesystem::is_symlink(list, ec)) // a list whose path has a blank comes as a link (tools/haec/smpirun_words.hpp)
    list = std::filesystem::canonical(list, ec);
  const std::filesystem::path beside = list.parent_path() / p;
  return std::filesystem::exists(beside) ? beside.string() : p.string();
}

// The counter annotations of `actor`'s lines in `file` (its `text`), each with the ordinal of the
// compute action after it. A file without the annotation's word is not parsed (one search through it).
Annotations read_annotations(const std::string& text, const std::string& file, const std::string& actor)
{
  Annotations a;
  if (text.find(trace::counter_annotation_action) == std::string::npos)
    return a;
  std::istringstream lines(text);
  trace::ReplayReader reader(lines);
  std::vector<std::string> action;
  size_t computes = 0;
  auto comment = [&](const std::vector<std::string>& fields) {
    const std::string where = file + ":" + std::to_string(reader.lines());
    auto sample             = trace::parse_counter_annotation(fields, where);
    if (sample && fields[1] == actor) {
      a.samples.emplace_back(computes, std::move(*sample));
      a.where.push_back(where);
    }
  };
  try {
    while (reader.next(action, comment))
      if (action.size() > 1 && action[0] == actor && action[1] == "compute")
        ++computes;
  } catch (const InputError& e) {
    reject_setting(e.what());
  }
  return a;
}

} // namespace

void before_replayed_computation(long pid)
{
  auto it = annotations().find(pid);
  if (it == annotations().end())
    return;
  Annotations& a = it->second;
  if (a.next < a.samples.size() && a.samples[a.next].first == a.compute) {
    const auto& sample = a.samples[a.next].second;
    set_pending_counters(pid, sample.events, sample.counts, a.where[a.next]);
    ++a.next;
  }
  ++a.compute;
}

} // namespace haec::core::parts

// Our replayer's hook (haec_replay_main.cpp): the rank is about to replay `trace`, its own file,
// or with `shared`, the file every rank reads (SMPI's list of one line: a one-rank trace), which
// SimGrid's reader then opens as named: its path is resolved alike, its annotations not read.
extern "C" const char* haec_suite_replay_rank(int rank, const char* trace, int shared)
{
  using namespace haec::core::parts;
  static std::unordered_map<long, std::string> files;  // by pid: the names handed back stay valid
  static std::unordered_map<long, std::string> shares; // likewise
  const long pid = simgrid::s4u::this_actor::get_pid();
  wrap_replay_actions();
  if (trace == nullptr)
    return nullptr;
  if (shared != 0) {
    std::string& file = shares[pid] = rank_file_path(trace);
    progress_trace_file(file, true);
    return file.c_str();
  }
  std::string& file = files[pid] = rank_file_path(trace);
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  progress_trace_file(file, false, &text);
  read_call_annotations(pid, text, file, std::to_string(rank));
  Annotations a = read_annotations(text, file, std::to_string(rank));
  if (!a.samples.empty())
    annotations()[pid] = std::move(a);
  return file.c_str();
}
