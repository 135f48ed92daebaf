// The fields of our haec_* actions: see ti_schema.hpp.
#include "ti_schema.hpp"

#include "input_error.hpp"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <map>

namespace haec::trace {
namespace {

const char* kCorrupt = "the trace is corrupt; record it again with haec trace record";

using Schemas = std::vector<std::string>;

// Blocking collectives on a communicator; each also has a non-blocking haec_i<op> "I" + schema.
const std::map<std::string, Schemas>& collective_schemas()
{
  static const std::map<std::string, Schemas> s = {
      {"barrier", {"C"}},        {"bcast", {"Cnrt"}},           {"reduce", {"Cnrt?q"}},
      {"allreduce", {"Cnt?q"}},  {"scan", {"Cnt?q"}},           {"exscan", {"Cnt?q"}},
      {"reduce_scatter_block", {"Cnt?q"}}, {"reduce_scatter", {"Cqt*n"}}, {"gather", {"Cptntr"}},
      {"scatter", {"Cntptr"}},   {"allgather", {"Cptnt"}},      {"alltoall", {"Cptnt"}},
      {"gatherv", {"Cpttr*n"}},  {"scatterv", {"Ctptr*n"}},     {"allgatherv", {"Cptt*n"}},
      {"alltoallv", {"Ctt*p"}},  {"alltoallw", {"C*pt"}}};
  return s;
}

const std::map<std::string, Schemas>& schemas()
{
  static const std::map<std::string, Schemas> all = [] {
    std::map<std::string, Schemas> s = {
        // communicators (pmpi/record_comm.cpp)
        {"haec_comm_split", {"CNck"}}, {"haec_comm_dup", {"CN"}}, {"haec_comm_create", {"CN#R"}},
        {"haec_comm_split_type", {"CN#R"}}, {"haec_comm_free", {"C"}},
        // buffered and synchronous sends, request completion (pmpi/record_p2p.cpp)
        {"haec_bsend", {"Rgnt"}}, {"haec_ssend", {"Rgnt"}}, {"haec_ibsend", {"IRgnt"}}, {"haec_issend", {"IRgnt"}},
        {"haec_wait", {"I"}}, {"haec_request_free", {"I"}},
        // one-sided communication (pmpi/record_rma.cpp)
        {"haec_win_create", {"Wdu?C"}}, {"haec_win_allocate", {"Wdu?C"}}, {"haec_win_allocate_shared", {"Wdu?C"}},
        {"haec_win_create_dynamic", {"W?C"}}, {"haec_win_attach", {"Wd"}}, {"haec_win_detach", {"W"}},
        {"haec_win_free", {"W"}}, {"haec_win_fence", {"Wa"}}, {"haec_win_lock", {"WLra"}}, {"haec_win_unlock", {"Wr"}},
        {"haec_win_lock_all", {"Wa"}}, {"haec_win_unlock_all", {"W"}}, {"haec_win_flush", {"Wr"}},
        {"haec_win_flush_local", {"Wr"}}, {"haec_win_flush_all", {"W"}}, {"haec_win_flush_local_all", {"W"}},
        {"haec_win_post", {"Wa#R"}}, {"haec_win_start", {"Wa#R"}}, {"haec_win_complete", {"W"}},
        {"haec_win_wait", {"W"}}, {"haec_put", {"Wrntdnt"}}, {"haec_get", {"Wrntdnt"}},
        {"haec_accumulate", {"Wrntdnto"}}, {"haec_get_accumulate", {"Wrntntdnto"}},
        {"haec_compare_and_swap", {"Wrtds"}}, {"haec_rput", {"IWrntdnt"}}, {"haec_rget", {"IWrntdnt"}},
        {"haec_raccumulate", {"IWrntdnto"}}, {"haec_rget_accumulate", {"IWrntntdnto"}}};
    for (auto const& [op, list] : collective_schemas()) {
      Schemas nb;
      for (auto const& one : list)
        nb.push_back("I" + one);
      s["haec_" + op] = op == "barrier" ? Schemas{"?C"} : list; // haec_barrier alone: MPI_COMM_WORLD's
      s["haec_i" + op] = nb;
    }
    // The first eight non-blocking collectives before communicators were recorded (MPI_COMM_WORLD).
    for (auto const& [op, old] : std::map<std::string, std::string>{{"ibarrier", "I"},        {"ibcast", "Inrt"},
                                                                    {"ireduce", "Inrt"},       {"iallreduce", "Int"},
                                                                    {"ialltoall", "Iptnt"},    {"iallgather", "Iptnt"},
                                                                    {"igather", "Iptntr"},     {"iscatter", "Intptr"}})
      s["haec_" + op].push_back(old);
    return s;
  }();
  return all;
}

// Fields a schema takes: exactly `fixed` (then `optional` more), or at least `fixed` with a tail.
struct Shape {
  size_t fixed = 0, optional = 0;
  std::string tail;     // "*X...": repeated group
  bool counted = false; // "#X": a count then that many
};

Shape shape(const std::string& schema)
{
  Shape s;
  for (size_t i = 0; i < schema.size(); ++i) {
    if (schema[i] == '?') {
      ++s.optional, ++i;
    } else if (schema[i] == '*') {
      s.tail = schema.substr(i + 1);
      break;
    } else if (schema[i] == '#') {
      s.counted = true;
      s.tail    = schema.substr(i + 1);
      ++s.fixed; // the count itself
      break;
    } else {
      ++s.fixed;
    }
  }
  return s;
}

bool fits(const Shape& s, size_t args, const std::vector<std::string>& f)
{
  if (s.counted) {
    if (args < s.fixed)
      return false;
    char* end = nullptr;
    const long long n = std::strtoll(f[2 + s.fixed - 1].c_str(), &end, 10);
    return *end == '\0' && n >= 0 && args == s.fixed + static_cast<size_t>(n);
  }
  if (!s.tail.empty())
    return args >= s.fixed && (args - s.fixed) % s.tail.size() == 0;
  return args >= s.fixed && args <= s.fixed + s.optional;
}

std::string arity_text(const std::string& action, const Schemas& list)
{
  std::string out;
  for (auto const& one : list) {
    const Shape s = shape(one);
    std::string n = std::to_string(s.fixed);
    if (s.optional)
      n += " or " + std::to_string(s.fixed + s.optional);
    else if (s.counted)
      n += " plus the count given";
    else if (!s.tail.empty())
      n += " or more";
    out += (out.empty() ? "" : ", or ") + n;
  }
  return action + " takes " + out + " arguments";
}

const char* kind_name(char k)
{
  switch (k) {
  case 'C': return "communicator";
  case 'N': return "new communicator";
  case 'W': return "window";
  case 'I': return "request id";
  case 'R': return "rank";
  case 'r': return "rank";
  case 'n': return "count";
  case 'p': return "count";
  case 't': return "datatype id";
  case 'g': return "tag";
  case 'k': return "key";
  case 'c': return "color";
  case 'a': return "assert";
  case 'L': return "lock type";
  case 'o': return "operation";
  case 'q': return "reduction class";
  case 's': return "swapped flag";
  case 'd': return "size or displacement";
  default: return "displacement unit";
  }
}

bool integer(const std::string& s, long long& v)
{
  if (s.empty())
    return false;
  char* end = nullptr;
  errno     = 0;
  const double d = std::strtod(s.c_str(), &end);
  if (*end != '\0' || errno == ERANGE || !std::isfinite(d) || d != std::trunc(d) || std::fabs(d) > 9007199254740992.0)
    return false;
  v = static_cast<long long>(d);
  return true;
}

void check_field(char k, const std::string& text, size_t index, const std::string& action, const std::string& at,
                 int ranks)
{
  long long v = 0;
  const std::string what = "argument " + std::to_string(index) + " of " + action + " (" + kind_name(k) + ") '" + text + "'";
  if (!integer(text, v))
    throw InputError(at, what + " is not an integer", kCorrupt);
  long long lo = 0, hi = 9007199254740992LL;
  switch (k) {
  case 'N': case 'c': case 'p': lo = -1; break;
  case 'k': lo = INT_MIN, hi = INT_MAX; break;
  case 't': hi = v >= 1000 ? 1000 + (1LL << 30) : 14; break;
  case 'L': lo = 1, hi = 2; break;
  case 'o': case 's': case 'q': hi = 1; break;
  case 'C': case 'W': case 'I': case 'r': case 'n': case 'g': case 'a': case 'u': hi = INT_MAX; break;
  default: break;
  }
  if (k == 'R' && v >= 0 && ranks > 0 && v >= ranks)
    throw InputError(at, what + " is not a rank of the " + std::to_string(ranks) + "-rank replay",
                     "replay with -np " + std::to_string(v + 1) + " or more, or fix the trace");
  if (v < lo || v > hi) {
    std::string range = k == 't' ? "in 0..14, or 1000 + the size of a derived type (the datatype ids haec writes)"
                        : k == 'L' ? "1 (exclusive) or 2 (shared)"
                        : k == 'o' || k == 's' || k == 'q' ? "0 or 1"
                        : v > hi ? "at most " + std::to_string(hi) + (hi == INT_MAX ? " (an MPI int)" : "")
                        : lo == -1 ? (k == 'p' ? ">= 0, or -1 for MPI_IN_PLACE" : ">= -1")
                                   : ">= 0";
    throw InputError(at, what + " must be " + range, kCorrupt);
  }
}

} // namespace

const std::vector<std::string>* haec_schemas(const std::string& action)
{
  auto it = schemas().find(action);
  return it == schemas().end() ? nullptr : &it->second;
}

const std::string& check_haec_line(const std::vector<std::string>& f, const std::string& at, int ranks)
{
  const Schemas& list = *haec_schemas(f[1]);
  const size_t args   = f.size() - 2;
  for (auto const& one : list) {
    const Shape s = shape(one);
    if (!fits(s, args, f))
      continue;
    size_t field = 2;
    for (size_t i = 0; i < one.size() && field < f.size(); ++i) {
      const char c = one[i];
      if (c == '?')
        continue;
      if (c == '*' || c == '#') {
        if (c == '#') // the count, already read by fits()
          check_field('n', f[field], field - 1, f[1], at, ranks), ++field;
        const std::string tail = one.substr(i + 1);
        for (size_t k = 0; field < f.size(); ++k, ++field)
          check_field(tail[k % tail.size()], f[field], field - 1, f[1], at, ranks);
        break;
      }
      check_field(c, f[field], field - 1, f[1], at, ranks);
      ++field;
    }
    return one;
  }
  std::string problem = arity_text(f[1], list) + ", got " + std::to_string(args);
  if (list.front().find('#') != std::string::npos && args >= shape(list.front()).fixed)
    problem = f[1] + " announces " + f[2 + shape(list.front()).fixed - 1] + " ranks but lists " +
              std::to_string(args - shape(list.front()).fixed);
  throw InputError(at, problem, "the trace may be truncated or corrupt");
}

std::vector<long long> haec_fields(const std::vector<std::string>& f)
{
  const Schemas& list = *haec_schemas(f[1]);
  std::vector<long long> v;
  v.reserve(f.size());
  for (size_t i = 2; i < f.size(); ++i)
    v.push_back(static_cast<long long>(std::strtod(f[i].c_str(), nullptr)));
  const Shape first = shape(list.front());
  if (list.size() > 1 && !fits(first, f.size() - 2, f) && !v.empty()) // an older layout: no communicator
    v.insert(v.begin() + 1, 0);
  else if (first.optional && v.size() == first.fixed) // an optional communicator left out
    v.push_back(0);
  return v;
}

} // namespace haec::trace
