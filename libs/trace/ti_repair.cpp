#include "ti_repair.hpp"

#include "atomic_file.hpp"
#include "counter_annotation.hpp"
#include "input_error.hpp"
#include "ti_check.hpp"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace haec::trace {
namespace {

constexpr int kAny = -333;    // SimGrid's tracer: a source or rank it could not name
constexpr int kAnyTag = -444; // MPI_ANY_TAG

struct Line {
  uint32_t number = 0;
  std::vector<std::string> f;
  std::string text;
};

struct RankLines {
  std::string file;
  std::vector<Line> lines;
};

using Key = std::tuple<int, int, long long>; // src, dst, tag

int to_int(const std::string& s)
{
  return static_cast<int>(std::strtol(s.c_str(), nullptr, 10));
}

// A wait or test of a collective request: SimGrid's tracer names it with -333 ranks or with the
// (negative) tag of SMPI's collective algorithms; -444 is MPI_ANY_TAG, a wildcard receive's.
bool collective_request(int src, int dst, long long tag)
{
  return (src == kAny && dst == kAny) || (tag < 0 && tag != kAnyTag);
}

bool is_p2p(const std::string& a)
{
  return a == "send" || a == "isend" || a == "recv" || a == "irecv";
}

// SimGrid's non-blocking collectives we can express, and how their fields map onto ours
// (SimGrid's tracer prints them as the blocking ones: CollTIData).
bool nb_collective(const std::string& a)
{
  static const std::set<std::string> ok = {"ibarrier", "ibcast", "ireduce", "iallreduce",
                                           "ialltoall", "iallgather", "igather", "iscatter"};
  return ok.count(a) > 0;
}

std::string field(const std::vector<std::string>& f, size_t i, const std::string& fallback)
{
  return i < f.size() ? f[i] : fallback;
}

// "<r> ialltoall 64 64 1 1" -> "<r> haec_ialltoall ID 64 1 64 1" (types default to MPI_DEFAULT_TYPE).
std::string haec_collective(const Line& l, long long id, const std::string& type)
{
  const auto& f       = l.f;
  const std::string r = f[0], a = f[1], i = std::to_string(id);
  if (a == "ibarrier")
    return r + " haec_ibarrier " + i;
  if (a == "ibcast") // count [root] [type]
    return r + " haec_ibcast " + i + " " + f[2] + " " + field(f, 3, "0") + " " + field(f, 4, type);
  if (a == "ireduce") // count comp [root] [type]
    return r + " haec_ireduce " + i + " " + f[2] + " " + field(f, 4, "0") + " " + field(f, 5, type);
  if (a == "iallreduce") // count comp [type]
    return r + " haec_iallreduce " + i + " " + f[2] + " " + field(f, 4, type);
  if (a == "ialltoall" || a == "iallgather") // scount rcount [stype rtype]
    return r + " haec_" + a + " " + i + " " + f[2] + " " + field(f, 4, type) + " " + f[3] + " " +
           field(f, 5, type);
  // igather/iscatter: scount rcount [root] [stype rtype]
  return r + " haec_" + a + " " + i + " " + f[2] + " " + field(f, 5, type) + " " + f[3] + " " +
         field(f, 6, type) + " " + field(f, 4, "0");
}

class Repair {
public:
  Repair(std::vector<RankLines> ranks, RepairResult& out) : ranks_(std::move(ranks)), out_(out) {}

  void run()
  {
    resolve_wildcards();
    for (size_t r = 0; r < ranks_.size(); ++r)
      rewrite_rank(static_cast<int>(r));
  }

private:
  std::vector<RankLines> ranks_;
  RepairResult& out_;
  std::map<std::pair<int, uint32_t>, Key> source_of_; // (rank, line) of a wildcard receive -> its key

  void problem(int r, uint32_t line, const std::string& why)
  {
    out_.problems.push_back(ranks_[static_cast<size_t>(r)].file + ":" + std::to_string(line) + ": " + why);
  }

  // Sends minus receives naming their source, per (src, dst, tag); a wildcard receive takes the
  // only (src, tag) with messages left, or is reported.
  void resolve_wildcards()
  {
    std::map<Key, long long> left;
    std::vector<std::tuple<int, uint32_t, long long>> wildcards; // rank, line, tag (kAnyTag: any)
    for (size_t r = 0; r < ranks_.size(); ++r)
      for (const Line& l : ranks_[r].lines) {
        const std::string& a = l.f[1];
        if (a == "send" || a == "isend")
          ++left[{static_cast<int>(r), to_int(l.f[2]), std::atoll(l.f[3].c_str())}];
        else if (a == "sendRecv")
          ++left[{static_cast<int>(r), to_int(l.f[3]), 0}], --left[{to_int(l.f[5]), static_cast<int>(r), 0}];
        else if ((a == "recv" || a == "irecv") && (to_int(l.f[2]) == kAny || to_int(l.f[3]) == kAnyTag))
          wildcards.emplace_back(static_cast<int>(r), l.number, std::atoll(l.f[3].c_str()));
        else if (a == "recv" || a == "irecv")
          --left[{to_int(l.f[2]), static_cast<int>(r), std::atoll(l.f[3].c_str())}];
      }
    for (auto const& [r, line, tag] : wildcards) {
      std::set<std::pair<int, long long>> candidates;
      for (auto const& [key, n] : left)
        if (n > 0 && std::get<1>(key) == r && (tag == kAnyTag || std::get<2>(key) == tag))
          candidates.insert({std::get<0>(key), std::get<2>(key)});
      if (candidates.size() != 1) {
        std::string who;
        for (auto const& [src, t] : candidates)
          who += (who.empty() ? "" : ", ") + std::to_string(src);
        problem(r, line, "a receive from any source: " +
                             (candidates.empty() ? std::string("no message is left for it")
                                                 : "ranks " + who + " send messages it may have matched") +
                             "; the trace does not say which (record it with `haec trace record`)");
        continue;
      }
      const auto [src, t] = *candidates.begin();
      --left[{src, r, t}];
      source_of_[{r, line}] = Key{src, r, t};
      ++out_.wildcards;
    }
  }

  struct Pending {
    Key wait_key;      // the key the tracer's wait/test lines name (wildcards unresolved)
    Key key;           // the request's real key
    bool collective;   // a non-blocking collective (its wait/test lines say -333 -333)
    long long id;      // its haec_* ID
    long long last_test = -1; // line index of its last test (collectives)
  };

  // Requests still pending after line `i`, per key: how many of those pending now the lines up to
  // the next waitall (or the end) wait for explicitly (oldest first).
  std::map<Key, size_t> waited_later(const std::vector<Line>& lines, size_t i, const std::deque<Pending>& pending)
  {
    std::map<Key, long long> balance, worst;
    for (const Pending& p : pending)
      balance[p.wait_key] = 0, worst[p.wait_key] = 0;
    for (size_t j = i + 1; j < lines.size() && lines[j].f[1] != "waitall"; ++j) {
      const auto& f = lines[j].f;
      Key k;
      if (f[1] == "wait")
        k = {to_int(f[2]), to_int(f[3]), std::atoll(f[4].c_str())};
      else if (f[1] == "isend")
        k = {to_int(f[0]), to_int(f[2]), std::atoll(f[3].c_str())};
      else if (f[1] == "irecv")
        k = {to_int(f[2]), to_int(f[0]), std::atoll(f[3].c_str())};
      else if (nb_collective(f[1]))
        k = {kAny, kAny, 0};
      else
        continue;
      if (collective_request(std::get<0>(k), std::get<1>(k), std::get<2>(k)))
        k = {kAny, kAny, 0}; // every collective request is one stream
      auto it = balance.find(k);
      if (it == balance.end())
        continue;
      it->second += f[1] == "wait" ? 1 : -1;
      worst[k] = std::max(worst[k], it->second);
    }
    std::map<Key, size_t> later;
    for (auto const& [k, w] : worst)
      later[k] = static_cast<size_t>(w);
    return later;
  }

  void rewrite_rank(int r)
  {
    RankLines& rl            = ranks_[static_cast<size_t>(r)];
    const std::string rank   = std::to_string(r);
    std::string type         = "6"; // MPI_DEFAULT_TYPE: MPI_BYTE, MPI_DOUBLE after "init <x>"
    std::deque<Pending> pending;
    std::map<size_t, std::vector<std::string>> replace; // line index -> its replacement lines
    long long next_id = 1;
    for (size_t i = 0; i < rl.lines.size(); ++i) {
      Line& l              = rl.lines[i];
      const std::string& a = l.f[1];
      if (a == "init" && l.f.size() > 2)
        type = "0";
      if (nb_collective(a)) {
        pending.push_back({{kAny, kAny, 0}, {kAny, kAny, 0}, true, next_id, -1});
        replace[i] = {haec_collective(l, next_id++, type)};
        ++out_.collectives;
      } else if (a == "isend" || a == "irecv") {
        Key key = a == "isend" ? Key{r, to_int(l.f[2]), std::atoll(l.f[3].c_str())}
                               : Key{to_int(l.f[2]), r, std::atoll(l.f[3].c_str())};
        Key real = key;
        if (auto s = source_of_.find({r, l.number}); s != source_of_.end()) {
          real       = s->second;
          replace[i] = {rank + " irecv " + std::to_string(std::get<0>(real)) + " " + std::to_string(std::get<2>(real)) +
                        (l.f.size() > 4 ? " " + l.f[4] : "") + (l.f.size() > 5 ? " " + l.f[5] : "")};
        }
        pending.push_back({key, real, false, 0, -1});
      } else if (a == "recv") {
        if (auto s = source_of_.find({r, l.number}); s != source_of_.end())
          replace[i] = {rank + " recv " + std::to_string(std::get<0>(s->second)) + " " +
                        std::to_string(std::get<2>(s->second)) + (l.f.size() > 4 ? " " + l.f[4] : "") +
                        (l.f.size() > 5 ? " " + l.f[5] : "")};
      } else if (a == "wait" || a == "test") {
        rewrite_wait_or_test(r, i, pending, replace);
      } else if (a == "waitall") {
        rewrite_waitall(r, i, pending, replace);
      } else if (a == "finalize") {
        std::vector<std::string> before; // collectives never waited: SimGrid would wait at the end
        for (Pending& p : pending)
          if (p.collective && p.last_test < 0)
            before.push_back(rank + " haec_wait " + std::to_string(p.id));
        before.push_back(l.text);
        replace[i] = before;
      }
    }
    for (const Pending& p : pending) // only polled: completed at its last test
      if (p.collective && p.last_test >= 0)
        complete_at_last_test(r, p, replace);
    std::string text;
    for (size_t i = 0; i < rl.lines.size(); ++i) {
      auto it = replace.find(i);
      if (it == replace.end()) {
        text += rl.lines[i].text + "\n";
        continue;
      }
      for (const auto& line : it->second)
        text += line + "\n";
    }
    out_.rank_texts.push_back(text);
  }

  std::string wait_line(int r, const Pending& p)
  {
    ++out_.waits_written;
    if (p.collective)
      return std::to_string(r) + " haec_wait " + std::to_string(p.id);
    return std::to_string(r) + " wait " + std::to_string(std::get<0>(p.key)) + " " + std::to_string(std::get<1>(p.key)) +
           " " + std::to_string(std::get<2>(p.key));
  }

  void rewrite_wait_or_test(int r, size_t i, std::deque<Pending>& pending, std::map<size_t, std::vector<std::string>>& replace)
  {
    const Line& l    = ranks_[static_cast<size_t>(r)].lines[i];
    const bool wait  = l.f[1] == "wait";
    Key k            = {to_int(l.f[2]), to_int(l.f[3]), std::atoll(l.f[4].c_str())};
    const bool coll  = collective_request(std::get<0>(k), std::get<1>(k), std::get<2>(k));
    auto it          = std::find_if(pending.begin(), pending.end(), [&](const Pending& p) {
      return coll ? p.collective : !p.collective && p.wait_key == k;
    });
    if (it == pending.end()) {
      if (wait || coll)
        problem(r, l.number, l.f[1] + " for a request that is not pending (no isend, irecv or non-blocking "
                                      "collective left for it)");
      return;
    }
    if (!wait) { // a test: SimGrid's own test action for point-to-point; ours for collectives
      if (coll) {
        if (it->last_test >= 0)
          replace[static_cast<size_t>(it->last_test)] = {};
        it->last_test = static_cast<long long>(i);
        replace[i]    = {};
      } else if (it->key != it->wait_key) {
        replace[i] = {std::to_string(r) + " test " + std::to_string(std::get<0>(it->key)) + " " +
                      std::to_string(std::get<1>(it->key)) + " " + std::to_string(std::get<2>(it->key))};
      }
      return;
    }
    if (coll || it->key != it->wait_key) {
      if (it->last_test >= 0)
        replace[static_cast<size_t>(it->last_test)] = {};
      replace[i] = {wait_line(r, *it)};
      --out_.waits_written; // a rewrite, not an extra wait
    }
    pending.erase(it);
  }

  // A collective only polled with test until it completed: its last test is where it completed.
  void complete_at_last_test(int r, const Pending& p, std::map<size_t, std::vector<std::string>>& replace)
  {
    replace[static_cast<size_t>(p.last_test)] = {std::to_string(r) + " haec_wait " + std::to_string(p.id)};
  }

  void rewrite_waitall(int r, size_t i, std::deque<Pending>& pending, std::map<size_t, std::vector<std::string>>& replace)
  {
    const auto& lines = ranks_[static_cast<size_t>(r)].lines;
    const Line& l     = lines[i];
    auto later        = waited_later(lines, i, pending);
    std::deque<Pending> keep;
    std::vector<Pending> done;
    std::map<Key, size_t> kept;
    for (const Pending& p : pending) { // the oldest of each key are the ones waited later
      const Key k = p.collective ? Key{kAny, kAny, 0} : p.wait_key;
      if (kept[k] < later[k])
        ++kept[k], keep.push_back(p);
      else
        done.push_back(p);
    }
    // The count the application gave (SimGrid's tracer writes it): polled collectives beyond it
    // completed at their last test.
    const size_t n = l.f.size() > 2 ? static_cast<size_t>(std::atoll(l.f[2].c_str())) : done.size();
    for (auto it = done.begin(); it != done.end() && done.size() > n;)
      if (it->collective && it->last_test >= 0)
        complete_at_last_test(r, *it, replace), it = done.erase(it);
      else
        ++it;
    if (done.size() > n || (!keep.empty() && done.size() != n)) {
      problem(r, l.number, "waitall " + l.f[2] + ": " + std::to_string(pending.size()) + " requests are pending and " +
                               std::to_string(keep.size()) + " of them are waited later, so it cannot be told which " +
                               l.f[2] + " it completed");
      return;
    }
    std::vector<std::string> out;
    bool p2p = false;
    for (const Pending& p : done) {
      if (!p.collective && keep.empty()) { // SimGrid's waitall completes them, as in the trace
        p2p = true;
        continue;
      }
      if (p.collective && p.last_test >= 0)
        replace[static_cast<size_t>(p.last_test)] = {};
      out.push_back(wait_line(r, p));
    }
    if (p2p)
      out.push_back(l.text);
    replace[i] = out;
    if (!keep.empty())
      ++out_.waitalls_rewritten;
    pending = keep;
  }
};

// Every line, per rank, checked as the checker does except for what the repair rewrites.
std::vector<RankLines> read_lines(const std::string& list_path, int& ranks)
{
  auto files        = ti_rank_files(list_path);
  const bool shared = files.size() == 1 && files[0] == list_path;
  if (ranks <= 0 && !shared)
    ranks = static_cast<int>(files.size());
  std::vector<RankLines> by_rank;
  for (size_t fi = 0; fi < files.size(); ++fi) {
    std::istringstream in(read_file(files[fi], "TI trace"));
    uint32_t number = 0;
    for (std::string text; std::getline(in, text);) {
      ++number;
      Line l{number, split_fields(text), text};
      const std::string at = files[fi] + ":" + std::to_string(number);
      // Counter annotations ride along unchanged before their compute; other comments are dropped.
      const bool counters = !l.f.empty() && parse_counter_annotation(l.f, at).has_value();
      if (l.f.empty() || (l.f[0][0] == '#' && !counters))
        continue;
      const std::string& a = l.f.size() > 1 ? l.f[1] : "";
      const bool rewritten = nb_collective(a) || a == "waitall" ||
                             ((a == "wait" || a == "test") && l.f.size() == 5) ||
                             (is_p2p(a) && l.f.size() >= 5 && (l.f[2] == "-333" || l.f[3] == "-444"));
      if (!rewritten && !counters)
        check_ti_line(l.f, at, shared ? -1 : static_cast<int>(fi), ranks);
      const int r = shared ? to_int(l.f[counters ? 1 : 0]) : static_cast<int>(fi);
      if (r < 0 || r >= (ranks > 0 ? ranks : 1 << 22))
        throw InputError(at, "rank " + l.f[0] + " is not a rank of the trace", "the trace is corrupt");
      if (static_cast<size_t>(r) >= by_rank.size())
        by_rank.resize(static_cast<size_t>(r) + 1);
      by_rank[static_cast<size_t>(r)].file = files[fi];
      by_rank[static_cast<size_t>(r)].lines.push_back(std::move(l));
    }
  }
  if (ranks > 0)
    by_rank.resize(static_cast<size_t>(ranks));
  return by_rank;
}

} // namespace

RepairResult repair_ti_trace(const std::string& list_path, int ranks)
{
  RepairResult out;
  auto lines = read_lines(list_path, ranks);
  Repair(std::move(lines), out).run();
  if (!out.problems.empty())
    out.rank_texts.clear();
  return out;
}

} // namespace haec::trace
