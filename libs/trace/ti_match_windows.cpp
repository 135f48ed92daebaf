// The matching simulation's windows (ti_matcher.hpp): what would make SMPI refuse, abort or hang
// on a one-sided action in replay. A window has one id on every rank; creating, freeing and fencing
// it are collectives on its communicator; every other action needs the window held by the rank and
// a target rank of its communicator; transfers must fit in the target's window (as the target
// created it: SMPI checks the size, a displacement past the end would write beyond its memory);
// unlock needs the rank's lock, unlock_all its lock_all, complete its start and wait its post; post
// and start name members of the communicator and exchange SMPI's synchronisation messages
// (0-byte sends; a start waits for every post naming it, a wait for every complete).
#include "ti_matcher.hpp"

#include "input_error.hpp"

#include <algorithm>

namespace haec::trace::detail {
namespace {

const char* kCorrupt = "the trace is corrupt; record it again with haec trace record";

bool starts(const std::string& s, const char* prefix)
{
  return s.rfind(prefix, 0) == 0;
}

std::string where(const RankActions& ra, const TiAction& a)
{
  return base(ra.file) + ":" + std::to_string(a.line);
}

} // namespace

void Matcher::post_window(int r, const TiAction& a)
{
  RankState& s           = state_[static_cast<size_t>(r)];
  const std::string name = action_name(a.name);
  const long long* f     = fields(r, a);
  const bool requested   = name == "haec_rput" || name == "haec_rget" || name == "haec_raccumulate" ||
                         name == "haec_rget_accumulate";
  const size_t w_at      = requested ? 1 : 0; // haec_r*: ID first
  const long long id     = f[w_at];
  const std::string w    = "window " + std::to_string(id);

  if (starts(name, "haec_win_create") || starts(name, "haec_win_allocate")) {
    const bool dynamic     = name == "haec_win_create_dynamic";
    const long long comm   = f[dynamic ? 1 : 3];
    Comm& c                = comm_of(r, a, comm);
    auto freed             = s.windows_freed.find(id);
    if (s.windows.count(id) || freed != s.windows_freed.end())
      fail(r, a, "rank " + std::to_string(r) + " creates " + w + " again (" +
                     (freed != s.windows_freed.end() ? "freed at " + freed->second : "it holds it") + ")",
           "each window has its own id; the trace is corrupt");
    auto [it, fresh] = windows_.try_emplace(id);
    Window& win      = it->second;
    if (fresh) {
      win.comm    = comm == 1 ? -2 - static_cast<long long>(r) : comm;
      win.dynamic = dynamic;
      win.size.assign(static_cast<size_t>(c.size()), -1);
      win.unit.assign(win.size.size(), 1);
      win.made_at = where(actions(r), a);
    } else if (win.comm != comm || win.dynamic != dynamic) {
      fail(r, a, w + " is created here otherwise than at " + win.made_at + " (on another communicator or kind)",
           "every member creates a window alike; the trace is corrupt");
    }
    const auto pos = static_cast<size_t>(c.index.at(r));
    win.size[pos]  = dynamic ? 0 : f[1];
    win.unit[pos]  = dynamic ? 1 : f[2];
    s.windows.insert(id);
    post_collective(r, a, comm, false); // SMPI: an allgather of the windows on the communicator
    return;
  }
  // Every other action needs the window.
  if (!s.windows.count(id)) {
    auto freed = s.windows_freed.find(id);
    if (name == "haec_win_free" && freed != s.windows_freed.end())
      fail(r, a, w + " is freed twice (first at " + freed->second + ")", kCorrupt);
    fail(r, a,
         name + " on " + w + ", which rank " + std::to_string(r) +
             (freed != s.windows_freed.end() ? " freed at " + freed->second : " never created"),
         kCorrupt);
  }
  Window& win       = windows_.at(id);
  const long long c = win.comm < 0 ? 1 : win.comm;
  Comm& comm        = comm_of(r, a, c);
  auto target       = [&](size_t i) {
    const long long t = f[i];
    if (t >= comm.size())
      fail(r, a, name + " targets rank " + std::to_string(t) + ", not a rank of " + w + "'s " +
                     std::to_string(comm.size()) + "-rank communicator",
           kCorrupt);
    return static_cast<int>(t);
  };
  // A post or start group: world ranks of the window's communicator.
  auto group = [&](size_t i) {
    std::vector<int> g(f + i + 1, f + i + 1 + f[i]);
    for (int m : g)
      if (!comm.index.count(m))
        fail(r, a, name + " names rank " + std::to_string(m) + ", not a member of " + w + "'s communicator", kCorrupt);
    return g;
  };
  if (name == "haec_win_free") {
    auto held = s.locks.find(id);
    if ((held != s.locks.end() && !held->second.empty()) || s.locked_all.count(id))
      fail(r, a, w + " is freed while rank " + std::to_string(r) + " still locks it (no haec_win_unlock since)",
           "SMPI refuses to free a locked window; the trace is corrupt");
    s.windows.erase(id);
    s.windows_freed[id] = where(actions(r), a);
    post_collective(r, a, c, false); // SMPI: barriers on the communicator
  } else if (name == "haec_win_fence") {
    post_collective(r, a, c, false);
  } else if (name == "haec_win_lock") {
    const int t = target(2);
    if (s.locked_all.count(id) || !s.locks[id].insert(t).second)
      fail(r, a, "rank " + std::to_string(r) + " locks " + w + " on rank " + std::to_string(t) +
                     " while it holds a lock on it (no haec_win_unlock since)",
           kCorrupt);
  } else if (name == "haec_win_unlock") {
    const int t = target(1);
    if (!s.locks[id].erase(t))
      fail(r, a, "haec_win_unlock of " + w + " on rank " + std::to_string(t) + " without a haec_win_lock of it",
           "every unlock follows its lock; the trace is corrupt");
  } else if (name == "haec_win_lock_all") {
    if (s.locked_all.count(id) || !s.locks[id].empty())
      fail(r, a, "rank " + std::to_string(r) + " locks all of " + w + " while it holds a lock on it", kCorrupt);
    s.locked_all.insert(id);
  } else if (name == "haec_win_unlock_all") {
    if (!s.locked_all.erase(id))
      fail(r, a, "haec_win_unlock_all of " + w + " without a haec_win_lock_all", "every unlock follows its lock; the trace is corrupt");
  } else if (name == "haec_win_flush" || name == "haec_win_flush_local") {
    target(1);
  } else if (name == "haec_win_post" || name == "haec_win_start") {
    const bool post = name == "haec_win_post";
    auto& open      = post ? s.posted_to : s.started;
    if (open.count(id))
      fail(r, a, name + " of " + w + " while the rank's previous one is open (no haec_win_" +
                     (post ? "wait" : "complete") + " since)",
           kCorrupt);
    const std::vector<int> g = group(2);
    for (int m : g)
      if (m != r) // SMPI: a 0-byte message from each poster to each starter
        s.waiting_for.push_back(post ? post_send(r, a, m, post_tag(id), 0, 'b') : post_recv(r, a, m, post_tag(id)));
    open[id] = g;
  } else if (name == "haec_win_complete" || name == "haec_win_wait") {
    const bool complete = name == "haec_win_complete";
    auto& open          = complete ? s.started : s.posted_to;
    auto it             = open.find(id);
    if (it == open.end())
      fail(r, a, name + " of " + w + " without a haec_win_" + (complete ? "start" : "post") + " before it", kCorrupt);
    for (int m : it->second)
      if (m != r)
        s.waiting_for.push_back(complete ? post_send(r, a, m, complete_tag(id), 0, 'b')
                                         : post_recv(r, a, m, complete_tag(id)));
    open.erase(it);
  } else if (name == "haec_win_attach" || name == "haec_win_detach") {
    if (!win.dynamic)
      fail(r, a, name + " of " + w + ", which is not a dynamic window (haec_win_create_dynamic)", kCorrupt);
  } else if (name == "haec_win_flush_all" || name == "haec_win_flush_local_all") {
    // nothing to check beyond the window
  } else { // transfers: [ID] W TARGET ...
    const int t = target(w_at + 1);
    // the target's fields: put/get/acc (OCOUNT OTYPE TDISP TCOUNT TTYPE), get_accumulate (OCOUNT OTYPE
    // RCOUNT RTYPE TDISP TCOUNT TTYPE), compare_and_swap (TYPE TDISP SWAPPED)
    const bool gacc = name == "haec_get_accumulate" || name == "haec_rget_accumulate";
    const bool cas  = name == "haec_compare_and_swap";
    const size_t d  = w_at + (cas ? 3 : gacc ? 6 : 4);
    const long long disp  = f[d];
    const long long count = cas ? 1 : f[d + 1];
    const int type_size   = datatype_size(std::to_string(cas ? f[w_at + 2] : f[d + 2]));
    const auto pos        = static_cast<size_t>(t);
    const long long bytes = count * std::max(type_size, 0); // count < 2^53, a type is at most 16 bytes
    const long double end = static_cast<long double>(disp) * win.unit[pos] + bytes; // disp * unit may pass 2^63
    if (!win.dynamic && end > win.size[pos])
      fail(r, a,
           name + " of " + std::to_string(bytes) + " bytes at displacement " + std::to_string(disp) + " (unit " +
               std::to_string(win.unit[pos]) + ") goes beyond rank " + std::to_string(t) + "'s " +
               std::to_string(win.size[pos]) + "-byte " + w,
           "a transfer stays inside its target's window; the trace is corrupt");
    if (requested && !s.ids.emplace(f[0], IdEntry{false, 0, 0, Request{0, 0, true, true, false, true}, &a}).second)
      fail(r, a, name + " reuses the ID " + std::to_string(f[0]) + " of a pending request",
           "each pending request has its own ID; the trace is corrupt");
  }
}

} // namespace haec::trace::detail
