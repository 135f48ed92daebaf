// Candidate routes of a node pair on the hierarchical network (MARS seed 003 §2.4, §3.3): every
// shortest path, and indirect routes through other racks. Pure C++: no SimGrid include.
#pragma once
#include "topology.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace haec::platform {

using Path = std::vector<uint32_t>; // link ids in traversal order

class RouteCandidates {
public:
  // More shortest paths than this are not kept (documented limit; the hierarchical network has
  // few: a pair has several only through parallel level-3 cables at equal distance).
  static constexpr size_t kMaxShortest = 8;

  // `topo` must be hierarchical and outlive this object.
  explicit RouteCandidates(const Topology& topo);

  // Candidate 0 is Topology::route() (the static route). Then the pair's other shortest paths, in
  // lexicographic order of their link ids. Then, when the two nodes are in different racks, one
  // route through each of detour_racks(): the shortest path that goes from the source's rack to
  // the detour rack and from there to the destination's rack (two level-3 hops; ties to the lowest
  // link id). Computed on the pair's first use and kept (with each endpoint's BFS distances: 4
  // bytes per node per endpoint).
  const std::vector<Path>& of(uint32_t src, uint32_t dst);

  // The `count` racks an indirect route from rack `from` to rack `to` may cross: those following
  // `to` cyclically, skipping `from` (so that the pairs of an all-to-all spread over all racks).
  static std::vector<uint32_t> detour_racks(uint32_t from, uint32_t to, uint32_t racks, int count);

private:
  const std::vector<int>& distances(uint32_t node); // hop counts from `node`, kept per node
  Path bfs_path(uint32_t src, uint32_t dst, const std::function<bool(uint32_t)>& allowed) const;
  void shortest_paths(uint32_t src, uint32_t dst, std::vector<Path>& out);
  Path via_rack(uint32_t src, uint32_t dst, uint32_t rack) const;
  uint32_t rack_of(uint32_t node) const { return node / rack_size_; }

  const Topology& topo_;
  uint32_t rack_size_;
  std::vector<uint32_t> out_begin_, out_links_; // outgoing link ids per node, ascending
  std::unordered_map<uint64_t, std::vector<Path>> cache_;
  std::vector<std::unique_ptr<std::vector<int>>> distances_; // per node, once it is an endpoint
};

} // namespace haec::platform
