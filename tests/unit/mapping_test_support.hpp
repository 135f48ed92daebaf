// Builders shared by the mapping unit tests.
#pragma once
#include "mapping.hpp"

#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace haec::mapping::test {

// Nodes of an X x Y x Z grid in xyz order (index = x + X*(y + Y*z)), named node-<index>.
inline std::vector<Node> grid(int X, int Y, int Z)
{
  std::vector<Node> nodes;
  for (int z = 0; z < Z; ++z)
    for (int y = 0; y < Y; ++y)
      for (int x = 0; x < X; ++x)
        nodes.push_back({"node-" + std::to_string(nodes.size()), {x, y, z}});
  return nodes;
}

// An n x n matrix without traffic.
inline CommMatrix matrix(int n)
{
  CommMatrix m;
  m.ranks = n;
  m.messages.assign(static_cast<size_t>(n) * n, 0);
  m.bytes.assign(static_cast<size_t>(n) * n, 0);
  return m;
}

inline void set(CommMatrix& m, int s, int d, uint64_t k) { m.messages[static_cast<size_t>(s) * m.ranks + d] = k; }

// k messages of `bytes` bytes in all from s to d.
inline void set(CommMatrix& m, int s, int d, uint64_t k, uint64_t bytes)
{
  m.messages[static_cast<size_t>(s) * m.ranks + d] = k;
  m.bytes[static_cast<size_t>(s) * m.ranks + d]    = bytes;
}

// Both directions of {a, b}: k messages of `bytes` bytes in all each way.
inline void both(CommMatrix& m, int a, int b, uint64_t k, uint64_t bytes)
{
  set(m, a, b, k, bytes);
  set(m, b, a, k, bytes);
}

// Hop count between node indices as the Manhattan distance of their coordinates.
inline std::function<int(int, int)> manhattan(const std::vector<Node>& nodes)
{
  return [nodes](int a, int b) {
    const auto &p = nodes[a].coords, &q = nodes[b].coords;
    return std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]);
  };
}

} // namespace haec::mapping::test
