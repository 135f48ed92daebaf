// A SimGrid netzone over a haec::platform::Topology. SimGrid asks get_local_route() for every
// communication; we translate the two hosts to node ids and let Topology::route() walk its
// neighbour table, so memory stays O(nodes + links) instead of O(nodes^2) routes.
#include "haec_zone.hpp"
#include "fat_tree_zone.hpp"
#include "host_setup.hpp"
#include "input_error.hpp"
#include "message_router.hpp"
#include "simgrid_compat.hpp"
#include "units.hpp"

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <xbt/asserts.h>

#include <memory>
#include <string>
#include <vector>

namespace haec::platform {
namespace {

namespace sg  = simgrid;
namespace sgr = simgrid::kernel::routing;
using sg::s4u::Link;

MessageRouting* active_routing = nullptr; // the zone routing per message, if any (one per process)

class HaecZone : public sgr::NetZoneImpl, public MessageRouting {
public:
  HaecZone(const std::string& name, const Topology& topo, const RoutingChoice& routing) : NetZoneImpl(name), topo_(topo)
  {
    if (routing.policy != RoutingPolicy::Static) { // static: Topology::route, exactly as without a policy
      router_        = std::make_unique<MessageRouter>(topo_, routing.policy, routing.seed);
      active_routing = this;
    }
  }
  ~HaecZone() override
  {
    if (active_routing == this)
      active_routing = nullptr;
  }

  void build(const BuildHooks& hooks);

  void get_local_route(const sgr::NetPoint* src, const sgr::NetPoint* dst, sgr::Route* into, double* latency) override
  {
    const uint32_t s = node_of(src), d = node_of(dst);
    if (s == d) { // SimGrid refuses an empty route without latency: use the node's loopback
      add(into, loopback_[s], latency);
      return;
    }
    if (router_) { // the route the pair's next message takes; asking changes nothing
      for (uint32_t id : router_->next(s, d))
        add(into, links_by_id_[id], latency);
      return;
    }
    // Per-thread scratch: s4u::Host::route_to() may run in parallel actors without a simcall.
    thread_local std::vector<uint32_t> ids;
    topo_.route(s, d, ids);
    into->link_list_.reserve(into->link_list_.size() + ids.size()); // one allocation, not log2(hops)
    for (uint32_t id : ids)
      add(into, links_by_id_[id], latency);
  }

  uint64_t start(const sg::s4u::Host& src, const sg::s4u::Host& dst, double bytes) override
  {
    const uint32_t s = node_of(src.get_netpoint()), d = node_of(dst.get_netpoint());
    return s == d ? 0 : router_->start(s, d, bytes); // same node: the loopback, no choice
  }
  void end(uint64_t token) override { router_->end(token); }

  // Only used for topology traces: one edge per directed link instead of SimGrid's all-pairs walk.
  void get_graph(const s_xbt_graph_t* graph, std::map<std::string, xbt_node_t, std::less<>>* nodes,
                 std::map<std::string, xbt_edge_t, std::less<>>* edges) override
  {
    for (uint32_t id = 0; id < links_by_id_.size(); ++id) {
      auto const& l     = topo_.links()[id];
      std::string from  = topo_.host_name(l.from), to = topo_.host_name(l.to);
      if (topo_.spec().kind == Kind::Cluster) // the switch is implicit: draw node -> cable -> "switch"
        (l.dim == 0 ? to : from) = get_name() + "-switch";
      xbt_node_t a = new_xbt_graph_node(graph, from.c_str(), nodes);
      xbt_node_t b = new_xbt_graph_node(graph, links_by_id_[id].link->get_cname(), nodes);
      xbt_node_t c = new_xbt_graph_node(graph, to.c_str(), nodes);
      new_xbt_graph_edge(graph, a, b, edges);
      new_xbt_graph_edge(graph, b, c, edges);
    }
  }

private:
  // A link and its kernel object, found once: Link::get_impl() is a dynamic_cast, and every
  // message's route asks for each of its links.
  struct Hop {
    Link* link;
    sg::kernel::resource::StandardLinkImpl* impl;
    explicit Hop(Link* l) : link(l), impl(l->get_impl()) {}
  };

  static void add(sgr::Route* into, const Hop& hop, double* latency)
  {
    into->link_list_.push_back(hop.impl);
    if (latency) // read live: a latency profile or plugin may change it during the run
      *latency += hop.link->get_latency();
  }

  uint32_t node_of(const sgr::NetPoint* p) const
  {
    const unsigned long v = p->id();
    if (p->get_englobing_zone() != this || v >= vertex_node_.size() || vertex_node_[v] == UINT32_MAX)
      xbt_die("haec zone %s: no route for '%s', which is not one of its hosts", get_cname(), p->get_cname());
    return vertex_node_[v];
  }

  Topology topo_; // own copy: routes are asked for until the engine is destroyed
  std::vector<uint32_t> vertex_node_; // NetPoint::id() in this zone -> node id
  std::vector<Hop> links_by_id_; // Topology link id -> SimGrid link
  std::vector<Hop> loopback_;    // node id -> its loopback link
  std::unique_ptr<MessageRouter> router_; // non-static policies only
};

void HaecZone::build(const BuildHooks& hooks)
{
  const auto& spec = topo_.spec();
  const uint32_t n = topo_.num_nodes();

  loopback_.reserve(n);
  const HostSettings settings(spec.node);
  for (uint32_t node = 0; node < n; ++node) {
    sg::s4u::Host* host = simgrid_compat::zone_add_host(*this, topo_.host_name(node), spec.node.speeds);
    configure_host(*host, settings, topo_, node);
    const unsigned long v = host->get_netpoint()->id();
    if (v >= vertex_node_.size())
      vertex_node_.resize(v + 1, UINT32_MAX);
    vertex_node_[v] = node;

    Link* lo = simgrid_compat::zone_add_link(*this, topo_.loopback_name(node), {spec.loopback_bandwidth});
    lo->set_latency(spec.loopback_latency);
    lo->set_sharing_policy(Link::SharingPolicy::FATPIPE);
    lo->set_property("haec:type", "loopback");
    loopback_.emplace_back(lo);
    if (hooks.host)
      hooks.host(*host, node);
  }

  const auto& links = topo_.links();
  links_by_id_.reserve(links.size());
  const std::vector<std::string> ber_text = [&] {
    std::vector<std::string> t;
    for (auto const& lt : spec.link_types)
      t.push_back(units::exact(lt.ber));
    return t;
  }();
  for (uint32_t id = 0; id < links.size(); ++id) {
    const LinkType& type = spec.link_types[links[id].type];
    Link* link = simgrid_compat::zone_add_link(*this, topo_.link_name(id), {type.bandwidth});
    link->set_latency(type.latency);
    link->set_sharing_policy(Link::SharingPolicy::SHARED);
    link->set_property("haec:type", type.name);
    link->set_property("haec:ber", ber_text[links[id].type]);
    links_by_id_.emplace_back(link);
    if (hooks.link)
      hooks.link(*link, id);
  }
}

} // namespace

void build_in_simgrid(const Topology& topo)
{
  build_in_simgrid(topo, BuildHooks{});
}

MessageRouting* message_routing()
{
  return active_routing;
}

void build_in_simgrid(const Topology& topo, const BuildHooks& hooks, const RoutingChoice& routing)
{
  const std::string what = topo.spec().spec_text.empty() ? "platform" : topo.spec().spec_text;
  check_routing_supported(topo.spec(), routing.policy, "--cfg=haec/routing:" + routing_policy_name(routing.policy));
  if (!sg::s4u::Engine::is_initialized())
    throw InputError(what, "no SimGrid engine", "create the s4u::Engine (or call from load_platform) first");
  auto* engine = sg::s4u::Engine::get_instance();
  if (engine->host_by_name_or_null(topo.host_name(0)) != nullptr)
    throw InputError(what, "host " + topo.host_name(0) + " already exists (platform built twice?)",
                     "build the platform once");

  if (topo.spec().kind == Kind::FatTree) { // SimGrid's own zone, cables and d-mod-k routes
    build_fat_tree(topo, hooks);
    return;
  }
  auto* root = engine->get_netzone_root();
  // Without a root the first NetZoneImpl becomes the root and SimGrid sets its models up.
  auto* zone = new HaecZone("haec-" + kind_name(topo.spec().kind), topo, routing);
  if (root != nullptr)
    zone->set_parent(root->get_impl());
  zone->build(hooks);
  zone->seal(); // seals every host and link once (each fires its creation signal once)
}

} // namespace haec::platform
