// Rank-to-node mapping strategies and their metrics (MODELS.md §2). Pure C++: no SimGrid.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace haec::mapping {

// A compute node as the mapper sees it. Nodes are given in xyz order (x fastest).
struct Node {
  std::string host;            // SimGrid host name
  std::array<int, 3> coords{}; // grid coordinates ({i,0,0} for clusters / XML platforms)
};

// Point-to-point traffic between ranks: messages[src*n + dst], bytes[src*n + dst].
struct CommMatrix {
  int ranks = 0;
  std::vector<uint64_t> messages;
  std::vector<uint64_t> bytes;
  uint64_t msgs(int s, int d) const { return messages[static_cast<size_t>(s) * ranks + d]; }
};

enum class Strategy { Xyz, BlockXyz, Random, MinMd, File };

Strategy parse_strategy(const std::string& name); // xyz|block-xyz|random|min-md; throws InputError
std::string strategy_name(Strategy s);

struct Request {
  Strategy strategy = Strategy::Xyz;
  int ranks         = 0;
  uint64_t seed     = 1;                // random
  const CommMatrix* matrix = nullptr;   // min-md (required)
  std::array<int, 3> dims{1, 1, 1};     // grid extent, for min-md's Manhattan distances
};

// rank -> node index. Throws haec::InputError when the request cannot be served (no nodes,
// ranks <= 0, min-md without a matrix or with a matrix of another size, ...).
std::vector<int> map_ranks(const Request& req, const std::vector<Node>& nodes);

// HAEC-SIM mapping file: first line the strategy name, then one line per used node:
// "x y z count rank rank ...". Reading validates coordinates against `nodes` and that every rank
// 0..n-1 appears exactly once (InputError naming the file and line otherwise).
std::string write_mapping_file(const std::string& strategy, const std::vector<int>& assignment,
                               const std::vector<Node>& nodes);
std::vector<int> read_mapping_file(const std::string& text, const std::string& path, const std::vector<Node>& nodes);

// SMPI hostfile: one host name per rank, rank order.
std::string write_hostfile(const std::vector<int>& assignment, const std::vector<Node>& nodes);

struct Metrics {
  uint64_t ieplc = 0;          // point-to-point messages (all pairs)
  uint64_t ianlc = 0;          // of which both ranks on one node
  uint64_t ienlc = 0;          // of which on different nodes
  double ienlc_avg = 0;        // per communicating node pair (pairs with > 0 inter-node messages)
  uint64_t ienlc_min = 0, ienlc_max = 0;
  uint64_t total_hops = 0;     // sum over messages of hops(node(src), node(dst))
};
// hops(a, b) gives the route length between node indices a and b.
Metrics compute_metrics(const CommMatrix& matrix, const std::vector<int>& assignment,
                        const std::function<int(int, int)>& hops);

// Readers of a communication matrix. Both throw InputError with file and line on bad input.
// traffic_matrix.csv as written by `haec run`: header "src_rank,dst_rank,messages,bytes".
CommMatrix read_traffic_matrix(const std::string& path);
// SimGrid time-independent trace: a list file naming one file per rank, or a single file with
// every rank's actions. Counts send/isend (and their sizes) per (rank, dst).
CommMatrix read_ti_trace(const std::string& path);

} // namespace haec::mapping
