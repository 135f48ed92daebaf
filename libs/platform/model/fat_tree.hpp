// SimGrid's fat tree (a parallel ports generalized fat tree, PGFT) as data: its parameter string,
// node and switch counts, hop counts and per-level bandwidth. Pure C++: no SimGrid include.
// The SimGrid zone itself is built by libs/platform/zone/fat_tree_zone.cpp.
#pragma once
#include "platform_spec.hpp"

#include <cstdint>
#include <string>

namespace haec::platform {

// Parses "L;D1,..,DL;U1,..,UL;P1,..,PL" (SimGrid's own form); throws InputError naming `spec`.
FatTreeShape parse_fat_tree(const std::string& text, const std::string& spec);

// Checks counts, limits and reduce; throws InputError naming `what`.
void validate_fat_tree(const FatTreeShape& shape, const std::string& what);

// The parameter string again ("2;4,4;1,2;1,2").
std::string fat_tree_text(const FatTreeShape& shape);

long long fat_tree_nodes(const FatTreeShape& shape);       // D1 * .. * DL
long long fat_tree_switches(const FatTreeShape& shape, int level); // at level 1..L
// Directed links SimGrid creates with SPLITDUPLEX (an _UP and a _DOWN link per cable).
long long fat_tree_directed_links(const FatTreeShape& shape);

// Links of SimGrid's route a -> b: up to the lowest level l whose switch covers both, and down:
// 2 l (0 when a == b; the loopback is not counted, as for the other kinds).
int fat_tree_hops(const FatTreeShape& shape, uint32_t a, uint32_t b);

// Bandwidth of a cable between level l-1 and level l (l = 1 joins nodes to leaf switches).
double fat_tree_level_bandwidth(const FatTreeShape& shape, double bandwidth, int level);

} // namespace haec::platform
