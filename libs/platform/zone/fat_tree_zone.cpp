#include "fat_tree_zone.hpp"
#include "fat_tree.hpp"
#include "host_setup.hpp"
#include "input_error.hpp"
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
  auto netpoint = [&](sg4::NetZone* zone, const std::vector<unsigned long>&, unsigned long id) {
    const auto node = static_cast<uint32_t>(id);
    sg4::Host* host = zone->create_host(topo.host_name(node), spec.node.speeds);
    configure_host(*host, settings, topo, node);
    if (hooks.host)
      hooks.host(*host, node);
    return std::make_pair(host->get_netpoint(), static_cast<simgrid::kernel::routing::NetPoint*>(nullptr));
  };
  auto loopback = [&](sg4::NetZone* zone, const std::vector<unsigned long>&, unsigned long id) {
    sg4::Link* lo = zone->create_link(topo.loopback_name(static_cast<uint32_t>(id)), {spec.loopback_bandwidth});
    lo->set_latency(spec.loopback_latency);
    lo->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
    lo->set_property("haec:type", "loopback");
    return lo;
  };
  std::vector<unsigned int> down(spec.fat_tree.down.begin(), spec.fat_tree.down.end());
  std::vector<unsigned int> up(spec.fat_tree.up.begin(), spec.fat_tree.up.end());
  std::vector<unsigned int> parallel(spec.fat_tree.parallel.begin(), spec.fat_tree.parallel.end());
  const sg4::FatTreeParams params(static_cast<unsigned>(spec.fat_tree.levels), down, up, parallel);
  const LinkType& type = spec.link_types.at(0);
  auto* root           = sg4::Engine::get_instance()->get_netzone_root();
  sg4::NetZone* zone   = sg4::create_fatTree_zone("haec-fat-tree", root, params, {netpoint, loopback, {}},
                                                  type.bandwidth, type.latency, sg4::Link::SharingPolicy::SPLITDUPLEX);
  configure_cables(topo);
  zone->seal();
}

} // namespace haec::platform
