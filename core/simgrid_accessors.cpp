// Two of SimGrid 3.32's most called functions read one variable each, the slow way:
// - s4u::Engine::get_instance() calls get_instance(argc, argv), which tests Engine::instance_
//   (about 37 instructions through two calls; 5.5 M calls in a 1024-rank replay: every simcall,
//   every Actor::by_pid and Actor::is_maestro asks for the engine);
// - kernel::context::Context::self() reads the thread-local current_context_ through
//   __tls_get_addr, as a library's thread-local must be read when the library could be dlopened
//   (about 23 instructions; 6.1 M calls: every ActorImpl::self and s4u::Actor::self).
// Together 4 % of the instructions of that replay (callgrind by hand; README, section Performance).
// The suite defines both in their place (libsimgrid calls them through its PLT) and reads the same
// variables directly: Engine::instance_ through the GOT, current_context_ at its fixed offset from
// the thread pointer (libsimgrid is loaded when the program starts, never dlopened, so its
// thread-locals have one). Same variables, same values: the answers cannot differ. With
// --cfg=haec/simgrid-accessors:simgrid, and before the run's settings are read, SimGrid's own
// definitions answer.
#include "core_parts.hpp"
#include "run.hpp"
#include "simgrid_symbol.hpp"

#define HAEC_ENGINE_INSTANCE "_ZN7simgrid3s4u6Engine9instance_E"
#define HAEC_ENGINE_GET_INSTANCE "_ZN7simgrid3s4u6Engine12get_instanceEv"
#define HAEC_CURRENT_CONTEXT "_ZN7simgrid6kernel7context7Context16current_context_E"
#define HAEC_CONTEXT_SELF "_ZN7simgrid6kernel7context7Context4selfEv"

extern void* simgrid_engine_instance asm(HAEC_ENGINE_INSTANCE);
extern __thread void* simgrid_current_context asm(HAEC_CURRENT_CONTEXT) __attribute__((tls_model("initial-exec")));

namespace {

using Accessor = void* (*)();

// Plain globals (zero before any static initialiser runs: SimGrid asks for its engine that early).
bool direct = false;
Accessor simgrid_get_instance = nullptr;
Accessor simgrid_context_self = nullptr;

// SimGrid's own definition of `symbol`, found on first use, called.
[[gnu::noinline]] void* ask_simgrid(Accessor& simgrids, const char* symbol)
{
  if (simgrids == nullptr)
    simgrids = haec::core::simgrid_symbol<Accessor>(symbol);
  return simgrids();
}

} // namespace

namespace haec::core::parts {

void start_simgrid_accessors()
{
  direct = haec::core::settings().text("haec/simgrid-accessors") == "direct";
}

} // namespace haec::core::parts

void* haec_engine_get_instance() asm(HAEC_ENGINE_GET_INSTANCE);
void* haec_context_self() asm(HAEC_CONTEXT_SELF);

void* haec_engine_get_instance()
{
  if (direct && simgrid_engine_instance != nullptr)
    return simgrid_engine_instance;
  return ask_simgrid(simgrid_get_instance, HAEC_ENGINE_GET_INSTANCE); // creates the engine when there is none yet
}

void* haec_context_self()
{
  if (direct)
    return simgrid_current_context;
  return ask_simgrid(simgrid_context_self, HAEC_CONTEXT_SELF);
}
