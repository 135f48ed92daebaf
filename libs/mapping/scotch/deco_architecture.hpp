// Scotch's "deco 0" target description (Scotch user's guide 7.0, §6.4.1) of any platform: the
// nodes, a recursive bisection of them coded in terminal numbers, and the hop distance of every
// pair. Pure C++ (text only; scotch_mapper.cpp hands it to SCOTCH_archLoad).
#pragma once
#include "target.hpp"

#include <string>

namespace haec::mapping {

// Nodes above this count are refused: the distance matrix is quadratic (4096 nodes: 8.4 million
// distances, about 20 MB of text; Scotch keeps a matrix over all domain numbers, 134 MB there).
constexpr size_t kMaxDecoNodes = 4096;

// Labels are node indices, weights 1. The bisection cuts the node set across the axis along which
// its coordinates spread most, between planes (the lower side gets floor(extent/2) of them), so
// that every domain is a box, recursively; the whole set is domain 1 and the halves of domain i
// are 2i and 2i + 1, as "deco 0" requires. (Cutting at half the count instead, across a plane,
// gave Scotch 208 hops for a 3x3x3 stencil on a 3x3x3 mesh, against the optimum 108.) Distances are
// Target::hops. Throws InputError when two nodes are 0 hops apart (Scotch needs positive
// distances) or there are more than kMaxDecoNodes nodes.
std::string deco0_text(const Target& target);

} // namespace haec::mapping
