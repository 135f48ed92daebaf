// The event bus: what the core observes in a run, published to the plugins that subscribed. One
// channel per event type; a plugin subscribes in its start function (run.hpp), and the core
// connects a SimGrid signal only when some channel fed by it has a subscriber. Subscribers run in
// plugin order (core first, then link, power, dvfs, balance: the order of their `order` numbers).
#pragma once
#include "run_record.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace simgrid::s4u {
class Activity;
class Exec;
class Host;
class Link;
} // namespace simgrid::s4u

namespace haec::core {

// An MPI call of a rank entered or left (PMPI layer in emulation, replayed actions in replay).
struct MpiCall {
  long pid;      // the rank's actor
  uint32_t site; // interned call site (site_text)
  bool enter;    // entering (true) or leaving the call
  double time;   // simulated clock
};

// A rank's call entry that starts a new iteration (haec/iterations), published before the
// MpiCall event of the same call.
struct IterationBoundary {
  long pid;
  uint32_t site;
  long iteration; // 1 for the first boundary (iteration 0 is the prologue)
  double time;
};

constexpr uint32_t kNoRegion = UINT32_MAX; // no code region (current_region(pid), run.hpp)

// A computation (an Exec) started; `pid` is -1 outside an actor. `counters`: the hardware counts
// of the burst it runs (counters[i] of event counter_events()[i], run.hpp), nullptr when it carries
// none; valid during the publication only. `host` and `region` are asked of SimGrid and of the
// call sites once here rather than by every subscriber.
struct ComputationStarted {
  const simgrid::s4u::Exec& exec;
  long pid;
  double time;
  const std::vector<double>* counters = nullptr;
  bool polling = false; // SMPI's MPI_Iprobe spin (an Exec named "iprobe"), not a burst of the program
  const simgrid::s4u::Host* host = nullptr; // the host it runs on; nullptr when it spans several
  uint32_t region = kNoRegion;              // current_region(pid) when it started
};

// A computation the core saw start completed at `end` (its finish time, or now).
struct ComputationEnded {
  const simgrid::s4u::Activity& exec;
  double end;
};

// A network transfer completed; `transfer.model_time` is the link model's T (-1 without one).
// With per-message routes (haec/routing) `route` is the links the transfer took and `back_route`
// those of its reverse flow (network/crosstraffic, else empty); nullptr when routes are static
// (a pair's route is then src->route_to(dst)).
struct TransferCompleted {
  const Transfer& transfer;
  const simgrid::s4u::Host* src;
  const simgrid::s4u::Host* dst;
  const std::vector<simgrid::s4u::Link*>* route      = nullptr;
  const std::vector<simgrid::s4u::Link*>* back_route = nullptr;
  // When recording: the links it crossed (its route, static or not) as the core's link ids
  // (link_of_id, run.hpp), interned per route, so a subscriber can index instead of hashing.
  const std::vector<uint32_t>* link_ids = nullptr;
};

// A rank enters (begin) or leaves a polling call (MPI_Test*, a replayed test).
struct Polling {
  long pid;
  bool begin;
};

// A rank's actor moved to another host (load balancing).
struct RankMigrated {
  long pid;
  int rank;
  const simgrid::s4u::Host* from;
  const simgrid::s4u::Host* to;
  double time;
};

template <class Event> class Channel {
public:
  void subscribe(std::function<void(const Event&)> subscriber) { subscribers_.push_back(std::move(subscriber)); }
  bool empty() const { return subscribers_.empty(); }
  void publish(const Event& event) const
  {
    for (auto const& s : subscribers_)
      s(event);
  }

private:
  std::vector<std::function<void(const Event&)>> subscribers_;
};

struct Bus {
  Channel<MpiCall> mpi_calls;
  Channel<IterationBoundary> iteration_boundaries;
  Channel<ComputationStarted> computation_started;
  Channel<ComputationEnded> computation_ended;
  Channel<TransferCompleted> transfer_completed;
  Channel<Polling> polling;
  Channel<RankMigrated> rank_migrated;
};

// The run's bus (run_context.cpp): a global, since every MPI call and transfer reaches it.
extern Bus the_bus;
inline Bus& bus()
{
  return the_bus;
}

} // namespace haec::core
