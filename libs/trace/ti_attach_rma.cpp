// The one-sided actions of a replayed trace as OTF2's RMA records: see ti_attach_rma.hpp.
#include "ti_attach_rma.hpp"

#include "ti_attach.hpp"

#include <algorithm>
#include <cstdlib>

namespace haec::trace {
namespace {

long long num(const std::vector<std::string>& f, size_t i)
{
  return i < f.size() ? std::strtoll(f[i].c_str(), nullptr, 10) : 0;
}

uint64_t bytes(const std::vector<std::string>& f, size_t count_at, size_t type_at)
{
  const double b = std::strtod(f[count_at].c_str(), nullptr) * ti_datatype_bytes(f[type_at]);
  return b > 0 ? static_cast<uint64_t>(b + 0.5) : 0;
}

} // namespace

void RmaRecords::add(RunTrace& t, std::vector<RunEvent>& out, int r, const std::vector<std::string>& f, double time)
{
  const std::string& a = f[1];
  Rank& me             = ranks_[r];
  auto record          = [&](const char* op, long long window, int remote = -1, uint64_t sent = 0,
                    uint64_t received = 0, uint32_t tag = 0, uint64_t matching = 0) {
    RunEvent e{RunEvent::Rma, time, 0, remote, sent};
    e.op       = op;
    e.window   = static_cast<uint64_t>(window);
    e.received = received;
    e.tag      = tag;
    e.matching = matching;
    out.push_back(e);
  };
  auto members = [&](long long window) {
    auto w = t.rma_windows.find(window);
    auto c = w == t.rma_windows.end() ? t.comms.end() : t.comms.find(w->second);
    return c == t.comms.end() ? 0 : static_cast<int>(c->second.size());
  };
  // haec_r* ID W ...: the fields of the transfer after the ID
  const bool requested = a == "haec_rput" || a == "haec_rget" || a == "haec_raccumulate" || a == "haec_rget_accumulate";
  const size_t w       = requested ? 3 : 2;
  const long long win  = num(f, w);
  if (a == "haec_win_create" || a == "haec_win_allocate" || a == "haec_win_allocate_shared" ||
      a == "haec_win_create_dynamic") {
    t.rma_windows.emplace(win, num(f, a == "haec_win_create_dynamic" ? 3 : 5)); // the communicator (0 when absent)
    record("WIN_CREATE", win);
  } else if (a == "haec_win_free") {
    record("WIN_DESTROY", win);
  } else if (a == "haec_win_fence") {
    record("COLLECTIVE_BEGIN", win);
    record("COLLECTIVE_END", win);
  } else if (a == "haec_win_post" || a == "haec_win_start") {
    std::vector<int> group;
    for (size_t i = 5; i < f.size(); ++i)
      group.push_back(static_cast<int>(num(f, i)));
    auto it = std::find(t.rma_groups.begin(), t.rma_groups.end(), group);
    const auto index = static_cast<uint32_t>(it - t.rma_groups.begin());
    if (it == t.rma_groups.end())
      t.rma_groups.push_back(group);
    (a == "haec_win_post" ? me.post : me.start)[win] = index;
    record("GROUP_SYNC", win, -1, 0, 0, index);
  } else if (a == "haec_win_complete" || a == "haec_win_wait") {
    auto& open = a == "haec_win_complete" ? me.start : me.post;
    record("GROUP_SYNC", win, -1, 0, 0, open.count(win) ? open[win] : 0);
  } else if (a == "haec_win_lock" || a == "haec_win_lock_all") {
    const bool all    = a == "haec_win_lock_all";
    const uint32_t type = all || num(f, 3) == 2 ? 1 : 0; // OTF2_LOCK_SHARED : OTF2_LOCK_EXCLUSIVE
    for (int remote = all ? 0 : static_cast<int>(num(f, 4)); remote < (all ? members(win) : num(f, 4) + 1); ++remote) {
      const uint64_t id = me.locks[{win, remote}] = me.next_lock++;
      record("REQUEST_LOCK", win, remote, 0, 0, type, id);
      record("ACQUIRE_LOCK", win, remote, 0, 0, type, id);
    }
  } else if (a == "haec_win_unlock" || a == "haec_win_unlock_all") {
    const bool all = a == "haec_win_unlock_all";
    for (int remote = all ? 0 : static_cast<int>(num(f, 3)); remote < (all ? members(win) : num(f, 3) + 1); ++remote)
      record("RELEASE_LOCK", win, remote, 0, 0, 0, me.locks[{win, remote}]);
  } else if (a == "haec_win_flush" || a == "haec_win_flush_local") {
    record("SYNC", win, static_cast<int>(num(f, 3)));
  } else if (a == "haec_win_flush_all" || a == "haec_win_flush_local_all") {
    for (int remote = 0; remote < members(win); ++remote)
      record("SYNC", win, remote);
  } else if (a == "haec_put" || a == "haec_get" || a == "haec_accumulate" || a == "haec_get_accumulate" ||
             a == "haec_compare_and_swap" || requested) {
    const int remote        = static_cast<int>(num(f, w + 1));
    const uint64_t matching = me.next_matching++;
    const std::string op    = requested ? "haec_" + a.substr(6) : a; // haec_rput -> haec_put
    if (op == "haec_put")
      record("PUT", win, remote, bytes(f, w + 2, w + 3), 0, 0, matching);
    else if (op == "haec_get")
      record("GET", win, remote, 0, bytes(f, w + 2, w + 3), 0, matching);
    else if (op == "haec_accumulate")
      record("ATOMIC", win, remote, bytes(f, w + 2, w + 3), 0, 0, matching);
    else if (op == "haec_get_accumulate")
      record("ATOMIC", win, remote, bytes(f, w + 2, w + 3), bytes(f, w + 4, w + 5), 7, matching);
    else // compare-and-swap: W TARGET TYPE TDISP SWAPPED, one element each way
      record("ATOMIC", win, remote, static_cast<uint64_t>(ti_datatype_bytes(f[w + 2])),
             static_cast<uint64_t>(ti_datatype_bytes(f[w + 2])), 3, matching);
    if (requested)
      me.requests[num(f, 2)] = {win, matching};
    else
      record("OP_COMPLETE_BLOCKING", win, -1, 0, 0, 0, matching);
  } else if (a == "haec_request_free") {
    me.requests.erase(num(f, 2));
  } else if (a == "haec_wait") {
    auto it = me.requests.find(num(f, 2));
    if (it != me.requests.end()) {
      record("OP_COMPLETE_NON_BLOCKING", it->second.first, -1, 0, 0, 0, it->second.second);
      me.requests.erase(it);
    }
  }
}

} // namespace haec::trace
