// TI trace checker: see ti_check.hpp. Action syntax: SimGrid 3.32 src/smpi/internals/smpi_replay.cpp
// (field counts of each parser's CHECK_ACTION_PARAMS) and our own actions
// (core/replay_extra_actions.cpp).
#include "ti_check.hpp"

#include "atomic_file.hpp"
#include "call_annotation.hpp"
#include "input_error.hpp"
#include "replay_reader.hpp"
#include "ti_bounds.hpp"
#include "ti_counter_check.hpp"
#include "ti_program.hpp"
#include "ti_schema.hpp"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

namespace haec::trace {
namespace {

namespace fs = std::filesystem;

struct Arity {
  int min; // fields after "<rank> <action>"; -1 for "2 + world size"-like, computed below
  int max;
};

// Fixed-arity actions: minimum and maximum number of arguments.
const std::map<std::string, Arity>& fixed()
{
  static const std::map<std::string, Arity> a = {
      {"init", {0, 1}},        {"finalize", {0, 0}},   {"comm_size", {0, 1}},  {"comm_split", {0, 2}},
      {"comm_dup", {0, 0}},    {"send", {3, 4}},       {"isend", {3, 4}},      {"recv", {3, 4}},
      {"irecv", {3, 4}},       {"test", {3, 3}},       {"wait", {3, 3}},       {"waitall", {0, 1}},
      {"sendRecv", {6, 6}},    {"barrier", {0, 0}},    {"bcast", {1, 3}},      {"reduce", {2, 4}},
      {"allreduce", {2, 3}},   {"alltoall", {2, 4}},   {"gather", {2, 5}},     {"scatter", {2, 5}},
      {"allgather", {2, 4}},   {"scan", {2, 3}},       {"exscan", {2, 3}},     {"compute", {1, 1}},
      {"sleep", {1, 1}},       {"location", {2, 2}}};
  return a;
}

// Actions with world-size-long count vectors: minimum arguments = k * ranks + c.
const std::map<std::string, std::pair<int, int>>& vectored()
{
  static const std::map<std::string, std::pair<int, int>> v = {
      {"gatherv", {1, 1}}, {"allgatherv", {1, 1}}, {"scatterv", {1, 1}}, {"reducescatter", {1, 1}},
      {"alltoallv", {2, 2}}};
  return v;
}

// The whole field is a finite number; its value in `value`.
bool parse_number(const std::string& s, double& value)
{
  if (s.empty())
    return false;
  char* end = nullptr;
  errno     = 0;
  value     = std::strtod(s.c_str(), &end);
  return end != s.c_str() && *end == '\0' && errno != ERANGE && std::isfinite(value);
}

bool is_number(const std::string& s)
{
  double ignored = 0;
  return parse_number(s, ignored);
}

bool is_int(const std::string& s, long long& v)
{
  double d = 0;
  if (!parse_number(s, d) || d != std::trunc(d) || std::fabs(d) > 9e15)
    return false;
  v = static_cast<long long>(d);
  return true;
}


const char* kRecord = "record the trace with `haec trace record` (libs/trace/README.md)";
const char* kRepair = "rewrite it with `haec trace repair TRACE --out FIXED` or record it with `haec trace record`";

// Index of the root argument of SimGrid's collectives that have one (field index in the line).
int root_field(const std::string& action)
{
  static const std::map<std::string, int> roots = {{"bcast", 3}, {"reduce", 4}, {"gather", 4}, {"scatter", 4}};
  auto it = roots.find(action);
  return it == roots.end() ? -1 : it->second;
}

// Datatype fields of the actions whose datatype decides bytes on the wire.
std::vector<int> datatype_fields(const std::string& action)
{
  if (action == "send" || action == "isend" || action == "recv" || action == "irecv")
    return {5};
  if (action == "sendRecv")
    return {6, 7};
  return {};
}

void check_rank_field(const std::string& at, const std::string& action, const std::string& what, const std::string& v,
                      int ranks)
{
  long long peer = 0;
  if (!is_int(v, peer))
    throw InputError(at, what + " '" + v + "' of " + action + " is not an integer", "the trace is corrupt");
  const std::string name = what == "peer" ? "peer " + v : what + " " + v + " of " + action;
  if (peer == -333 || peer == -555)
    throw InputError(at, action + (what == "peer" ? " from/to " : " " + what + " ") + v +
                             " (a wildcard source as SimGrid's tracer writes MPI_ANY_SOURCE): the replay would match "
                             "the wrong message",
                     kRepair);
  if (peer < 0)
    throw InputError(at, name + " is not a rank", "the trace is corrupt");
  if (ranks > 0 && peer >= ranks)
    throw InputError(at, name + " is not a rank of the " + std::to_string(ranks) + "-rank replay",
                     "replay with -np " + std::to_string(peer + 1) + " or more, or fix the trace");
}

// Amounts, tags, peers and datatypes of a line whose shape is already right.
void check_values(const std::vector<std::string>& f, const std::string& at, int ranks)
{
  const std::string& action = f[1];
  const bool p2p   = action == "send" || action == "isend" || action == "recv" || action == "irecv";
  const bool probe = action == "wait" || action == "test";
  for (size_t i = 2; i < f.size(); ++i) {
    if (action == "location" || (p2p && i <= 3) || (probe && i <= 4) || (action == "sendRecv" && (i == 3 || i == 5)))
      continue; // peers and tags: below
    if (std::strtod(f[i].c_str(), nullptr) < 0 && !(f[i] == "-1" && i >= 4 && !datatype_fields(action).empty()))
      throw InputError(at, "argument " + std::to_string(i - 1) + " of " + action + " is negative (" + f[i] + ")",
                       "amounts, counts and sizes are >= 0; the trace is corrupt");
  }
  if (p2p) {
    check_rank_field(at, action, "peer", f[2], ranks);
    if (std::strtod(f[3].c_str(), nullptr) < 0)
      throw InputError(at, action + " tag " + f[3] + " (MPI_ANY_TAG as SimGrid's tracer writes it, or corrupt): the "
                                                      "replay would match the wrong message",
                       kRecord);
  }
  if (probe) {
    if ((f[2] == "-333" && f[3] == "-333") || (std::strtod(f[4].c_str(), nullptr) < 0 && f[4] != "-444"))
      throw InputError(at, action + " of a request SimGrid's tracer could not name (a non-blocking collective's)",
                       kRepair);
    check_rank_field(at, action, "source", f[2], ranks);
    check_rank_field(at, action, "destination", f[3], ranks);
  }
  if (action == "sendRecv") {
    check_rank_field(at, action, "destination", f[3], ranks);
    check_rank_field(at, action, "source", f[5], ranks);
  }
  if (int r = root_field(action); r >= 0 && static_cast<size_t>(r) < f.size())
    check_rank_field(at, action, "root", f[static_cast<size_t>(r)], ranks);
  for (int i : datatype_fields(action))
    if (static_cast<size_t>(i) < f.size() && datatype_size(f[static_cast<size_t>(i)]) < 0)
      throw InputError(at, "datatype id " + f[static_cast<size_t>(i)] + " of " + action + " is unknown",
                       "SimGrid 3.32 datatype ids are -1 and 0..59");
}

void check_line(const std::vector<std::string>& f, const std::string& at, int rank, int ranks)
{
  long long r = -1;
  if (!is_int(f[0], r) || r < 0)
    throw InputError(at, "'" + f[0] + "' is not a rank", "each line is '<rank> <action> ...'");
  if (rank >= 0 && r != rank)
    throw InputError(at, "action of rank " + f[0] + " in the trace of rank " + std::to_string(rank),
                     "list the per-rank files in rank order");
  if (ranks > 0 && r >= ranks)
    throw InputError(at, "rank " + f[0] + " but the replay has " + std::to_string(ranks) + " ranks",
                     "replay with -np " + std::to_string(r + 1) + " or more");
  if (f.size() < 2)
    throw InputError(at, "line has a rank but no action", "the trace may be truncated; " + std::string(kRecord));
  const std::string& action = f[1];
  const int args            = static_cast<int>(f.size()) - 2;
  static const std::set<std::string> rma = {"Win_create", "Win_allocate", "Win_free", "Win_fence", "Win_lock",
                                            "Win_unlock", "Win_lock_all", "Win_unlock_all", "Win_flush", "Put",
                                            "Get", "Accumulate", "Get_accumulate", "Rput", "Rget"};
  if (rma.count(action))
    throw InputError(at, "MPI_" + action + " (one-sided communication) cannot be replayed: SimGrid 3.32's TI replay has no RMA",
                     "simulate the program online with haec run -- APP");
  if (haec_schemas(action) != nullptr) { // ours: field by field (ti_schema.hpp)
    check_haec_line(f, at, ranks);
    return;
  }
  int lo = 0, hi = 0;
  if (auto it = fixed().find(action); it != fixed().end()) {
    lo = it->second.min, hi = it->second.max;
  } else if (auto v = vectored().find(action); v != vectored().end()) {
    if (ranks <= 0) // a shared trace without -np: counts cannot be checked
      return;
    lo = v->second.first * ranks + v->second.second;
    hi = lo + 2 + (action == "allgatherv" ? ranks : 0) + 1; // datatypes, displacements, root/comp
  } else if (action.size() > 1 && action[0] == 'i' && (fixed().count(action.substr(1)) || vectored().count(action.substr(1)))) {
    throw InputError(at, "'" + action + "' (a non-blocking collective as SimGrid's tracer writes it) cannot be replayed",
                     kRepair);
  } else if (action == "waitAny" || action == "waitany" || action == "testAny" || action == "waitsome") {
    throw InputError(at, "'" + action + "' (SimGrid's tracer's MPI_Waitany/Waitsome) cannot be replayed: the trace does "
                                        "not say which request completed",
                     kRecord);
  } else {
    throw InputError(at, "unknown action '" + action + "'", "SimGrid's TI actions and haec_* actions only; " +
                                                                 std::string(kRecord));
  }
  if (args < lo || args > hi)
    throw InputError(at, action + " takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                             " arguments, got " + std::to_string(args),
                     "the trace may be truncated or corrupt");
  for (size_t i = 2; i < f.size(); ++i)
    if (!(action == "location" && i == 2) && !is_number(f[i]))
      throw InputError(at, "argument " + std::to_string(i - 1) + " of " + action + " '" + f[i] + "' is not a number",
                       "the trace is corrupt");
  check_values(f, at, ranks);
  check_number_bounds(f, at, ranks); // ti_bounds.hpp: what SimGrid's replay can take
}


constexpr long long kMaxRanks = 1 << 22;

void add_to_rank(RankActions& ra, const std::vector<std::string>& f, const std::string& file, uint32_t line,
                 const std::string& at)
{
  const std::string& action = f[1];
  if (ra.lines == 0) {
    ra.file         = file;
    ra.first_line   = line;
    ra.first_action = action;
  }
  ++ra.lines;
  if (!ra.actions.empty() && ra.actions.back().kind == TiAction::Finalize)
    throw InputError(at, action + " after finalize", "finalize is a rank's last action; the trace is corrupt");
  if (action == "init") {
    if (ra.lines > 1)
      throw InputError(at, "init is not the rank's first action", "each rank's trace starts with one init");
    ra.default_type_size = f.size() > 2 ? 8 : 1; // MPE traces: MPI_DOUBLE; TAU traces: MPI_BYTE
  }
  if (action == "compute" || action == "sleep" || action == "location" || action.rfind("comm_", 0) == 0)
    return;
  ra.actions.push_back(to_action(f, line, ra.default_type_size, ra.fields));
}

// What SimGrid needs of each rank's sequence (without init it crashes; without finalize the trace
// was cut short).
void check_sequence(const TiProgram& program, int rank, const std::string& fallback_file)
{
  const RankActions* ra = static_cast<size_t>(rank) < program.ranks.size() ? &program.ranks[static_cast<size_t>(rank)] : nullptr;
  if (ra == nullptr || ra->lines == 0)
    throw InputError(fallback_file, "holds no action of rank " + std::to_string(rank),
                     "every rank's trace starts with '" + std::to_string(rank) + " init'");
  const std::string at = ra->file + ":" + std::to_string(ra->first_line);
  if (ra->first_action != "init")
    throw InputError(at, "rank " + std::to_string(rank) + " starts with " + ra->first_action + ", not init",
                     "each rank's trace starts with '" + std::to_string(rank) + " init' (SimGrid crashes without it)");
  if (ra->actions.empty() || ra->actions.back().kind != TiAction::Finalize)
    throw InputError(ra->file, "rank " + std::to_string(rank) + "'s actions do not end with finalize",
                     "the trace is truncated; record it again");
}

// Every line of one file: shape and values first (check_line), then what the rank's sequence
// needs (init first, nothing after finalize). With `program`, the actions are kept for the
// matching simulation; `rank` is -1 for a file holding every rank's actions.
// The call annotations of a file (call_annotation.hpp): well formed, and each call's actions there.
class CallCheck {
public:
  void line(const std::vector<std::string>& f, const std::string& at)
  {
    if (auto a = parse_call_annotation(f, at)) {
      CallGroups::Step now;
      ranks_[f[1]].announce(*a, at, now);
    } else if (f[0][0] != '#') {
      auto it = ranks_.find(f[0]);
      if (it != ranks_.end())
        it->second.action();
    }
  }
  void end_of_file(const std::string& at) const
  {
    for (auto const& [rank, groups] : ranks_)
      groups.end(at);
  }

private:
  std::map<std::string, CallGroups> ranks_;
};

void scan_text(const std::string& text, const std::string& file, int rank, int ranks, TiProgram* program,
               CounterCheck& counters)
{
  size_t start = 0, lineno = 0;
  std::vector<RankActions> local;
  std::vector<RankActions>& out = program ? program->ranks : local;
  CallCheck calls;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    ++lineno;
    const std::string at = file + ":" + std::to_string(lineno);
    if (end == std::string::npos)
      throw InputError(at, "last line has no end of line", "the trace is truncated; record it again");
    const std::string line = text.substr(start, end - start);
    start                  = end + 1;
    if (line.find('\0') != std::string::npos)
      throw InputError(at, "NUL byte in the line", "the trace is corrupt");
    auto f = replay_fields(line);
    if (f.empty())
      continue;
    counters.line(f, at, rank);
    calls.line(f, at);
    if (f[0][0] == '#')
      continue;
    check_line(f, at, rank, ranks);
    const long long r = std::strtoll(f[0].c_str(), nullptr, 10);
    if (r >= kMaxRanks)
      throw InputError(at, "rank " + f[0] + " is beyond what haec replays", "ranks must be below " + std::to_string(kMaxRanks));
    if (static_cast<size_t>(r) >= out.size())
      out.resize(static_cast<size_t>(r) + 1);
    add_to_rank(out[static_cast<size_t>(r)], f, file, static_cast<uint32_t>(lineno), at);
  }
  counters.end_of_file();
  calls.end_of_file(file + ":" + std::to_string(lineno));
}

} // namespace

std::vector<std::string> split_fields(const std::string& line)
{
  return replay_fields(line);
}

void check_ti_line(const std::vector<std::string>& fields, const std::string& at, int rank, int ranks)
{
  check_line(fields, at, rank, ranks);
}

void check_ti_rank_text(const std::string& text, const std::string& file, int rank, int ranks)
{
  TiProgram program;
  CounterCheck counters;
  scan_text(text, file, rank, ranks, &program, counters);
  counters.finish();
  if (rank >= 0)
    check_sequence(program, rank, file);
}

// A list entry as smpirun and libs/mapping/ti_trace.cpp find it: as given, relative to the
// list's directory, or in the tracer's "<list>_files/" layout next to the list (SimGrid's tracer
// writes paths relative to its working directory).
std::string resolve_entry(const std::string& entry, const std::string& list_path, size_t lineno)
{
  // Relative names are relative to the list's directory first (our lists, relocatable), then to
  // the working directory and the tracer's "<name>_files/<file>" layout (SimGrid's tracer's lists).
  const fs::path p(entry), dir = fs::path(list_path).parent_path();
  std::vector<fs::path> tries;
  if (!p.is_absolute()) {
    tries.push_back(dir / p);
    tries.push_back(p);
    if (p.has_parent_path())
      tries.push_back(dir / p.parent_path().filename() / p.filename());
  } else {
    tries.push_back(p);
  }
  for (const auto& c : tries) {
    std::error_code ec;
    if (fs::is_regular_file(c, ec))
      return fs::equivalent(c, p, ec) ? p.string() : c.string(); // as written when it is the same file (messages)
  }
  throw InputError(list_path + ":" + std::to_string(lineno), "trace file '" + entry + "' does not exist",
                   p.is_absolute() ? "this list names absolute paths: make them relative to the list, or record again"
                                   : "keep the list and its rank files together (names are relative to the list's directory)");
}

std::vector<std::string> ti_rank_files(const std::string& list_path)
{
  const std::string text = read_file(list_path, "TI trace");
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> files;
  size_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    auto f = replay_fields(line);
    if (f.empty())
      continue;
    long long rank = -1;
    if (f.size() > 1 && is_int(f[0], rank)) // an action: the list is itself a trace
      return {list_path};
    files.push_back(resolve_entry(text::trim(line), list_path, lineno)); // the whole line, as SimGrid reads it: blanks kept
  }
  if (files.empty())
    throw InputError(list_path, "trace is empty", "record a trace with haec trace record");
  return files;
}

TiProgram read_ti_program(const std::string& list_path, int& ranks)
{
  auto files        = ti_rank_files(list_path);
  const bool shared = files.size() == 1 && files[0] == list_path;
  if (!shared && ranks > 0 && static_cast<int>(files.size()) != ranks)
    throw InputError(list_path, "trace has " + std::to_string(files.size()) + " ranks but -np is " + std::to_string(ranks),
                     "replay with -np " + std::to_string(files.size()));
  if (ranks <= 0 && !shared)
    ranks = static_cast<int>(files.size());
  TiProgram program;
  CounterCheck counters; // across ranks: all computations with counters, or none
  for (size_t r = 0; r < files.size(); ++r)
    scan_text(read_file(files[r], "TI trace"), files[r], shared ? -1 : static_cast<int>(r), ranks, &program, counters);
  counters.finish();
  if (ranks <= 0)
    ranks = static_cast<int>(program.ranks.size());
  if (ranks <= 0)
    throw InputError(list_path, "holds no action", "record a trace with haec trace record");
  program.ranks.resize(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r)
    check_sequence(program, r, shared ? list_path : files[static_cast<size_t>(r)]);
  return program;
}

std::string ti_action_location(const std::string& list_path, int rank, uint64_t ordinal)
{
  const auto files  = ti_rank_files(list_path);
  const bool shared = files.size() == 1 && files[0] == list_path;
  if (!shared && (rank < 0 || static_cast<size_t>(rank) >= files.size()))
    return list_path;
  const std::string& file = shared ? files[0] : files[static_cast<size_t>(rank)];
  std::istringstream in(read_file(file, "TI trace"));
  std::string line;
  uint64_t seen = 0;
  for (size_t lineno = 1; std::getline(in, line); ++lineno) {
    const auto f = replay_fields(line);
    if (f.size() < 2 || f[0][0] == '#' || f[1] == "compute" || f[1] == "sleep" || f[0] != std::to_string(rank))
      continue;
    if (++seen == ordinal)
      return file + ":" + std::to_string(lineno);
  }
  return file;
}

TiProgram read_ti_texts(const std::vector<std::string>& texts, const std::vector<std::string>& files)
{
  TiProgram program;
  CounterCheck counters;
  const int ranks = static_cast<int>(texts.size());
  for (size_t r = 0; r < texts.size(); ++r)
    scan_text(texts[r], files[r], static_cast<int>(r), ranks, &program, counters);
  program.ranks.resize(texts.size());
  for (int r = 0; r < ranks; ++r)
    check_sequence(program, r, files[static_cast<size_t>(r)]);
  return program;
}

void check_ti_trace(const std::string& list_path, int ranks, const MatchOptions& options)
{
  TiProgram program = read_ti_program(list_path, ranks);
  match_ti_program(program, ranks, options);
}

} // namespace haec::trace
