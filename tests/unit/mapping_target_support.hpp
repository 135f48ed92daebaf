// Targets of real platform specs for the mapping tests (a Topology kept alive with its Target).
#pragma once
#include "mapping.hpp"
#include "platform_spec.hpp"
#include "target.hpp"
#include "topology.hpp"

#include <memory>
#include <string>

namespace haec::mapping::test {

struct Machine {
  std::unique_ptr<platform::Topology> topology;
  Target target;
};

inline Machine machine(const std::string& spec)
{
  Machine m;
  m.topology = std::make_unique<platform::Topology>(platform::parse_spec(spec));
  m.target   = target_from_topology(*m.topology);
  return m;
}

// 3-D 7-point stencil of X x Y x Z ranks (rank = x + X(y + Yz)), non-periodic, `bytes` each way.
inline CommMatrix stencil3d(int X, int Y, int Z, uint64_t bytes)
{
  CommMatrix m;
  m.ranks = X * Y * Z;
  m.messages.assign(static_cast<size_t>(m.ranks) * m.ranks, 0);
  m.bytes.assign(m.messages.size(), 0);
  auto at = [&](int x, int y, int z) { return x + X * (y + Y * z); };
  for (int z = 0; z < Z; ++z)
    for (int y = 0; y < Y; ++y)
      for (int x = 0; x < X; ++x) {
        const int r = at(x, y, z);
        const int up[3][3] = {{x + 1, y, z}, {x, y + 1, z}, {x, y, z + 1}};
        for (auto const& u : up)
          if (u[0] < X && u[1] < Y && u[2] < Z) {
            const size_t a = static_cast<size_t>(r) * m.ranks + at(u[0], u[1], u[2]);
            const size_t b = static_cast<size_t>(at(u[0], u[1], u[2])) * m.ranks + r;
            m.messages[a] = m.messages[b] = 1;
            m.bytes[a] = m.bytes[b] = bytes;
          }
      }
  return m;
}

} // namespace haec::mapping::test
