// The matching simulation (ti_match.hpp): the run, point-to-point messages and requests. The
// collectives and communicators are in ti_match_colls.cpp, the windows in ti_match_windows.cpp.
#include "ti_matcher.hpp"

#include "blocked_ranks.hpp"
#include "input_error.hpp"

#include <filesystem>

namespace haec::trace {
namespace detail {
namespace {

constexpr size_t kLineBudget = 240;

} // namespace

std::string base(const std::string& file)
{
  return std::filesystem::path(file).filename().string();
}

std::string ordinal(uint64_t k)
{
  const char* s = (k % 100 >= 11 && k % 100 <= 13) ? "th" : k % 10 == 1 ? "st" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd" : "th";
  return std::to_string(k) + s;
}

long long post_tag(long long window)
{
  return -1000000000LL - 2 * window;
}

long long complete_tag(long long window)
{
  return post_tag(window) - 1;
}

Matcher::Matcher(const TiProgram& p, int ranks, const MatchOptions& o) : p_(p), ranks_(ranks), opt_(o), state_(ranks)
{
  Comm& world = comms_[0];
  for (int r = 0; r < ranks; ++r) {
    world.members.push_back(r);
    world.index[r] = r;
  }
}

std::string Matcher::at(int r, const TiAction& a) const
{
  return actions(r).file + ":" + std::to_string(a.line);
}

void Matcher::fail(int r, const TiAction& a, const std::string& problem, const std::string& fix) const
{
  throw InputError(at(r, a), problem, fix);
}

void Matcher::run()
{
  for (int r = 0; r < ranks_; ++r)
    ready_.push_back(r);
  while (!ready_.empty()) {
    int r = ready_.front();
    ready_.pop_front();
    step(r);
  }
  check_collectives_joined(); // a collective some member never joins: a bad trace, not a deadlock
  std::vector<BlockedRank> blocked;
  for (int r = 0; r < ranks_; ++r)
    if (!state_[static_cast<size_t>(r)].done)
      blocked.push_back(describe(r));
  if (!blocked.empty())
    throw DeadlockError("deadlock: " + describe_blocked_ranks(blocked, {}, kLineBudget));
  check_ids_completed();
  check_all_received();
}

// A request started with an ID and never completed by its haec_wait: the replay would end with it
// pending (its check collectives_completed fails).
void Matcher::check_ids_completed() const
{
  for (int r = 0; r < ranks_; ++r)
    for (auto const& [id, e] : state_[static_cast<size_t>(r)].ids)
      if (e.start != nullptr)
        throw InputError(at(r, *e.start), action_name(e.start->name) + " " + std::to_string(id) +
                                              " is never completed (no haec_wait " + std::to_string(id) + " or haec_request_free follows)",
                         "every request is waited for; the trace is corrupt or was cut short");
}

uint32_t Matcher::channel(int src, int dst, long long tag, int r, const TiAction& a)
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

void Matcher::wake(std::vector<int>& waiting)
{
  for (int r : waiting)
    ready_.push_back(r);
  waiting.clear();
}

// mode 'b': a buffered send, detached whatever its size; 's': synchronous, never detached.
Request Matcher::post_send(int r, const TiAction& a, int dst, long long tag, uint64_t bytes, uint8_t mode)
{
  const uint32_t c = channel(r, dst, tag, r, a);
  Channel& ch      = channels_[c];
  if (ch.sends++ == 0)
    ch.first_send_line = a.line;
  wake(ch.waiting);
  const bool eager = mode == 'b' || (mode != 's' && bytes < opt_.detached_send_threshold);
  return Request{c, ch.sends, true, eager, false, false};
}

Request Matcher::post_recv(int r, const TiAction& a, int src, long long tag)
{
  const uint32_t c = channel(src, r, tag, r, a);
  Channel& ch      = channels_[c];
  ++ch.recvs;
  wake(ch.waiting);
  return Request{c, ch.recvs, false, false, false, false};
}

bool Matcher::complete(const Request& q) const
{
  if (q.null || q.done)
    return true;
  const Channel& ch = channels_[q.channel];
  return q.send ? q.eager || ch.recvs >= q.k : ch.sends >= q.k;
}

void Matcher::store(RankState& s, const Request& q)
{
  s.store[channels_[q.channel].key].push_back(q);
  ++s.stored;
}

// SimGrid's RequestStorage::pop: the oldest request with that key.
bool Matcher::pop(RankState& s, const Key& k, Request& q)
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

void Matcher::take_all(RankState& s)
{
  for (auto& [key, reqs] : s.store)
    for (auto& q : reqs)
      s.waiting_for.push_back(q);
  s.store.clear();
  s.stored = 0;
}

void Matcher::post(int r, const TiAction& a)
{
  RankState& s = state_[static_cast<size_t>(r)];
  switch (a.kind) {
  case TiAction::Send: s.waiting_for.push_back(post_send(r, a, a.peer, a.tag, a.bytes, a.mode)); break;
  case TiAction::Recv: s.waiting_for.push_back(post_recv(r, a, a.peer, a.tag)); break;
  case TiAction::Isend: store(s, post_send(r, a, a.peer, a.tag, a.bytes)); break;
  case TiAction::Irecv: store(s, post_recv(r, a, a.peer, a.tag)); break;
  case TiAction::SendRecv:
    s.waiting_for.push_back(post_send(r, a, a.peer, a.tag, a.bytes));
    s.waiting_for.push_back(post_recv(r, a, a.peer2, a.tag));
    break;
  case TiAction::IdSend: {
    const long long id = fields(r, a)[0];
    if (s.ids.count(id))
      fail(r, a, action_name(a.name) + " reuses the ID " + std::to_string(id) + " of a pending request",
           "each pending request has its own ID; the trace is corrupt");
    IdEntry e;
    e.request = post_send(r, a, a.peer, a.tag, a.bytes, a.mode);
    e.start   = &a;
    s.ids[id] = e;
    break;
  }
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
  case TiAction::Coll: post_collective(r, a, a.comm, false); break;
  case TiAction::NbColl: post_collective(r, a, a.comm, true); break;
  case TiAction::NbWait: {
    auto it = s.ids.find(a.tag);
    if (it == s.ids.end())
      throw InputError(at(r, a), "haec_wait " + std::to_string(a.tag) + " names no pending request of rank " +
                                     std::to_string(r),
                       "the trace is corrupt");
    if (it->second.collective) {
      s.in_collective = true;
      s.coll_comm     = it->second.comm;
      s.coll_k        = it->second.k;
      s.coll_nb       = true;
    } else {
      s.waiting_for.push_back(it->second.request);
    }
    s.ids.erase(it);
    break;
  }
  case TiAction::IdFree: // its transfer or collective goes on; nothing waits for it
    if (s.ids.erase(a.tag) == 0)
      throw InputError(at(r, a), "haec_request_free " + std::to_string(a.tag) + " names no pending request of rank " +
                                     std::to_string(r),
                       "the trace is corrupt");
    break;
  case TiAction::Comm: post_comm(r, a); break;
  case TiAction::Win: post_window(r, a); break;
  default: break;
  }
}

// True when the current action (or the end) may complete; else registers the rank where it waits.
bool Matcher::can_complete(int r, const TiAction* a)
{
  (void)a;
  RankState& s = state_[static_cast<size_t>(r)];
  if (s.in_collective && !collective_complete(r))
    return false;
  for (const Request& q : s.waiting_for)
    if (!complete(q)) {
      channels_[q.channel].waiting.push_back(r);
      return false;
    }
  return true;
}

void Matcher::step(int r)
{
  RankState& s     = state_[static_cast<size_t>(r)];
  const auto& list = actions(r).actions;
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
    s.in_collective = false;
    s.posted        = false;
    if (a)
      ++s.pc;
    else
      s.done = true;
  }
}

std::string Matcher::request_text(const Request& q) const
{
  const Key& k = channels_[q.channel].key;
  return q.send ? "a send to " + std::to_string(k.dst) : "a receive from " + std::to_string(k.src);
}

BlockedRank Matcher::describe(int r) const
{
  const RankState& s = state_[static_cast<size_t>(r)];
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
        if (channels_[q.channel].key.tag >= 0)
          b.tag = static_cast<int>(channels_[q.channel].key.tag);
        break;
      }
  return b;
}

void Matcher::check_all_received() const
{
  for (const Channel& ch : channels_)
    if (ch.sends > ch.recvs) {
      const auto& file = actions(ch.key.src).file;
      const std::string at = file + ":" + std::to_string(ch.first_send_line);
      if (ch.key.tag < 0) { // a window's synchronisation (ti_match_windows.cpp)
        const bool post = (ch.key.tag - post_tag(0)) % 2 == 0;
        const long long w = (post ? post_tag(0) - ch.key.tag : complete_tag(0) - ch.key.tag) / 2;
        throw InputError(at, std::string(post ? "haec_win_post" : "haec_win_complete") + " of window " +
                                 std::to_string(w) + " by rank " + std::to_string(ch.key.src) + " names rank " +
                                 std::to_string(ch.key.dst) + ", which has no matching " +
                                 (post ? "haec_win_start" : "haec_win_wait") + " naming it",
                         "every post (complete) needs its start (wait) on the ranks it names; the trace is corrupt");
      }
      throw InputError(at, "rank " + std::to_string(ch.key.src) + " sends " + std::to_string(ch.sends) +
                               " message(s) to rank " + std::to_string(ch.key.dst) + " with tag " +
                               std::to_string(ch.key.tag) + " and only " + std::to_string(ch.recvs) + " are received",
                       "every message needs its receive; the trace is corrupt or incomplete");
    }
}

} // namespace detail

void match_ti_program(const TiProgram& program, int ranks, const MatchOptions& options)
{
  detail::Matcher(program, ranks, options).run();
}

std::map<long long, std::vector<int>> ti_communicators(const TiProgram& program, int ranks)
{
  detail::Matcher m(program, ranks, {});
  m.run();
  std::map<long long, std::vector<int>> out;
  for (auto const& [id, c] : m.comms_)
    if (id >= 0)
      out[id] = c.members;
  return out;
}

} // namespace haec::trace
