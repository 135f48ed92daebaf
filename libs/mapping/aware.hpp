// What the communication-aware strategies share (internal): the symmetric communication graph,
// hop counts between nodes, and a placement that respects a per-node capacity.
#pragma once
#include "mapping.hpp"
#include "target.hpp"

#include <cstdint>
#include <vector>

namespace haec::mapping::detail {

// Undirected weighted graph of the ranks (CSR). The weight of {a, b} is the traffic in both
// directions: bytes when the matrix has any, messages otherwise. Messages to oneself are dropped.
struct CommGraph {
  int n = 0;
  std::vector<int> start; // n + 1 offsets into nbr / w
  std::vector<int> nbr;
  std::vector<uint64_t> w;
  std::vector<uint64_t> degree; // weighted degree
  int begin(int v) const { return start[static_cast<size_t>(v)]; }
  int end(int v) const { return start[static_cast<size_t>(v) + 1]; }
};
CommGraph build_comm_graph(const CommMatrix& m);
bool weighs_bytes(const CommMatrix& m); // which quantity build_comm_graph uses

// Hop counts between nodes: a table for small platforms, Target::hops otherwise.
class Distances {
public:
  explicit Distances(const Target& target);
  int operator()(int a, int b) const
  {
    return a == b ? 0 : table_ ? (*table_)[static_cast<size_t>(a) * n_ + static_cast<size_t>(b)] : target_.hops(a, b);
  }
  int nodes() const { return static_cast<int>(n_); }

private:
  const Target& target_;
  size_t n_;
  std::shared_ptr<const std::vector<uint8_t>> table_; // the target's, or our own

};

// Every node takes at most ceil(ranks / nodes) ranks: balanced when ranks are a multiple of the
// nodes, otherwise some nodes hold one rank less (or none), as block-xyz does.
int node_capacity(int ranks, int nodes);

// Ranks placed one by one onto nodes with free room.
class Placer {
public:
  Placer(int ranks, int nodes, int capacity);
  bool placed(int rank) const { return node_[static_cast<size_t>(rank)] >= 0; }
  int node_of(int rank) const { return node_[static_cast<size_t>(rank)]; }
  bool has_room(int node) const { return load_[static_cast<size_t>(node)] < capacity_; }
  int load(int node) const { return load_[static_cast<size_t>(node)]; }
  void put(int rank, int node);
  // The node with room nearest to `from` (itself if it has room); ties: lowest index.
  int nearest_free(int from, const Distances& dist) const;
  int first_free() const; // lowest-index node with room
  // Places every rank not placed yet, in rank order, on the lowest-index node with room (ranks
  // that do not communicate, or strategies that stop early).
  void place_rest();
  const std::vector<int>& assignment() const { return node_; }

private:
  int capacity_;
  std::vector<int> node_, load_;
};

// Index of the node whose summed hop distance to every node is smallest (the "center"); ties:
// lowest index. O(N^2) hop counts.
int central_node(const Distances& dist);

} // namespace haec::mapping::detail
