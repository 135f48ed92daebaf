// Trace replay seen as MPI calls. SMPI registers its replay actions (xbt_replay_action_register)
// when each rank starts replaying (smpi_replay_init); our replayer (haec_replay_main.cpp) then hands
// the rank to the suite (replay_ranks.cpp), which wraps every registered action here, through
// SimGrid's public xbt_replay_action_get/register, before the rank's first action: every action
// but compute/sleep is reported like a PMPI call (entered and left, as "MPI_<action>@trace" plus
// the peer for point-to-point actions), so code regions, iteration detection and MPI time work in
// replay as in emulation; a "test" action is also published as polling, as MPI_Test is in
// emulation. When recording, point-to-point actions also give the application's messages
// (traffic_matrix.csv) and their receives (a check). compute is wrapped to hand a trace's
// counter annotations to its computation (replay_ranks.cpp). A rank whose trace carries the
// recording run's calls (`# RANK haec_call ...`, replay_calls.cpp) is reported from them instead:
// its actions, compute and sleep included, only tell replay_calls.cpp where the rank is.
#include "checks.hpp"
#include "core_parts.hpp"
#include "mapping_detail.hpp"
#include "run.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>
#include <xbt/replay.hpp>

#include <boost/container_hash/hash.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <unordered_map>
#include <utility>
#include <vector>

extern "C" void haec_suite_mpi_exit(void);

namespace haec::core::parts {

void register_collective_replay_actions(); // replay_coll_actions.cpp
void register_comm_replay_actions();       // replay_comm_actions.cpp
void register_p2p_replay_actions();        // replay_p2p_actions.cpp
void register_rma_replay_actions();        // replay_rma_actions.cpp
size_t unfinished_requests();              // replay_state.cpp
void replay_rank_started();                // replay_state.cpp
void count_replayed_action();              // replay_location.cpp

namespace {

bool replay_seen = false;

// The actions SimGrid's smpi_replay_init registers (3.32 to 4.1; a name a version lacks is
// skipped), then the suite's own (register_replay_action).
std::vector<std::string>& action_names()
{
  static std::vector<std::string> names = {
      "init",       "finalize", "comm_size",  "comm_split", "comm_dup",      "send",      "isend",   "recv",
      "irecv",      "test",     "sendRecv",   "wait",       "waitall",       "barrier",   "bcast",   "reduce",
      "allreduce",  "alltoall", "alltoallv",  "gather",     "scatter",       "gatherv",   "scatterv", "allgather",
      "allgatherv", "reducescatter", "scan",  "exscan",     "compute",       "sleep",     "location"};
  return names;
}

// "MPI_Isend" for "isend", as the PMPI layer names functions ("MPI_Ialltoall" for our
// "haec_ialltoall", replay_coll_actions.cpp).
std::string function_name(const std::string& action)
{
  std::string f = "MPI_" + (action.rfind("haec_", 0) == 0 ? action.substr(5) : action);
  if (f.size() > 4)
    f[4] = static_cast<char>(std::toupper(static_cast<unsigned char>(f[4])));
  return f;
}

bool sends(const std::string& a)
{
  return a == "send" || a == "isend" || a == "Ssend" || a == "ISsend" || a == "bsend" || a == "ibsend" ||
         a == "haec_bsend" || a == "haec_ssend";
}

// Our sends with a request ID first (replay_p2p_actions.cpp): "<rank> haec_ibsend ID <dst> <tag> ...".
bool sends_after_id(const std::string& a)
{
  return a == "haec_ibsend" || a == "haec_issend";
}

bool receives(const std::string& a)
{
  return a == "recv" || a == "irecv";
}

// How many fields after the action name identify a point-to-point action's site: the peer and
// the tag ("<rank> isend <dst> <tag> ..."), the source, destination and tag of a wait ("<rank>
// wait <src> <dst> <tag>"). A rank's sequence of sites then tells its neighbours and its code's
// phases (different tags) apart, as call sites do in emulation.
size_t identifying_fields(const std::string& action)
{
  if (sends(action) || receives(action))
    return 2;
  if (action == "wait")
    return 3;
  return 0;
}

// The application's messages, from the replayed actions (the trace was checked before the run).
// What an action is, for the messages, is decided once when it is registered.
enum class Counted { No, Init, Send, SendAfterId, Recv, SendRecv };

Counted counted_kind(const std::string& action)
{
  if (!recording())
    return Counted::No;
  if (action == "init")
    return Counted::Init;
  if (sends(action))
    return Counted::Send;
  if (sends_after_id(action))
    return Counted::SendAfterId;
  if (receives(action))
    return Counted::Recv;
  return action == "sendRecv" ? Counted::SendRecv : Counted::No;
}

class Messages {
public:
  void on_action(Counted kind, const simgrid::xbt::ReplayAction& a);

private:
  uint64_t bytes(const simgrid::xbt::ReplayAction& a, size_t count, size_t type) const;
  std::unordered_map<int, int> default_size_; // rank -> MPI_DEFAULT_TYPE's size (init x: MPI_DOUBLE)
  int rank_ = 0;
};

// std::atoi and std::strtod of a trace field, exactly (the replay's own parsing is SimGrid's, with
// the C library's functions), with std::from_chars when it reads the whole field (no locale, no
// errno: cheaper, the same value); anything else (a sign, a partial number) takes the C library's.
int integer_field(const std::string& s)
{
  int value = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  return error == std::errc() && end == s.data() + s.size() ? value : std::atoi(s.c_str());
}

double number_field(const std::string& s)
{
  double value = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  return error == std::errc() && end == s.data() + s.size() ? value : std::strtod(s.c_str(), nullptr);
}

// A message the replayed rank sends: the traffic matrix and its statistics.
void add_message(int src_rank, int dst_rank, uint64_t bytes)
{
  log_app_message(src_rank, dst_rank, bytes, simgrid::s4u::Engine::get_clock());
}

Messages& messages()
{
  static Messages m;
  return m;
}

uint64_t Messages::bytes(const simgrid::xbt::ReplayAction& a, size_t count, size_t type) const
{
  const double n = count < a.size() ? std::trunc(number_field(a[count])) : 0;
  int size       = -1;
  if (type < a.size())
    size = mapping::detail::ti_datatype_size(a[type]);
  if (size < 0) {
    auto it = default_size_.find(rank_);
    size    = it == default_size_.end() ? 1 : it->second;
  }
  return n > 0 ? static_cast<uint64_t>(n) * static_cast<uint64_t>(size) : 0;
}

void Messages::on_action(Counted kind, const simgrid::xbt::ReplayAction& a)
{
  rank_ = integer_field(a[0]);
  switch (kind) {
    case Counted::Init:
      default_size_[rank_] = a.size() > 2 ? 8 : 1;
      break;
    case Counted::Send:
      if (a.size() > 4)
        add_message(rank_, integer_field(a[2]), bytes(a, 4, 5));
      break;
    case Counted::SendAfterId:
      if (a.size() > 5)
        add_message(rank_, integer_field(a[3]), bytes(a, 5, 6));
      break;
    case Counted::Recv:
      if (a.size() > 4)
        log_app_receive(integer_field(a[2]), rank_, bytes(a, 4, 5));
      break;
    case Counted::SendRecv:
      if (a.size() > 5) {
        add_message(rank_, integer_field(a[3]), bytes(a, 2, 6));
        log_app_receive(integer_field(a[5]), rank_, bytes(a, 4, 7));
      }
      break;
    case Counted::No:
      break;
  }
}

// A point-to-point action's site, found from its identifying fields (peer, tag: integers in a TI
// trace) by their values. Its text is built and interned only on first sight, so an action costs
// no string building or string hashing. A field that is not a canonical integer takes the text
// path every time, which names it exactly as before.
class FieldSites {
public:
  FieldSites(std::string base, size_t fields) : base_(std::move(base)), fields_(fields) {}

  uint32_t site(const simgrid::xbt::ReplayAction& a)
  {
    Key key;
    key.fill(kAbsent);
    for (size_t i = 0; i < fields_ && 2 + i < a.size(); ++i)
      if (!canonical_integer(a[2 + i], key[i]))
        return named_site(text(a));
    // The first field is a rank: its sites sit in a short list of their own (a rank talks to a
    // peer with few tags), which stays in the cache where a hash map of every site did not.
    if (key[0] >= 0 && key[0] < kMaxIndexedRank) {
      if (by_rank_.size() <= static_cast<size_t>(key[0]))
        by_rank_.resize(static_cast<size_t>(key[0]) + 1);
      auto& known = by_rank_[static_cast<size_t>(key[0])];
      for (auto const& [k, id] : known)
        if (k == key)
          return id;
      known.emplace_back(key, named_site(text(a)));
      return known.back().second;
    }
    auto [it, fresh] = ids_.try_emplace(key, 0);
    if (fresh)
      it->second = named_site(text(a));
    return it->second;
  }

private:
  using Key = std::array<long long, 3>;
  struct KeyHash {
    size_t operator()(const Key& k) const { return boost::hash_range(k.begin(), k.end()); }
  };
  static constexpr long long kAbsent        = std::numeric_limits<long long>::min();
  static constexpr long long kMaxIndexedRank = 1 << 20;

  // "12" -> 12; "012", "+1", "-0", "1x" are not canonical (their text would name another site).
  static bool canonical_integer(const std::string& s, long long& value)
  {
    const bool negative = !s.empty() && s[0] == '-';
    const size_t digits = negative ? 1 : 0;
    if (s.size() <= digits || (s[digits] == '0' && (negative || s.size() > 1)))
      return false;
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
    return error == std::errc() && end == s.data() + s.size();
  }

  std::string text(const simgrid::xbt::ReplayAction& a) const
  {
    std::string t = base_;
    for (size_t i = 2; i < 2 + fields_ && i < a.size(); ++i)
      t.append(1, ':').append(a[i]);
    return t;
  }

  std::string base_;
  size_t fields_;
  std::vector<std::vector<std::pair<Key, uint32_t>>> by_rank_; // by the first field's value
  std::unordered_map<Key, uint32_t, KeyHash> ids_;             // the other sites
};

// A wrapped action: its own type, so that a wrapped registration is told from SMPI's own.
struct Wrapped {
  std::function<void(simgrid::xbt::ReplayAction&)> body;
  void operator()(simgrid::xbt::ReplayAction& a) const { body(a); }
};

void register_wrapped(const std::string& action, const action_fun& function)
{
  const size_t fields      = identifying_fields(action);
  const bool polling       = action == "test";
  const bool init          = action == "init";
  const Counted counted    = counted_kind(action);
  const std::string base   = function_name(action) + "@trace";
  // An action without identifying fields has one site: named once, on its first occurrence.
  std::optional<uint32_t> sole_site;
  // Shared, so that every copy SimGrid makes of the wrapper uses one cache.
  auto sites = std::make_shared<FieldSites>(base, fields);
  auto body = [function, base, fields, polling, init, counted, sole_site, sites](simgrid::xbt::ReplayAction& a) mutable {
    const long pid = simgrid::s4u::this_actor::get_pid();
    if (annotated_replay(pid)) { // the rank's calls come from its trace's annotations (replay_calls.cpp)
      before_replayed_action(pid);
      count_replayed_action();
      progress_replayed(a);
      if (counted != Counted::No)
        messages().on_action(counted, a);
      function(a);
      if (init)
        replay_rank_started();
      after_replayed_action(pid, false);
      return;
    }
    if (fields == 0) {
      if (!sole_site)
        sole_site = named_site(base);
      enter_site(*sole_site);
    } else {
      enter_site(sites->site(a));
    }
    count_replayed_action(); // where a failing action is in the trace (replay_location.cpp)
    progress_replayed(a);
    if (counted != Counted::No)
      messages().on_action(counted, a);
    if (polling)
      bus().polling.publish(Polling{pid, true});
    function(a);
    if (init)
      replay_rank_started(); // our actions' MPI calls return their errors (replay_state.hpp)
    if (polling)
      bus().polling.publish(Polling{pid, false});
    haec_suite_mpi_exit();
  };
  xbt_replay_action_register(action.c_str(), Wrapped{std::move(body)});
}

// A computation: its counter annotation, if the trace has one for it, goes first. A computation
// or a sleep is no call, but in a trace carrying the recording run's calls it may be one of a
// call's actions (replay_calls.cpp).
void register_compute(const action_fun& function)
{
  xbt_replay_action_register("compute", Wrapped{[function](simgrid::xbt::ReplayAction& a) {
                               const long pid = simgrid::s4u::this_actor::get_pid();
                               const bool calls = annotated_replay(pid);
                               if (calls)
                                 before_replayed_action(pid);
                               before_replayed_computation(pid);
                               progress_replayed(a);
                               function(a);
                               if (calls)
                                 after_replayed_action(pid, true);
                             }});
}

void register_sleep(const action_fun& function)
{
  xbt_replay_action_register("sleep", Wrapped{[function](simgrid::xbt::ReplayAction& a) {
                               const long pid = simgrid::s4u::this_actor::get_pid();
                               if (!annotated_replay(pid)) {
                                 function(a);
                                 return;
                               }
                               before_replayed_action(pid);
                               function(a);
                               after_replayed_action(pid, true);
                             }});
}

} // namespace


bool replaying()
{
  return replay_seen;
}

void register_replay_action(const std::string& name, const action_fun& function)
{
  if (std::find(action_names().begin(), action_names().end(), name) == action_names().end())
    action_names().push_back(name);
  xbt_replay_action_register(name.c_str(), function);
}

// Every registered action not wrapped yet: SMPI registers its own again for every rank, and each
// rank calls this before its first action (registrations are process-wide: the first rank wraps).
void wrap_replay_actions()
{
  if (!replay_seen) {
    replay_seen = true;
    register_collective_replay_actions();
    register_comm_replay_actions();
    register_p2p_replay_actions();
    register_rma_replay_actions();
  }
  for (auto const& name : action_names()) {
    action_fun function;
    try {
      function = xbt_replay_action_get(name.c_str());
    } catch (const std::out_of_range&) { // not an action of this SimGrid
      continue;
    }
    if (function.target<Wrapped>() != nullptr)
      continue;
    if (name == "compute") // the computation between calls, not a call
      register_compute(function);
    else if (name == "sleep")
      register_sleep(function);
    else
      register_wrapped(name, function);
  }
}

void add_replay_results(Results& results)
{
  const std::string name = "messages_sent_equals_received";
  if (!replaying() && !simgrid::config::get_value<std::string>("smpi/replay").empty())
    reject_setting("smpi/replay: the trace was replayed by SimGrid's replayer, whose actions the suite cannot see; "
                   "replay with haec run --replay, or give smpirun the suite's: smpirun -replay TRACE "
                   "<build>/lib/haec-replay");
  if (!replaying()) {
    results.add_check(not_checked(name, "in emulation the PMPI layer reports each message once, when it is sent"));
    return;
  }
  results.add_check(receives_match_sends(run_record().traffic(), run_record().received()));
  const size_t open = unfinished_requests();
  results.add_check(Check{"collectives_completed", open == 0 ? Check::Result::Passed : Check::Result::Failed,
                          std::to_string(open) + " non-blocking collectives or requests of the trace never waited for"});
}

} // namespace haec::core::parts

