// TI trace checker: see ti_check.hpp. Action syntax: SimGrid 3.32 src/smpi/internals/smpi_replay.cpp
// (field counts of each parser's CHECK_ACTION_PARAMS) and our own actions
// (core/replay_extra_actions.cpp).
#include "ti_check.hpp"

#include "atomic_file.hpp"
#include "input_error.hpp"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
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
      {"sendRecv", {4, 6}},    {"barrier", {0, 0}},    {"bcast", {1, 3}},      {"reduce", {2, 4}},
      {"allreduce", {2, 3}},   {"alltoall", {2, 4}},   {"gather", {2, 5}},     {"scatter", {2, 5}},
      {"allgather", {2, 4}},   {"scan", {2, 3}},       {"exscan", {2, 3}},     {"compute", {1, 1}},
      {"sleep", {1, 1}},       {"location", {2, 2}},   {"haec_ibarrier", {1, 1}}, {"haec_ibcast", {4, 4}},
      {"haec_ireduce", {4, 4}}, {"haec_iallreduce", {3, 3}}, {"haec_ialltoall", {5, 5}},
      {"haec_iallgather", {5, 5}}, {"haec_igather", {6, 6}}, {"haec_iscatter", {6, 6}}, {"haec_wait", {1, 1}},
      // one-sided communication (core/replay_rma_actions.cpp); post/start end with a group of any size
      {"haec_barrier", {0, 0}}, {"haec_win_create", {3, 3}}, {"haec_win_allocate", {3, 3}}, {"haec_win_free", {1, 1}},
      {"haec_win_fence", {2, 2}}, {"haec_win_lock", {4, 4}},
      {"haec_win_unlock", {2, 2}}, {"haec_win_lock_all", {2, 2}}, {"haec_win_unlock_all", {1, 1}},
      {"haec_win_flush", {2, 2}}, {"haec_win_flush_local", {2, 2}}, {"haec_win_flush_all", {1, 1}},
      {"haec_win_flush_local_all", {1, 1}}, {"haec_win_post", {3, INT_MAX}}, {"haec_win_start", {3, INT_MAX}},
      {"haec_win_complete", {1, 1}}, {"haec_win_wait", {1, 1}}, {"haec_put", {7, 7}}, {"haec_get", {7, 7}},
      {"haec_accumulate", {8, 8}}, {"haec_get_accumulate", {10, 10}}, {"haec_compare_and_swap", {5, 5}}};
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

bool is_number(const std::string& s)
{
  if (s.empty())
    return false;
  char* end = nullptr;
  errno     = 0;
  double v  = std::strtod(s.c_str(), &end);
  return end != s.c_str() && *end == '\0' && errno != ERANGE && std::isfinite(v);
}

bool is_int(const std::string& s, long long& v)
{
  if (!is_number(s))
    return false;
  double d = std::strtod(s.c_str(), nullptr);
  if (d != std::trunc(d) || std::fabs(d) > 9e15)
    return false;
  v = static_cast<long long>(d);
  return true;
}

std::vector<std::string> split(const std::string& line)
{
  std::vector<std::string> f;
  std::istringstream in(line);
  std::string w;
  while (in >> w)
    f.push_back(w);
  return f;
}

const char* kRecord = "record the trace with `haec trace record` (libs/trace/README.md)";

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
                     kRecord);
  } else {
    throw InputError(at, "unknown action '" + action + "'", "SimGrid 3.32 TI actions and haec_* actions only; " +
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
  // Peers of point-to-point actions.
  if ((action == "send" || action == "isend" || action == "recv" || action == "irecv") && ranks > 0) {
    long long peer = 0;
    if (!is_int(f[2], peer))
      throw InputError(at, "peer '" + f[2] + "' is not an integer", "the trace is corrupt");
    if (peer < 0)
      throw InputError(at, action + " from/to " + f[2] +
                               " (a wildcard source as SimGrid's tracer writes MPI_ANY_SOURCE): the replay would match "
                               "the wrong message",
                       kRecord);
    if (peer >= ranks)
      throw InputError(at, "peer " + f[2] + " is not a rank of the " + std::to_string(ranks) + "-rank replay", "");
  }
}

} // namespace

void check_ti_rank_text(const std::string& text, const std::string& file, int rank, int ranks)
{
  size_t start = 0, lineno = 0;
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
    auto f = split(line);
    if (f.empty() || f[0][0] == '#')
      continue;
    check_line(f, at, rank, ranks);
  }
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
    auto f = split(line);
    if (f.empty())
      continue;
    if (f.size() > 1) // an action: the list is itself a trace
      return {list_path};
    // Relative names are relative to the list's directory (ours since the trace became
    // relocatable); the working directory is tried second (SimGrid's tracer writes such lists).
    fs::path p(f[0]);
    if (!p.is_absolute()) {
      const fs::path beside = fs::path(list_path).parent_path() / p;
      if (fs::exists(beside) || !fs::exists(p))
        p = beside;
    }
    if (!fs::is_regular_file(p))
      throw InputError(list_path + ":" + std::to_string(lineno), "trace file '" + f[0] + "' does not exist",
                       fs::path(f[0]).is_absolute()
                           ? "this list names absolute paths: make them relative to the list, or record again"
                           : "keep the list and its rank files together (names are relative to the list's directory)");
    files.push_back(p.string());
  }
  if (files.empty())
    throw InputError(list_path, "trace is empty", "record a trace with haec trace record");
  return files;
}

void check_ti_trace(const std::string& list_path, int ranks)
{
  auto files = ti_rank_files(list_path);
  const bool shared = files.size() == 1 && files[0] == list_path;
  if (!shared && ranks > 0 && static_cast<int>(files.size()) != ranks)
    throw InputError(list_path, "trace has " + std::to_string(files.size()) + " ranks but -np is " + std::to_string(ranks),
                     "replay with -np " + std::to_string(files.size()));
  if (ranks <= 0 && !shared)
    ranks = static_cast<int>(files.size());
  for (size_t r = 0; r < files.size(); ++r)
    check_ti_rank_text(read_file(files[r], "TI trace"), files[r], shared ? -1 : static_cast<int>(r), ranks);
}

} // namespace haec::trace
