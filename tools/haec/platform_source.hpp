// What `--platform` names, resolved into what the CLI needs: the nodes to map ranks on, a hop
// count between nodes, and how smpirun gets the platform (our library + platform.json, or an XML).
#pragma once
#include "mapping.hpp"
#include "platform_spec.hpp"
#include "topology.hpp"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace haec::cli {

struct ResolvedPlatform {
  std::string text;                                 // as given on the command line
  std::unique_ptr<platform::Topology> topology;     // spec or platform.json platforms
  std::string xml_path;                             // XML platforms
  std::vector<mapping::Node> nodes;                 // xyz order
  std::vector<int> cores;                           // per node: its slots (ranks it holds without oversubscription)
  std::array<int, 3> dims{1, 1, 1};
  std::set<std::string> host_properties;            // XML platforms: the haec:* properties some host has
  std::vector<uint16_t> route_links;                // XML platforms: links of SimGrid's route a -> b at a * n + b
  // Whether hops() is known: always on our topologies, on XML platforms up to kRouteTableHosts.
  bool has_route_hops() const { return topology || !route_links.empty(); }
  std::string host_without_power;                   // first host with no power profile, "" if none
  int hops(int a, int b) const;                     // route length in links between node indices
};

// XML platforms of more hosts get no route table (n^2 SimGrid route queries): no hop figures.
inline constexpr size_t kRouteTableHosts = 1024;

// SPEC string, platform.json, or SimGrid XML file. Throws InputError.
ResolvedPlatform resolve_platform(const std::string& text);

} // namespace haec::cli
