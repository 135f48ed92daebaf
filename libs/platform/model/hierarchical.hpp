// MARS's hierarchical direct network (hierarchical:SxBxR): which switch holds which link, and
// shortest-path routes by breadth-first search over the links. Pure C++: no SimGrid include.
#pragma once
#include "platform_spec.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace haec::platform {

struct DirectedLink;

// Directed links: level 1 (type 0) both ways between every two switches of a board, level 2
// (type 1) one cable per board pair of a rack, level 3 (type 2) l3_links cables per rack pair.
// A board's level-2 cable to its i-th peer board leaves from switch i mod S; a rack's k-th
// level-3 cable to its i-th peer rack leaves from the rack's switch (i*l3 + k) mod (S*B),
// switches counted board by board. dim = level - 1.
void hierarchical_links(const PlatformSpec& spec, std::vector<DirectedLink>& links);
long long hierarchical_directed_links(const PlatformSpec& spec);

// Shortest routes over a link list; ties go to the lowest link id (deterministic). Each source's
// BFS predecessor table is computed once, on first use, and shared by copies (thread-safe).
class ShortestPaths {
public:
  ShortestPaths(uint32_t nodes, const std::vector<DirectedLink>& links);
  void route(uint32_t src, uint32_t dst, std::vector<uint32_t>& out) const;
  int distance(uint32_t src, uint32_t dst) const;

private:
  struct Cache {
    std::mutex lock;
    std::vector<std::unique_ptr<std::vector<uint32_t>>> pred; // per source: link into each node
  };
  const std::vector<uint32_t>& tree(uint32_t src) const;
  uint32_t nodes_ = 0;
  std::vector<uint32_t> out_begin_, out_links_; // CSR: outgoing link ids per node, by id
  std::vector<uint32_t> link_from_;
  std::vector<uint32_t> link_to_;
  std::shared_ptr<Cache> cache_;
};

} // namespace haec::platform
