// Target of a generated platform (libs/platform/model): hop counts and routes from its Topology,
// route profiles (hops per link class) from coordinates, which the unit tests check against the
// routes themselves.
#include "target.hpp"
#include "topology.hpp"

#include <cstdlib>

namespace haec::mapping {
namespace {

Shape shape_of(platform::Kind kind)
{
  switch (kind) {
    case platform::Kind::Mesh: return Shape::Mesh;
    case platform::Kind::Torus: return Shape::Torus;
    case platform::Kind::HaecBox: return Shape::HaecBox;
    case platform::Kind::Cluster: return Shape::Cluster;
    case platform::Kind::FatTree:
    case platform::Kind::Hierarchical: return Shape::Other;
  }
  return Shape::Other;
}

// Hops along dimension d between coordinates a and b (the shorter way round where it wraps).
int axis_hops(const platform::Topology& t, int d, int a, int b)
{
  const int delta = std::abs(a - b);
  if (!t.wraps(d))
    return delta;
  const int size = t.spec().dims[d];
  return delta <= size - delta ? delta : size - delta;
}

// Hops per link class of the DOR route a -> b. Link classes are the spec's link types: haec-box
// 0 = optical (x, y on a board) and 1 = wireless (z); mesh and torus 0 = link; cluster 0 = cable.
RouteProfile profile_of(const platform::Topology& t, int a, int b)
{
  RouteProfile p;
  if (a == b)
    return p;
  const auto& spec = t.spec();
  if (spec.kind == platform::Kind::Cluster) {
    p.hops[0] = 2; // up to the switch, down to the node
    return p;
  }
  if (spec.kind == platform::Kind::FatTree) {
    p.hops[0] = static_cast<uint16_t>(t.dor_distance(static_cast<uint32_t>(a), static_cast<uint32_t>(b)));
    return p;
  }
  if (spec.kind == platform::Kind::Hierarchical) { // hops per level l1, l2, l3 of the route
    std::vector<uint32_t> route;
    t.route(static_cast<uint32_t>(a), static_cast<uint32_t>(b), route);
    for (uint32_t id : route)
      ++p.hops.at(t.links()[id].type);
    return p;
  }
  const auto s = t.coords(static_cast<uint32_t>(a)), d = t.coords(static_cast<uint32_t>(b));
  const int board = axis_hops(t, 0, s[0], d[0]) + axis_hops(t, 1, s[1], d[1]);
  const int dz    = axis_hops(t, 2, s[2], d[2]);
  if (spec.kind != platform::Kind::HaecBox) {
    p.hops[0] = static_cast<uint16_t>(board + dz);
    return p;
  }
  // Full wireless: a route that changes board jumps straight to the target's (x, y).
  p.hops[0] = static_cast<uint16_t>(spec.wireless_full && dz > 0 ? 0 : board);
  p.hops[1] = static_cast<uint16_t>(dz);
  return p;
}

} // namespace

Target target_from_topology(const platform::Topology& topology)
{
  const platform::Topology* t = &topology;
  Target target;
  const auto& spec = t->spec();
  target.dims      = spec.dims;
  target.shape     = shape_of(spec.kind);
  target.cores     = spec.node.cores;
  for (uint32_t n = 0; n < t->num_nodes(); ++n)
    target.nodes.push_back({t->host_name(n), t->coords(n)});
  target.hops    = [t](int a, int b) { return t->dor_distance(static_cast<uint32_t>(a), static_cast<uint32_t>(b)); };
  target.profile = [t](int a, int b) { return profile_of(*t, a, b); };
  if (spec.kind != platform::Kind::FatTree) // fat-tree cables live in SimGrid's zone only
    target.route = [t](int a, int b, std::vector<uint32_t>& out) {
      t->route(static_cast<uint32_t>(a), static_cast<uint32_t>(b), out);
    };
  for (const auto& lt : spec.link_types)
    target.link_classes.push_back({lt.name, lt.bandwidth, lt.latency, lt.ber});
  target.link_class_of.reserve(t->links().size());
  for (const auto& l : t->links())
    target.link_class_of.push_back(static_cast<uint8_t>(l.type));
  return target;
}

Target target_from_nodes(std::vector<Node> nodes, std::function<int(int, int)> hops)
{
  Target target;
  target.dims  = {static_cast<int>(nodes.size()), 1, 1};
  target.nodes = std::move(nodes);
  target.hops  = std::move(hops);
  return target;
}

} // namespace haec::mapping
