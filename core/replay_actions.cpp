// Trace replay seen as MPI calls. SMPI registers its replay actions with
// xbt_replay_action_register when each rank starts replaying (smpi_replay_init); libsimgrid
// calls it through its PLT, so this preloaded definition interposes it and registers a wrapper
// around each action instead: every action but compute/sleep is reported like a PMPI call
// (entered and left, as "MPI_<action>@trace" plus the peer for point-to-point actions), so code
// regions, DVFS iteration detection and MPI time work in replay as in emulation; a "test"
// action is also charged as polling (power plugin), as MPI_Test is in emulation.
#include "mpi_calls.hpp"

#include <xbt/replay.hpp>

#include <dlfcn.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" void haec_suite_mpi_exit(void);
extern "C" void haec_suite_polling(int polling);

namespace {

using Register = void (*)(const char*, const action_fun&);

Register real_register()
{
  static Register real = reinterpret_cast<Register>(dlsym(
      RTLD_NEXT, "_Z26xbt_replay_action_registerPKcRKSt8functionIFvRSt6vectorINSt7__cxx1112basic_stringIcSt11"
                 "char_traitsIcESaIcEEESaIS8_EEEE"));
  if (real == nullptr) {
    std::fprintf(stderr, "haec: cannot find SimGrid's xbt_replay_action_register (%s)\n", dlerror());
    std::exit(2);
  }
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

// How many fields after the action name identify a point-to-point action's site: the peer and
// the tag ("<rank> isend <dst> <tag> ..."), the source, destination and tag of a wait ("<rank>
// wait <src> <dst> <tag>"). A rank's sequence of sites then tells its neighbours and its code's
// phases (different tags) apart, as call sites do in emulation.
size_t identifying_fields(const std::string& action)
{
  if (action == "send" || action == "isend" || action == "recv" || action == "irecv" || action == "Ssend" ||
      action == "ISsend" || action == "bsend" || action == "ibsend")
    return 2;
  if (action == "wait")
    return 3;
  return 0;
}

} // namespace

namespace haec::suite {
void register_extra_replay_actions(); // replay_extra_actions.cpp
void register_rma_replay_actions();   // replay_rma_actions.cpp
}

void xbt_replay_action_register(const char* action_name, const action_fun& function)
{
  const std::string action = action_name;
  if (action == "init") { // SMPI registers its actions for a rank: ours go with them
    haec::suite::register_extra_replay_actions();
    haec::suite::register_rma_replay_actions();
  }
  if (action == "compute" || action == "sleep") { // the computation between calls, not a call
    real_register()(action_name, function);
    return;
  }
  const std::string base = function_name(action) + "@trace";
  const size_t fields    = identifying_fields(action);
  const bool polling     = action == "test";
  real_register()(action_name, [function, base, fields, polling](simgrid::xbt::ReplayAction& a) {
    std::string site = base;
    for (size_t i = 2; i < 2 + fields && i < a.size(); ++i)
      site += ":" + a[i];
    haec::suite::enter_named_site(site);
    if (polling)
      haec_suite_polling(1);
    function(a);
    if (polling)
      haec_suite_polling(0);
    haec_suite_mpi_exit();
  });
}
