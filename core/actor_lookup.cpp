// SimGrid 3.32 finds an actor by its pid in a std::map of every actor (EngineImpl::get_actor_by_pid),
// and SMPI asks for every MPI request it builds (the sender's host, smpi_request.cpp): a walk down
// a 12-level tree at 4096 ranks, 2.2 % of a replay's CPU samples there (perf by hand; README,
// section Performance). Pids are small integers never reused, so the actors SimGrid has found are
// kept in a vector indexed by pid. An actor leaves the vector when it terminates: SimGrid removes it
// from its map in ActorImpl::cleanup_from_kernel, which then fires s4u::Actor::on_termination, and
// nothing asks for it in between; a terminated pid is never cached again, so SimGrid answers for it.
// libsimgrid calls get_actor_by_pid through its PLT, so this preloaded definition takes its place.
// Off (SimGrid's map answers every time) before the run's settings are read, with
// --cfg=haec/actor-lookup:simgrid, and when actors run in parallel threads (contexts/nthreads > 1).
#include "core_parts.hpp"
#include "run.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <xbt/config.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

#define HAEC_GET_ACTOR_BY_PID "_ZN7simgrid6kernel10EngineImpl16get_actor_by_pidEl"

using Lookup = void* (*)(void*, long); // EngineImpl::get_actor_by_pid(aid_t): this, pid

Lookup simgrid_lookup()
{
  void* f = dlsym(RTLD_NEXT, HAEC_GET_ACTOR_BY_PID);
  if (f == nullptr) {
    std::fprintf(stderr, "haec: cannot find SimGrid's %s (%s)\n", HAEC_GET_ACTOR_BY_PID, dlerror());
    std::exit(2);
  }
  return reinterpret_cast<Lookup>(f);
}

struct ActorCache {
  bool on = false;
  std::vector<void*> actors; // by pid: the ActorImpl SimGrid found, null when not (or no longer) cached
  std::vector<bool> ended;   // by pid: terminated, SimGrid answers

  void forget(long pid)
  {
    const auto p = static_cast<size_t>(pid);
    if (p >= ended.size()) {
      ended.resize(p + 1, false);
      actors.resize(p + 1, nullptr);
    }
    ended[p]  = true;
    actors[p] = nullptr;
  }
};

ActorCache& cache()
{
  static ActorCache c;
  return c;
}

} // namespace

namespace haec::core::parts {

void start_actor_lookup()
{
  ActorCache& c = cache();
  c.on = haec::core::settings().text("haec/actor-lookup") == "cached" && simgrid::config::get_value<int>("contexts/nthreads") <= 1;
  if (c.on)
    simgrid::s4u::Actor::on_termination_cb([](simgrid::s4u::Actor const& a) { cache().forget(a.get_pid()); });
}

} // namespace haec::core::parts

void* haec_get_actor_by_pid(void* engine, long pid) asm(HAEC_GET_ACTOR_BY_PID);

void* haec_get_actor_by_pid(void* engine, long pid)
{
  static const Lookup real = simgrid_lookup();
  ActorCache& c = cache();
  if (!c.on || pid < 0)
    return real(engine, pid);
  const auto p = static_cast<size_t>(pid);
  if (p < c.actors.size() && c.actors[p] != nullptr)
    return c.actors[p];
  void* actor = real(engine, pid);
  if (actor != nullptr && !(p < c.ended.size() && c.ended[p])) {
    if (p >= c.actors.size()) {
      c.actors.resize(p + 1, nullptr);
      c.ended.resize(p + 1, false);
    }
    c.actors[p] = actor;
  }
  return actor;
}
