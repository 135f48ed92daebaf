#include "ti_match.hpp"

#include "blocked_ranks.hpp"
#include "input_error.hpp"

#include <deque>
#include <filesystem>
#include <map>
#include <unordered_map>

namespace haec::trace {
namespace {

constexpr size_t kLineBudget = 240;

struct Key {
  int src, dst;
  long long tag;
  bool operator==(const Key& o) const { return src == o.src && dst == o.dst && tag == o.tag; }
};
struct KeyHash {
  size_t operator()(const Key& k) const
  {
    return std::hash<long long>()((static_cast<long long>(k.src) * 1000003 + k.dst) * 1000003 + k.tag);
  }
};

// One (src, dst, tag) stream: the k-th send matches the k-th receive (no wildcards here).
struct Channel {
  Key key{};
  uint64_t sends = 0, recvs = 0;
  uint32_t first_send_line = 0;
  std::vector<int> waiting; // ranks to re-run when something is posted here
};

struct Request {
  uint32_t channel = 0;
  uint64_t k       = 0; // its position in the channel
  bool send        = false;
  bool eager       = false; // a detached send: complete once posted
  bool null        = false; // completed by a test (SimGrid keeps a null request for the wait)
};

struct RankState {
  size_t pc    = 0;
  bool posted  = false; // the current action's sends/receives are posted
  bool done    = false;
  std::vector<Request> waiting_for;
  std::unordered_map<Key, std::deque<Request>, KeyHash> store;
  size_t stored      = 0;
  uint64_t colls     = 0; // collectives entered
  uint64_t nb_colls  = 0;
  uint64_t coll_k    = 0; // the collective (or non-blocking one, for NbWait) it waits for
  std::unordered_map<long long, uint64_t> nb_ids; // haec_i* ID -> its collective number
};

struct Collective {
  uint16_t name    = 0;
  int first_rank   = -1;
  uint32_t line    = 0;
  int arrived      = 0;
  std::vector<int> waiting;
};

std::string base(const std::string& file)
{
  return std::filesystem::path(file).filename().string();
}

std::string ordinal(uint64_t k)
{
  const char* s = (k % 100 >= 11 && k % 100 <= 13) ? "th" : k % 10 == 1 ? "st" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd" : "th";
  return std::to_string(k) + s;
}

class Matcher {
public:
  Matcher(const TiProgram& p, int ranks, const MatchOptions& o) : p_(p), ranks_(ranks), opt_(o), state_(ranks) {}

  void run()
  {
    for (int r = 0; r < ranks_; ++r)
      ready_.push_back(r);
    while (!ready_.empty()) {
      int r = ready_.front();
      ready_.pop_front();
      step(r);
    }
    std::vector<BlockedRank> blocked;
    for (int r = 0; r < ranks_; ++r)
      if (!state_[r].done)
        blocked.push_back(describe(r));
    if (!blocked.empty())
      throw DeadlockError("deadlock: " + describe_blocked_ranks(blocked, {}, kLineBudget));
    check_all_received();
  }

private:
  const TiProgram& p_;
  int ranks_;
  MatchOptions opt_;
  std::vector<RankState> state_;
  std::unordered_map<Key, uint32_t, KeyHash> channel_of_;
  std::vector<Channel> channels_;
  std::vector<Collective> colls_, nb_colls_;
  std::deque<int> ready_;

  const RankActions& actions(int r) const { return p_.ranks[static_cast<size_t>(r)]; }
  std::string at(int r, const TiAction& a) const { return actions(r).file + ":" + std::to_string(a.line); }

  uint32_t channel(int src, int dst, long long tag, int r, const TiAction& a)
  {
    for (int peer : {src, dst})
      if (peer < 0 || peer >= ranks_)
        throw InputError(at(r, a), action_name(a.name) + " names rank " + std::to_string(peer) + ", not a rank of the " +
                                       std::to_string(ranks_) + "-rank replay",
                         "replay with -np " + std::to_string(peer + 1) + " or more, or fix the trace");
    auto [it, added] = channel_of_.try_emplace(Key{src, dst, tag}, static_cast<uint32_t>(channels_.size()));
    if (added)
      channels_.push_back(Channel{Key{src, dst, tag}, 0, 0, 0, {}});
    return it->second;
  }

  void wake(std::vector<int>& waiting)
  {
    for (int r : waiting)
      ready_.push_back(r);
    waiting.clear();
  }

  Request post_send(int r, const TiAction& a, int dst, uint64_t bytes)
  {
    const uint32_t c = channel(r, dst, a.tag, r, a);
    Channel& ch      = channels_[c];
    if (ch.sends++ == 0)
      ch.first_send_line = a.line;
    wake(ch.waiting);
    return Request{c, ch.sends, true, bytes < opt_.detached_send_threshold, false};
  }

  Request post_recv(int r, const TiAction& a, int src)
  {
    const uint32_t c = channel(src, r, a.tag, r, a);
    Channel& ch      = channels_[c];
    ++ch.recvs;
    wake(ch.waiting);
    return Request{c, ch.recvs, false, false, false};
  }

  bool complete(const Request& q) const
  {
    const Channel& ch = channels_[q.channel];
    return q.null || (q.send ? q.eager || ch.recvs >= q.k : ch.sends >= q.k);
  }

  void store(RankState& s, const Request& q)
  {
    s.store[channels_[q.channel].key].push_back(q);
    ++s.stored;
  }

  // SimGrid's RequestStorage::pop: the oldest request with that key.
  bool pop(RankState& s, const Key& k, Request& q)
  {
    auto it = s.store.find(k);
    if (it == s.store.end())
      return false;
    q = it->second.front();
    it->second.pop_front();
    if (it->second.empty())
      s.store.erase(it);
    --s.stored;
    return true;
  }

  void take_all(RankState& s)
  {
    for (auto& [key, reqs] : s.store)
      for (auto& q : reqs)
        s.waiting_for.push_back(q);
    s.store.clear();
    s.stored = 0;
  }

  void enter_collective(int r, const TiAction& a, std::vector<Collective>& list, uint64_t k, const char* kind)
  {
    if (list.size() < k)
      list.resize(k);
    Collective& c = list[k - 1];
    if (c.first_rank < 0) {
      c.name       = a.name;
      c.first_rank = r;
      c.line       = a.line;
    } else if (c.name != a.name) {
      throw InputError(at(r, a), "rank " + std::to_string(r) + "'s " + ordinal(k) + " " + kind + " is " +
                                     action_name(a.name) + ", rank " + std::to_string(c.first_rank) + "'s is " +
                                     action_name(c.name) + " (" + base(actions(c.first_rank).file) + ":" +
                                     std::to_string(c.line) + ")",
                       "every rank calls the same collectives in the same order; the trace is corrupt");
    }
    if (++c.arrived == ranks_)
      wake(c.waiting);
  }

  void post(int r, const TiAction& a)
  {
    RankState& s = state_[r];
    switch (a.kind) {
    case TiAction::Send: s.waiting_for.push_back(post_send(r, a, a.peer, a.bytes)); break;
    case TiAction::Recv: s.waiting_for.push_back(post_recv(r, a, a.peer)); break;
    case TiAction::Isend: store(s, post_send(r, a, a.peer, a.bytes)); break;
    case TiAction::Irecv: store(s, post_recv(r, a, a.peer)); break;
    case TiAction::SendRecv:
      s.waiting_for.push_back(post_send(r, a, a.peer, a.bytes));
      s.waiting_for.push_back(post_recv(r, a, a.peer2));
      break;
    case TiAction::Wait: {
      if (s.stored == 0)
        throw InputError(at(r, a), "wait " + std::to_string(a.peer) + " " + std::to_string(a.peer2) + " " +
                                       std::to_string(a.tag) +
                                       " with no request pending (a waitall completed them; SimGrid aborts: 'wait not "
                                       "preceded by any irecv or isend')",
                         "rewrite it with `haec trace repair TRACE --out FIXED`");
      Request q;
      if (!pop(s, Key{a.peer, a.peer2, a.tag}, q))
        throw InputError(at(r, a), "wait " + std::to_string(a.peer) + " " + std::to_string(a.peer2) + " " +
                                       std::to_string(a.tag) + " names no pending isend or irecv (SimGrid would skip it)",
                         "the trace is corrupt or incomplete; record it with `haec trace record`");
      s.waiting_for.push_back(q);
      break;
    }
    case TiAction::Test: {
      Request q;
      if (pop(s, Key{a.peer, a.peer2, a.tag}, q)) {
        q.null = complete(q);
        store(s, q);
      }
      break;
    }
    case TiAction::Waitall: take_all(s); break;
    case TiAction::Coll:
      s.coll_k = ++s.colls;
      enter_collective(r, a, colls_, s.coll_k, "collective");
      break;
    case TiAction::NbColl: {
      s.coll_k = ++s.nb_colls;
      if (!s.nb_ids.emplace(a.tag, s.coll_k).second)
        throw InputError(at(r, a), action_name(a.name) + " reuses the ID " + std::to_string(a.tag) + " of a pending one",
                         "each pending non-blocking collective has its own ID; the trace is corrupt");
      enter_collective(r, a, nb_colls_, s.coll_k, "non-blocking collective");
      break;
    }
    case TiAction::NbWait: {
      auto it = s.nb_ids.find(a.tag);
      if (it == s.nb_ids.end())
        throw InputError(at(r, a), "haec_wait " + std::to_string(a.tag) + " names no pending haec_i* action",
                         "the trace is corrupt");
      s.coll_k = it->second;
      s.nb_ids.erase(it);
      break;
    }
    default: break;
    }
  }

  // True when the current action (or the end) may complete; else registers the rank where it waits.
  bool can_complete(int r, const TiAction* a)
  {
    RankState& s = state_[r];
    if (a && (a->kind == TiAction::Coll || a->kind == TiAction::NbWait)) {
      Collective& c = (a->kind == TiAction::Coll ? colls_ : nb_colls_)[s.coll_k - 1];
      if (c.arrived == ranks_)
        return true;
      c.waiting.push_back(r);
      return false;
    }
    for (const Request& q : s.waiting_for)
      if (!complete(q)) {
        channels_[q.channel].waiting.push_back(r);
        return false;
      }
    return true;
  }

  void step(int r)
  {
    RankState& s          = state_[r];
    const auto& list      = actions(r).actions;
    while (!s.done) {
      const TiAction* a = s.pc < list.size() ? &list[s.pc] : nullptr;
      if (!s.posted) {
        if (a)
          post(r, *a);
        else
          take_all(s); // SimGrid waits for every pending request after the trace
        s.posted = true;
      }
      if (!can_complete(r, a))
        return;
      s.waiting_for.clear();
      s.posted = false;
      if (a)
        ++s.pc;
      else
        s.done = true;
    }
  }

  std::string request_text(const Request& q) const
  {
    const Key& k = channels_[q.channel].key;
    return q.send ? "a send to " + std::to_string(k.dst) : "a receive from " + std::to_string(k.src);
  }

  BlockedRank describe(int r) const
  {
    const RankState& s = state_[r];
    const auto& list   = actions(r).actions;
    BlockedRank b;
    b.rank = r;
    if (s.pc >= list.size()) {
      b.call  = "the end of its trace";
      b.where = base(actions(r).file);
    } else {
      const TiAction& a = list[s.pc];
      b.call            = action_name(a.name);
      b.where           = base(actions(r).file) + ":" + std::to_string(a.line);
      if (a.kind == TiAction::Send || a.kind == TiAction::Isend)
        b.peer = "to " + std::to_string(a.peer);
      else if (a.kind == TiAction::Recv || a.kind == TiAction::Irecv)
        b.peer = "from " + std::to_string(a.peer);
      if (a.kind == TiAction::Send || a.kind == TiAction::Recv)
        b.tag = static_cast<int>(a.tag);
    }
    if (b.peer.empty())
      for (const Request& q : s.waiting_for)
        if (!complete(q)) {
          b.peer = "for " + request_text(q);
          b.tag  = static_cast<int>(channels_[q.channel].key.tag);
          break;
        }
    return b;
  }

  void check_all_received() const
  {
    for (const Channel& ch : channels_)
      if (ch.sends > ch.recvs) {
        const auto& file = actions(ch.key.src).file;
        throw InputError(file + ":" + std::to_string(ch.first_send_line),
                         "rank " + std::to_string(ch.key.src) + " sends " + std::to_string(ch.sends) +
                             " message(s) to rank " + std::to_string(ch.key.dst) + " with tag " +
                             std::to_string(ch.key.tag) + " and only " + std::to_string(ch.recvs) + " are received",
                         "every message needs its receive; the trace is corrupt or incomplete");
      }
  }
};

} // namespace

void match_ti_program(const TiProgram& program, int ranks, const MatchOptions& options)
{
  Matcher(program, ranks, options).run();
}

} // namespace haec::trace
