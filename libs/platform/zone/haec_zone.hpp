// SimGrid adapter: builds a Topology as one SimGrid netzone whose routes are computed on demand
// by Topology::route() (nothing per pair is stored, so a 16x16x16 torus loads in well under a second).
#pragma once
#include "route_policy.hpp"
#include "topology.hpp"

#include <simgrid/forward.h>

#include <cstdint>
#include <functional>

namespace haec::platform {

// Optional callbacks run on each host / link after it is configured and before the zone is
// sealed (SimGrid's Host/Link creation signals fire at sealing, so plugins see these settings).
struct BuildHooks {
  std::function<void(simgrid::s4u::Host& host, uint32_t node)> host;
  std::function<void(simgrid::s4u::Link& link, uint32_t link_id)> link; // topology links, not loopbacks
};

// Call from a `load_platform(const simgrid::s4u::Engine&)` entry point, or after creating an
// s4u::Engine. The zone becomes the root netzone (or a child of the root if one exists) and keeps
// its own copy of `topo`. Creates, per node, host Topology::host_name(n) (pstate speeds, core
// count, properties haec:coords="x,y,z" and haec:node="n") and a FATPIPE loopback link used for
// same-node routes; per directed link a SHARED simplex link named Topology::link_name(id) with
// properties haec:type (optical|wireless|link|cable) and haec:ber. Then seals the zone, which
// fires each host/link creation signal exactly once. Throws haec::InputError when called twice,
// or when `routing` asks a platform for per-message routes it does not have
// (check_routing_supported). A non-static policy makes message_routing() the zone's.
void build_in_simgrid(const Topology& topo);
void build_in_simgrid(const Topology& topo, const BuildHooks& hooks, const RoutingChoice& routing = {});

// Per-message routes (haec/routing), for the core's transfer callbacks. SimGrid asks the zone for
// a message's route (and for its reverse flow) before those callbacks run; the core then says that
// the message left (start) and, later, that it ended: the only events that change the route the
// pair's next message takes (MessageRouter), so every other caller of route_to() only looks.
class MessageRouting {
public:
  virtual ~MessageRouting() = default;
  virtual uint64_t start(const simgrid::s4u::Host& src, const simgrid::s4u::Host& dst, double bytes) = 0;
  virtual void end(uint64_t token) = 0;
};
// The zone's, or nullptr when every route is static (the default, fat trees, XML platforms).
MessageRouting* message_routing();

} // namespace haec::platform
