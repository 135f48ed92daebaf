#include "fat_tree_zone.hpp"
#include "fat_tree.hpp"
#include "host_setup.hpp"
#include "input_error.hpp"
#include "simgrid_compat.hpp"
#include "units.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include <cstdio>

namespace haec::platform {
namespace {

namespace sg4 = simgrid::s4u;

// Level (1..L) of the switch SimGrid numbers `id`: switches count down from 2N-1, level 1 first.
int switch_level(const FatTreeShape& shape, long long nodes, long long id)
{
  long long offset = 2 * nodes - 1 - id;
  for (int level = 1; level <= shape.levels; ++level) {
    const long long count = fat_tree_switches(shape, level);
    if (offset < count)
      return level;
    offset -= count;
  }
  return -1;
}

// SimGrid creates the cables with one bandwidth: give each its level's, and our properties.
void configure_cables(const Topology& topo)
{
  const auto& spec     = topo.spec();
  const LinkType& type = spec.link_types.at(0);
  const std::string ber = units::exact(type.ber);
  for (sg4::Link* link : sg4::Engine::get_instance()->get_all_links()) {
    long long child = 0, parent = 0, unique = 0;
    if (std::sscanf(link->get_cname(), "link_from_%lld_%lld_%lld", &child, &parent, &unique) != 3)
      continue;
    const int level = switch_level(spec.fat_tree, topo.num_nodes(), parent);
    if (level < 1)
      throw InputError(spec.spec_text, "SimGrid fat-tree cable " + link->get_name() + " joins no known switch",
                       "report this as a bug");
    link->set_bandwidth(fat_tree_level_bandwidth(spec.fat_tree, type.bandwidth, level));
    link->set_property("haec:type", type.name);
    link->set_property("haec:ber", ber);
    link->set_property("haec:level", std::to_string(level));
  }
}

} // namespace

void build_fat_tree(const Topology& topo, const BuildHooks& hooks)
{
  static bool built = false;
  const auto& spec  = topo.spec();
  if (built)
    throw InputError(spec.spec_text, "a fat tree was already built in this process", "build one fat tree per process");
  built = true;

  const HostSettings settings(spec.node);
  auto leaf = [&](sg4::NetZone* zone, unsigned long id) {
    const auto node = static_cast<uint32_t>(id);
    sg4::Host* host = simgrid_compat::zone_add_host(*zone, topo.host_name(node), spec.node.speeds);
    configure_host(*host, settings, topo, node);
    if (hooks.host)
      hooks.host(*host, node);
    return host;
  };
  auto loopback = [&](sg4::NetZone* zone, unsigned long id) {
    sg4::Link* lo =
        simgrid_compat::zone_add_link(*zone, topo.loopback_name(static_cast<uint32_t>(id)), {spec.loopback_bandwidth});
    lo->set_latency(spec.loopback_latency);
    lo->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
    lo->set_property("haec:type", "loopback");
    return lo;
  };
  const LinkType& type = spec.link_types.at(0);
  const simgrid_compat::FatTreeShape shape{static_cast<unsigned>(spec.fat_tree.levels),
                                           {spec.fat_tree.down.begin(), spec.fat_tree.down.end()},
                                           {spec.fat_tree.up.begin(), spec.fat_tree.up.end()},
                                           {spec.fat_tree.parallel.begin(), spec.fat_tree.parallel.end()},
                                           type.bandwidth,
                                           type.latency,
                                           sg4::Link::SharingPolicy::SPLITDUPLEX};
  sg4::NetZone* zone = simgrid_compat::add_fat_tree_zone("haec-fat-tree", shape, leaf, loopback);
  zone->seal(); // SimGrid 4 makes the leaves and cables only now (3.32 when the zone was created)
  configure_cables(topo);
}

} // namespace haec::platform
