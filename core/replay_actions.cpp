// Trace replay seen as MPI calls. SMPI registers its replay actions with
// xbt_replay_action_register when each rank starts replaying (smpi_replay_init); libsimgrid
// calls it through its PLT, so this preloaded definition interposes it and registers a wrapper
// around each action instead: every action but compute/sleep is reported like a PMPI call
// (entered and left, as "MPI_<action>@trace" plus the peer for point-to-point actions), so code
// regions, iteration detection and MPI time work in replay as in emulation; a "test" action is
// also published as polling, as MPI_Test is in emulation. When recording, point-to-point actions
// also give the application's messages (traffic_matrix.csv) and their receives (a check).
//
// The interposition is the only way in: SimGrid 3.32 offers no hook between a rank's
// registrations and its first action. SimGrid's own function is found with dlsym(RTLD_NEXT) under
// the symbol name of our definition (dladdr), i.e. the mangling the compiler gives this very
// declaration of <xbt/replay.hpp>, never a name spelled out by hand.
#include "checks.hpp"
#include "core_parts.hpp"
#include "mapping_detail.hpp"
#include "run.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/replay.hpp>

#include <dlfcn.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <unordered_map>

extern "C" void haec_suite_mpi_exit(void);

namespace haec::core::parts {
namespace {

using Register = void (*)(const char*, const action_fun&);

bool replay_seen = false;

Register real_register()
{
  static Register real = [] {
    Dl_info self{};
    void* sym = nullptr;
    if (dladdr(reinterpret_cast<void*>(&::xbt_replay_action_register), &self) != 0 && self.dli_sname != nullptr)
      sym = dlsym(RTLD_NEXT, self.dli_sname);
    if (sym == nullptr) {
      std::fprintf(stderr, "haec: cannot find SimGrid's xbt_replay_action_register (%s)\n", dlerror());
      std::exit(3);
    }
    return reinterpret_cast<Register>(sym);
  }();
  return real;
}

// "MPI_Isend" for "isend", as the PMPI layer names functions ("MPI_Ialltoall" for our
// "haec_ialltoall", replay_extra_actions.cpp).
std::string function_name(const std::string& action)
{
  std::string f = "MPI_" + (action.rfind("haec_", 0) == 0 ? action.substr(5) : action);
  if (f.size() > 4)
    f[4] = static_cast<char>(std::toupper(static_cast<unsigned char>(f[4])));
  return f;
}

bool sends(const std::string& a)
{
  return a == "send" || a == "isend" || a == "Ssend" || a == "ISsend" || a == "bsend" || a == "ibsend";
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
enum class Counted { No, Init, Send, Recv, SendRecv };

Counted counted_kind(const std::string& action)
{
  if (!recording())
    return Counted::No;
  if (action == "init")
    return Counted::Init;
  if (sends(action))
    return Counted::Send;
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
  const double n = count < a.size() ? std::trunc(std::strtod(a[count].c_str(), nullptr)) : 0;
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
  rank_ = std::atoi(a[0].c_str());
  switch (kind) {
    case Counted::Init:
      default_size_[rank_] = a.size() > 2 ? 8 : 1;
      break;
    case Counted::Send:
      if (a.size() > 4)
        add_message(rank_, std::atoi(a[2].c_str()), bytes(a, 4, 5));
      break;
    case Counted::Recv:
      if (a.size() > 4)
        log_app_receive(std::atoi(a[2].c_str()), rank_, bytes(a, 4, 5));
      break;
    case Counted::SendRecv:
      if (a.size() > 5) {
        add_message(rank_, std::atoi(a[3].c_str()), bytes(a, 2, 6));
        log_app_receive(std::atoi(a[5].c_str()), rank_, bytes(a, 4, 7));
      }
      break;
    case Counted::No:
      break;
  }
}

void register_wrapped(const char* action_name, const action_fun& function)
{
  const std::string action = action_name;
  const size_t fields      = identifying_fields(action);
  const bool polling       = action == "test";
  const Counted counted    = counted_kind(action);
  const std::string base   = function_name(action) + "@trace";
  // An action without identifying fields has one site: named once, on its first occurrence.
  std::optional<uint32_t> sole_site;
  real_register()(action_name, [function, base, fields, polling, counted, sole_site](simgrid::xbt::ReplayAction& a) mutable {
    if (fields == 0) {
      if (!sole_site)
        sole_site = named_site(base);
      enter_site(*sole_site);
    } else {
      // One buffer for every action (actors take turns, and entering a site does not yield): a
      // known site costs no allocation.
      static std::string site;
      site.assign(base);
      for (size_t i = 2; i < 2 + fields && i < a.size(); ++i)
        site.append(1, ':').append(a[i]);
      enter_named_site(site);
    }
    if (counted != Counted::No)
      messages().on_action(counted, a);
    const long pid = simgrid::s4u::this_actor::get_pid();
    if (polling)
      bus().polling.publish(Polling{pid, true});
    function(a);
    if (polling)
      bus().polling.publish(Polling{pid, false});
    haec_suite_mpi_exit();
  });
}

} // namespace

void register_extra_replay_actions();   // replay_extra_actions.cpp
void register_rma_replay_actions();     // replay_rma_actions.cpp
size_t unfinished_collectives();        // replay_extra_actions.cpp

bool replaying()
{
  return replay_seen;
}

void add_replay_results(Results& results)
{
  const std::string name = "messages_sent_equals_received";
  if (!replaying()) {
    results.add_check(not_checked(name, "in emulation the PMPI layer reports each message once, when it is sent"));
    return;
  }
  results.add_check(receives_match_sends(run_record().traffic(), run_record().received()));
  const size_t open = unfinished_collectives();
  results.add_check(Check{"collectives_completed", open == 0 ? Check::Result::Passed : Check::Result::Failed,
                          std::to_string(open) + " non-blocking collectives of the trace never waited for"});
}

} // namespace haec::core::parts

void xbt_replay_action_register(const char* action_name, const action_fun& function)
{
  using namespace haec::core::parts;
  const std::string action = action_name;
  if (action == "init") { // SMPI registers its actions for a rank: ours go with them
    replay_seen = true;
    register_extra_replay_actions();
    register_rma_replay_actions();
  }
  if (action == "compute" || action == "sleep") // the computation between calls, not a call
    real_register()(action_name, function);
  else
    register_wrapped(action_name, function);
}
