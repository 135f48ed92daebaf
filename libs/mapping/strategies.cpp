// The communication-oblivious strategies of seed 004 §4.1: xyz, block xyz, random.
// Nodes are indexed in xyz order (x fastest), so "node i" is the i-th node of that order.
#include "mapping_detail.hpp"
#include "prng.hpp"

namespace haec::mapping::detail {

// Rank i on node i; with more ranks than nodes the order wraps (round-robin): node i mod N.
std::vector<int> map_xyz(int ranks, int nodes)
{
  std::vector<int> a(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r)
    a[r] = r % nodes;
  return a;
}

// ceil(ranks / N) consecutive ranks per node, nodes in xyz order. With 30 ranks on 27 nodes that is
// 2 per node on nodes 0..14 and nodes 15..26 stay empty: the paper's definition, not a balanced split.
std::vector<int> map_block_xyz(int ranks, int nodes)
{
  const int per_node = (ranks + nodes - 1) / nodes;
  std::vector<int> a(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r)
    a[r] = r / per_node;
  return a;
}

// Each rank independently on a uniformly drawn node (ranks 0, 1, ... draw in turn from one
// SplitMix64 stream seeded with `seed`). Nodes may stay empty and loads may differ, as in seed 004.
std::vector<int> map_random(int ranks, int nodes, uint64_t seed)
{
  SplitMix64 rng(seed);
  std::vector<int> a(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r)
    a[r] = static_cast<int>(rng.below(static_cast<uint64_t>(nodes)));
  return a;
}

} // namespace haec::mapping::detail
