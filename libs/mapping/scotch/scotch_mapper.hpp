// The "scotch" strategy: Scotch's static mapper (Debian libscotch-dev 7.0) maps the weighted
// communication graph onto the platform. Pure C++ (Scotch is a plain C library).
#pragma once
#include "mapping.hpp"
#include "target.hpp"

#include <vector>

namespace haec::mapping {
namespace detail {
struct CommGraph;
}

// Scotch's view of the target architecture: its built-in mesh3D / torus3D for meshes and tori,
// cmplt for clusters (every pair of nodes two hops apart), and for the HAEC box and any other
// platform a decomposition-defined architecture of the platform's hop distances (deco_architecture.hpp).
// Scotch's distance between the terminals of nodes a and b (SCOTCH_archDomTerm), for tests of the
// built-in architectures (Scotch 7.0.3 numbers the terminals of a deco architecture otherwise).
std::vector<int> scotch_distances(const Target& target, const std::vector<std::pair<int, int>>& pairs);

// rank -> node. Throws InputError when Scotch fails, two nodes are 0 hops apart or a deco
// architecture would exceed kMaxDecoNodes.
std::vector<int> map_scotch(const CommMatrix& matrix, const Target& target, uint64_t seed);
// The same on the graph of detail::build_comm_graph (aware.hpp), built once by auto.
std::vector<int> map_scotch(const detail::CommGraph& graph, const Target& target, uint64_t seed);

} // namespace haec::mapping
