// Communication matrix from a SimGrid 3.32 time-independent (TI) trace.
// Syntax (src/smpi/internals/smpi_replay.cpp, v3.32), fields separated by blanks/tabs, lines starting
// with '#' and blank lines skipped (src/xbt/xbt_replay.cpp):
//   <rank> send|isend <dst> <tag> <count> [datatype]          -> one message rank -> dst
//   <rank> sendRecv <sendcount> <dst> <recvcount> <src> <sendtype> <recvtype>
//                                                            -> one message rank -> dst
//   <rank> init [x]   an extra argument switches that rank's default datatype to MPI_DOUBLE
// Counts are in datatype units: bytes = count * size(datatype); without a datatype field the replay
// uses MPI_DEFAULT_TYPE (MPI_BYTE, or MPI_DOUBLE after "init x"). Counts may be written "1e6"; the
// replay truncates them, so do we. The tracer also writes Ssend, ISsend, bsend, ibsend with the send
// layout; they are real messages, so they count too. Every other action (recv, collectives,
// compute, unknown names) is ignored.
// A path is either a trace (lines with >= 2 fields) or a list of traces (one path per line), as
// smpirun -replay takes it: a 1-entry list names a shared trace with every rank's actions; with k > 1
// entries, entry i is rank i's trace and must hold only rank i's actions.
#include "input_error.hpp"
#include "mapping_detail.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

namespace haec::mapping {
namespace {

namespace fs = std::filesystem;
using detail::where;

// <rank> ACTION <dst> <tag> <count> [datatype]; haec's buffered and synchronous sends alike, their
// non-blocking ones with a request ID first (libs/trace/README.md).
const std::set<std::string> kSendLike = {"send", "isend", "Ssend", "ISsend", "bsend", "ibsend", "haec_bsend", "haec_ssend"};
const std::set<std::string> kSendAfterId = {"haec_ibsend", "haec_issend"};

struct Traffic {
  std::map<std::pair<int, int>, std::pair<uint64_t, uint64_t>> pairs; // (src,dst) -> messages, bytes
  std::map<int, int> default_size;                                    // rank -> MPI_DEFAULT_TYPE size
  int max_rank    = -1;
  bool any_action = false;
};

bool is_comment_or_blank(const std::string& line)
{
  const std::string t = detail::trim(line);
  return t.empty() || t[0] == '#';
}

// A rank field: non-negative integer below the dense-matrix limit.
int rank_field(const std::string& text, const std::string& at, const std::string& name)
{
  long long v = -1;
  if (!detail::parse_i64(text, v) || v < 0)
    throw InputError(at, name + " '" + text + "' is not a rank (non-negative integer)", "check the trace line");
  if (v >= detail::kMaxMatrixRanks)
    throw InputError(at, name + " " + text + " is too large",
                     "ranks must be below " + std::to_string(detail::kMaxMatrixRanks));
  return static_cast<int>(v);
}

// An element count as the replay reads it: a decimal or scientific number, truncated.
uint64_t count_field(const std::string& text, const std::string& at, const std::string& name)
{
  const char* b = text.c_str();
  char* e       = nullptr;
  errno         = 0;
  double v      = std::strtod(b, &e);
  if (e == b || *e != '\0' || errno == ERANGE || !std::isfinite(v) || v < 0 || v >= 9.2e18)
    throw InputError(at, name + " '" + text + "' is not a non-negative number", "check the trace line");
  return static_cast<uint64_t>(std::trunc(v));
}

uint64_t datatype_size(const std::vector<std::string>& f, size_t i, int rank, const Traffic& t, const std::string& at)
{
  if (i >= f.size()) {
    auto it = t.default_size.find(rank);
    return it == t.default_size.end() ? 1 : static_cast<uint64_t>(it->second);
  }
  const int size = detail::ti_datatype_size(f[i]);
  if (size < 0)
    throw InputError(at, "unknown datatype id '" + f[i] + "'", "SimGrid 3.32 datatype ids are -1 and 0..59");
  return static_cast<uint64_t>(size);
}

void add(Traffic& t, int src, int dst, uint64_t bytes)
{
  auto& cell = t.pairs[{src, dst}];
  cell.first += 1;
  cell.second += bytes;
  t.max_rank = std::max({t.max_rank, src, dst});
}

// Reads the actions of one trace file; only_rank >= 0 when the file belongs to one rank.
void read_actions(const std::string& path, int only_rank, Traffic& t)
{
  const auto lines = detail::split_lines(detail::read_text_file(path, "TI trace"));
  for (size_t li = 0; li < lines.size(); ++li) {
    if (is_comment_or_blank(lines[li]))
      continue;
    const std::string at = where(path, li + 1);
    const auto f         = detail::split_ws(lines[li]);
    if (f.size() < 2)
      throw InputError(at, "expected '<rank> <action> ...', got '" + detail::trim(lines[li]) + "'",
                       "give a SimGrid time-independent trace");
    const std::string& action = f[1];
    const bool sends = kSendLike.count(action) > 0 || kSendAfterId.count(action) > 0 || action == "sendRecv";
    long long rank_ll         = -1;
    if (!sends && (!detail::parse_i64(f[0], rank_ll) || rank_ll < 0))
      continue; // not an SMPI rank line and nothing we count: ignore like any unknown action
    const int rank = rank_field(f[0], at, "rank");
    if (only_rank >= 0 && rank != only_rank)
      throw InputError(at, "action of rank " + f[0] + " in the trace of rank " + std::to_string(only_rank),
                       "list the per-rank traces in rank order, one file per rank");
    t.any_action = true;
    t.max_rank   = std::max(t.max_rank, rank);
    if (action == "init") {
      t.default_size[rank] = f.size() > 2 ? 8 : 1; // MPI_DOUBLE (MPE traces) : MPI_BYTE (TAU traces)
    } else if (kSendLike.count(action) > 0 || kSendAfterId.count(action) > 0) {
      const size_t at_dst = kSendAfterId.count(action) ? 3 : 2;
      if (f.size() < at_dst + 3)
        throw InputError(at, action + " needs '<dst> <tag> <count> [datatype]'", "check the trace line");
      const int dst = rank_field(f[at_dst], at, "destination");
      long long tag = 0;
      if (!detail::parse_i64(f[at_dst + 1], tag))
        throw InputError(at, "tag '" + f[at_dst + 1] + "' is not an integer", "check the trace line");
      const uint64_t count = count_field(f[at_dst + 2], at, "count");
      add(t, rank, dst, count * datatype_size(f, at_dst + 3, rank, t, at));
    } else if (action == "sendRecv") {
      if (f.size() < 8)
        throw InputError(at, "sendRecv needs '<sendcount> <dst> <recvcount> <src> <sendtype> <recvtype>'",
                         "check the trace line");
      const uint64_t count = count_field(f[2], at, "send count");
      const int dst        = rank_field(f[3], at, "destination");
      count_field(f[4], at, "receive count");
      const int src = rank_field(f[5], at, "source");
      datatype_size(f, 7, rank, t, at); // validated, the receive side carries no traffic of its own
      add(t, rank, dst, count * datatype_size(f, 6, rank, t, at));
      t.max_rank = std::max(t.max_rank, src);
    }
  }
}

// A list entry: absolute as is; else relative to the list's directory; else the tracer's
// "<name>_files/<file>" layout under the list's directory (the tracer writes paths relative to
// its working directory); else relative to the working directory (what smpirun does).
std::string resolve(const std::string& entry, const std::string& list_path, size_t lineno)
{
  const fs::path p(entry);
  if (p.is_absolute())
    return entry;
  const fs::path dir = fs::path(list_path).parent_path();
  std::vector<fs::path> tries{dir / p};
  if (p.has_parent_path())
    tries.push_back(dir / p.parent_path().filename() / p.filename());
  tries.push_back(p);
  std::string looked;
  for (const auto& c : tries) {
    std::error_code ec;
    if (fs::is_regular_file(c, ec))
      return c.string();
    looked += (looked.empty() ? "" : ", ") + c.string();
  }
  throw InputError(where(list_path, lineno), "trace file '" + entry + "' not found (looked at " + looked + ")",
                   "keep the per-rank traces next to the list file");
}

} // namespace

CommMatrix read_ti_trace(const std::string& path)
{
  const auto lines = detail::split_lines(detail::read_text_file(path, "TI trace"));
  std::vector<std::pair<std::string, size_t>> entries; // single-field lines: a list of traces
  bool is_list = false;
  for (size_t li = 0; li < lines.size(); ++li) {
    if (is_comment_or_blank(lines[li]))
      continue;
    // An action starts with its rank; any other line names a file, blanks included (SimGrid reads
    // a list's lines whole).
    const auto f = detail::split_ws(lines[li]);
    if (f.size() != 1 && !f[0].empty() && f[0].find_first_not_of("0123456789") == std::string::npos) {
      is_list = false;
      break;
    }
    is_list = true;
    entries.emplace_back(detail::trim(lines[li]), li + 1);
  }

  Traffic t;
  int listed_ranks = 0;
  if (!is_list) {
    read_actions(path, -1, t);
  } else if (entries.size() == 1) {
    read_actions(resolve(entries[0].first, path, entries[0].second), -1, t);
  } else {
    listed_ranks = static_cast<int>(entries.size());
    for (size_t r = 0; r < entries.size(); ++r)
      read_actions(resolve(entries[r].first, path, entries[r].second), static_cast<int>(r), t);
  }
  if (!t.any_action && listed_ranks == 0)
    throw InputError(path, "holds no action line '<rank> <action> ...'",
                     "give a SimGrid TI trace or the list file the tracer wrote");
  CommMatrix m = detail::zero_matrix(std::max(t.max_rank + 1, listed_ranks), path);
  for (auto const& [key, v] : t.pairs) {
    const size_t cell = static_cast<size_t>(key.first) * m.ranks + key.second;
    m.messages[cell]  = v.first;
    m.bytes[cell]     = v.second;
  }
  return m;
}

} // namespace haec::mapping
