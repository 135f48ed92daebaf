// The machine as the mapping strategies and metrics see it: nodes, DOR hop counts, and for the
// platforms we generate the link classes (optical, wireless, ...) and routes. Pure C++.
#pragma once
#include "mapping.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace haec::platform {
class Topology;
}

namespace haec::mapping {

struct LinkClass {
  std::string name;     // haec:type: optical, wireless, link, cable
  double bandwidth = 0; // bytes/s
  double latency   = 0; // s
  double ber       = 0; // bit error rate
};

constexpr int kMaxLinkClasses = 4;

// Hops of one route per link class (order along the route does not matter to any cost we use).
struct RouteProfile {
  std::array<uint16_t, kMaxLinkClasses> hops{};
  int total() const { return hops[0] + hops[1] + hops[2] + hops[3]; }
};

enum class Shape { Mesh, Torus, HaecBox, Cluster, Other };

struct Target {
  std::vector<Node> nodes;          // xyz order
  std::array<int, 3> dims{1, 1, 1}; // grid extent ({N,1,1} for clusters and XML platforms)
  Shape shape = Shape::Other;
  int cores   = 1;                  // per node
  // Route length in links between node indices (0 on one node): DOR on our topologies, SimGrid's
  // routes on XML platforms; empty when unknown (hop figures are then absent).
  std::function<int(int, int)> hops;

  // Generated platforms only (empty for a SimGrid XML platform, whose routes we do not know):
  std::vector<LinkClass> link_classes;
  std::function<RouteProfile(int, int)> profile;               // hops per link class
  std::function<void(int, int, std::vector<uint32_t>&)> route; // link ids of the DOR route
  std::vector<uint8_t> link_class_of;                          // link id -> index in link_classes
  bool has_routes() const { return static_cast<bool>(route); }

  // Hop counts of every node pair (a * N + b), shared by the strategies that run on this target
  // (auto runs many); null until attach_hop_table.
  std::shared_ptr<const std::vector<uint8_t>> hop_table;
};

// Fills Target::hop_table when the platform is small enough (N <= 4096: 16 MiB) and every hop
// count fits in a byte; otherwise leaves it null.
void attach_hop_table(Target& target);

// A platform of ours. The Topology must outlive the Target (the functions refer to it).
Target target_from_topology(const platform::Topology& topology);
// Any node list with a hop function (SimGrid XML): no routes, no link classes.
Target target_from_nodes(std::vector<Node> nodes, std::function<int(int, int)> hops);

} // namespace haec::mapping
