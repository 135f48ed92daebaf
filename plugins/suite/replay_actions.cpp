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

// Point-to-point actions name their peer (field 2: "<rank> isend <dst> ..."), so a rank's
// sequence of sites tells its neighbours apart as call sites do in emulation.
bool names_peer(const std::string& action)
{
  return action == "send" || action == "isend" || action == "recv" || action == "irecv" || action == "Ssend" ||
         action == "ISsend" || action == "bsend" || action == "ibsend";
}

} // namespace

namespace haec::suite {
void register_extra_replay_actions(); // replay_extra_actions.cpp
}

void xbt_replay_action_register(const char* action_name, const action_fun& function)
{
  const std::string action = action_name;
  if (action == "init") // SMPI registers its actions for a rank: ours go with them
    haec::suite::register_extra_replay_actions();
  if (action == "compute" || action == "sleep") { // the computation between calls, not a call
    real_register()(action_name, function);
    return;
  }
  const std::string base = function_name(action) + "@trace";
  const bool peer        = names_peer(action);
  const bool polling     = action == "test";
  real_register()(action_name, [function, base, peer, polling](simgrid::xbt::ReplayAction& a) {
    haec::suite::enter_named_site(peer && a.size() > 2 ? base + ":" + a[2] : base);
    if (polling)
      haec_suite_polling(1);
    function(a);
    if (polling)
      haec_suite_polling(0);
    haec_suite_mpi_exit();
  });
}
