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
#include "simgrid_symbol.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <xbt/config.hpp>

#include <vector>

namespace {

#define HAEC_GET_ACTOR_BY_PID "_ZN7simgrid6kernel10EngineImpl16get_actor_by_pidEl"

using Lookup = void* (*)(void*, long); // EngineImpl::get_actor_by_pid(aid_t): this, pid

// Namespace-scope state, not function statics: the lookup runs for every request SMPI builds.
// Plain pointers (valid before any static initialiser runs), set when the run starts and never
// freed: SimGrid may still look actors up while the process exits.
std::vector<void*>* cached = nullptr; // by pid: the ActorImpl found, null when not (or no longer) cached
std::vector<bool>* ended   = nullptr; // by pid: terminated, SimGrid answers
Lookup real_lookup = nullptr;

// Both vectors cover pid p (they always have the same size).
void cover(size_t p)
{
  if (p >= cached->size()) {
    cached->resize(p + 1, nullptr);
    ended->resize(p + 1, false);
  }
}

void forget(long pid)
{
  const auto p = static_cast<size_t>(pid);
  cover(p);
  (*ended)[p]  = true;
  (*cached)[p] = nullptr;
}

// SimGrid's answer, kept unless the actor has terminated.
[[gnu::noinline]] void* look_up(void* engine, long pid)
{
  if (real_lookup == nullptr)
    real_lookup = haec::core::simgrid_symbol<Lookup>(HAEC_GET_ACTOR_BY_PID);
  void* actor = real_lookup(engine, pid);
  const auto p = static_cast<size_t>(pid);
  if (cached != nullptr && actor != nullptr && pid >= 0 && !(p < ended->size() && (*ended)[p])) {
    cover(p);
    (*cached)[p] = actor;
  }
  return actor;
}

} // namespace

namespace haec::core::parts {

void start_actor_lookup()
{
  if (haec::core::settings().text("haec/actor-lookup") != "cached" ||
      simgrid::config::get_value<int>("contexts/nthreads") > 1)
    return;
  ended  = new std::vector<bool>;
  cached = new std::vector<void*>;
  simgrid::s4u::Actor::on_termination_cb([](simgrid::s4u::Actor const& a) { forget(a.get_pid()); });
}

} // namespace haec::core::parts

void* haec_get_actor_by_pid(void* engine, long pid) asm(HAEC_GET_ACTOR_BY_PID);

void* haec_get_actor_by_pid(void* engine, long pid)
{
  const auto p = static_cast<size_t>(pid); // a negative pid is huge: never below the size
  if (cached != nullptr && p < cached->size() && (*cached)[p] != nullptr)
    return (*cached)[p];
  return look_up(engine, pid);
}
