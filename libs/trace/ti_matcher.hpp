// The matching simulation's state (ti_match.hpp), shared by its three parts: point-to-point and
// the run itself (ti_match.cpp), communicators and collectives (ti_match_colls.cpp), windows
// (ti_match_windows.cpp). Internal to libs/trace.
#pragma once
#include "blocked_ranks.hpp"
#include "ti_match.hpp"

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace haec::trace::detail {

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
  bool done        = false; // complete whatever the channel says (a one-sided request)
};

// A collective of a communicator's sequence: the members' actions, by member position.
struct Collective {
  uint16_t name  = 0;
  int first_rank = -1;
  uint32_t line  = 0;
  int arrived    = 0;
  long long root = -1;
  std::vector<int> waiting;
  std::vector<const TiAction*> by_member;
  std::vector<int> ranks_in; // world ranks that arrived, in order
};

// A communicator of the trace (ids are global: every member names it alike).
struct Comm {
  std::vector<int> members;          // world ranks in rank order
  std::unordered_map<int, int> index; // world rank -> rank in the communicator
  std::string made_at;               // "file:line" of its first creation line
  std::string made_by;               // the action that made it
  std::vector<Collective> blocking, nonblocking;
  int size() const { return static_cast<int>(members.size()); }
};

// What a request ID of a rank stands for (haec_wait ID completes it).
struct IdEntry {
  bool collective  = false; // the k-th non-blocking collective of `comm`
  long long comm   = 0;
  uint64_t k       = 0;
  Request request{};        // otherwise: a request (a send's or a one-sided transfer's)
  const TiAction* start = nullptr; // the action that started it
};

struct Window {
  long long comm = 0;
  bool dynamic   = false;
  std::vector<long long> size, unit; // by member position
  std::string made_at;
};

struct RankState {
  size_t pc    = 0;
  bool posted  = false; // the current action's sends/receives are posted
  bool done    = false;
  std::vector<Request> waiting_for;
  std::unordered_map<Key, std::deque<Request>, KeyHash> store;
  size_t stored = 0;
  bool in_collective = false; // the current action waits for a collective (below)
  // the collective it waits for: (communicator, k, blocking or not)
  long long coll_comm = 0;
  uint64_t coll_k     = 0;
  bool coll_nb        = false;
  std::unordered_map<long long, uint64_t> colls, nb_colls; // collectives entered, per communicator
  std::unordered_map<long long, IdEntry> ids;
  std::unordered_set<long long> comms;                           // communicators it holds (beyond 0 and 1)
  std::unordered_map<long long, std::string> comms_freed;        // id -> where it freed it
  std::unordered_set<long long> windows;                         // windows it holds
  std::unordered_map<long long, std::string> windows_freed;      // id -> where it freed it
  std::unordered_map<long long, std::unordered_set<int>> locks;  // window -> targets it locks
  std::unordered_set<long long> locked_all;                      // windows it lock_all'ed
  std::unordered_map<long long, std::vector<int>> started, posted_to; // window -> start / post group (world)
};

class Matcher {
public:
  Matcher(const TiProgram& p, int ranks, const MatchOptions& o);
  void run();

  // ---- shared by the parts ----
  const RankActions& actions(int r) const { return p_.ranks[static_cast<size_t>(r)]; }
  std::string at(int r, const TiAction& a) const;
  const long long* fields(int r, const TiAction& a) const { return actions(r).fields_of(a); }
  [[noreturn]] void fail(int r, const TiAction& a, const std::string& problem, const std::string& fix) const;
  Request post_send(int r, const TiAction& a, int dst, long long tag, uint64_t bytes, uint8_t mode = 0);
  Request post_recv(int r, const TiAction& a, int src, long long tag);
  void wake(std::vector<int>& waiting);

  // ti_match_colls.cpp
  Comm& comm_of(int r, const TiAction& a, long long id);
  void post_collective(int r, const TiAction& a, long long comm, bool nonblocking);
  void post_comm(int r, const TiAction& a);
  bool collective_complete(int r);
  void resolve(Comm& c, Collective& col); // every member entered `col`
  void check_collectives_joined() const;

  // ti_match_windows.cpp
  void post_window(int r, const TiAction& a);

  const TiProgram& p_;
  int ranks_;
  MatchOptions opt_;
  std::vector<RankState> state_;
  std::unordered_map<Key, uint32_t, KeyHash> channel_of_;
  std::vector<Channel> channels_;
  std::unordered_map<long long, Comm> comms_;
  std::unordered_map<long long, Window> windows_;
  std::deque<int> ready_;

private:
  uint32_t channel(int src, int dst, long long tag, int r, const TiAction& a);
  bool complete(const Request& q) const;
  void store(RankState& s, const Request& q);
  bool pop(RankState& s, const Key& k, Request& q);
  void take_all(RankState& s);
  void post(int r, const TiAction& a);
  bool can_complete(int r, const TiAction* a);
  void step(int r);
  std::string request_text(const Request& q) const;
  BlockedRank describe(int r) const;
  void check_all_received() const;
  void check_ids_completed() const;
};

// Tags of the messages SMPI's window synchronisation makes (post/start, complete/wait), on
// channels apart from the program's (whose tags are >= 0).
long long post_tag(long long window);
long long complete_tag(long long window);

std::string base(const std::string& file);
std::string ordinal(uint64_t k);

} // namespace haec::trace::detail
