// Nodes, directed links and dimension-order routes of a PlatformSpec. Pure C++.
// Node ids are x-fastest: id = x + X*(y + Y*z). Host names: "node-x-y-z" for grids, "node-i" for
// clusters and fat trees. Links are simplex (one per direction), so both directions of a wire never share.
#pragma once
#include "hierarchical.hpp"
#include "platform_spec.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace haec::platform {

struct DirectedLink {
  uint32_t from;     // node id (cluster: node id for the up link, the switch is implicit)
  uint32_t to;       // node id
  uint16_t type;     // index into PlatformSpec::link_types
  uint8_t dim;       // 0=x, 1=y, 2=z; cluster: 0=up (node->switch), 1=down (switch->node);
                     // hierarchical: level - 1
};

class Topology {
public:
  explicit Topology(PlatformSpec spec);

  const PlatformSpec& spec() const { return spec_; }
  uint32_t num_nodes() const { return num_nodes_; }
  std::array<int, 3> coords(uint32_t node) const;
  uint32_t node_at(int x, int y, int z) const;
  std::string host_name(uint32_t node) const;

  const std::vector<DirectedLink>& links() const { return links_; }
  // Unique names (README): "opt-x+-1-2-0" = optical link leaving node (1,2,0) towards +x;
  // "wl-z-" .. wireless, "link-.." mesh/torus; full wireless "wl-z+-1-2-0-3-1" = (1,2,0) -> (3,1,1);
  // cluster "cable-up-3" (node 3 -> switch), "cable-down-3" (switch -> node 3); hierarchical
  // "l2-5-9" (level-2 cable node 5 -> node 9; level 3 adds the parallel cable's index: "l3-0-8-1").
  // Fat trees have no links here: SimGrid's FatTree zone owns its switches and cables.
  std::string link_name(uint32_t link) const;
  // Name of the per-node loopback link the SimGrid zone adds for same-node routes: "lo-<host>".
  std::string loopback_name(uint32_t node) const;
  // Whether dimension d wraps around (torus) for grids.
  bool wraps(int d) const { return wrap_[d]; }

  // Link ids of the route src -> dst in traversal order (empty when src == dst).
  // Grids: x hops, then y, then z (torus dimensions take the shorter way; ties go +).
  // haec-box with full wireless: when boards differ the first hop jumps from (xs,ys,zs) to
  // (xd,yd,zs±1) and the rest is aligned z hops, so hops = |dz|; otherwise x then y on the board.
  // Cluster: up link of src, down link of dst. Hierarchical: a shortest path (BFS, ties to the
  // lowest link id). Fat tree: throws std::logic_error (SimGrid's zone routes; see dor_distance).
  void route(uint32_t src, uint32_t dst, std::vector<uint32_t>& out) const;
  // Number of hops of route(src, dst), computed from coordinates (not from the route); fat tree:
  // the 2 l links of SimGrid's route up to the lowest common level l; hierarchical: BFS length.
  int dor_distance(uint32_t src, uint32_t dst) const;

private:
  PlatformSpec spec_;
  uint32_t num_nodes_ = 0;
  std::vector<DirectedLink> links_;
  // neighbour link lookup: for grids, link id of the hop from node n along dim d in direction
  // +1 (index 2*d) or -1 (index 2*d+1); UINT32_MAX when absent.
  std::vector<std::array<uint32_t, 6>> step_link_;
  // haec-box full wireless: first link id of the block between boards z and z+1: (X*Y)^2 up
  // links (index a*B+b, a on board z, b on board z+1) then (X*Y)^2 down links (index b*B+a).
  std::vector<uint32_t> wireless_block_;
  std::array<bool, 3> wrap_{false, false, false};
  bool full_wireless_ = false;
  std::shared_ptr<const ShortestPaths> paths_; // hierarchical only
  // Appends the DOR hops of dimension d from node `cur` towards coordinate `target`.
  uint32_t walk(uint32_t cur, int d, int from, int target, std::vector<uint32_t>& out) const;
  int dim_distance(int d, int from, int target) const;
  uint32_t l3_index(uint32_t id) const; // which of its rack pair's parallel level-3 cables

};

} // namespace haec::platform
