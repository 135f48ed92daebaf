// Rank-to-node mapping strategies and their metrics (MODELS.md §2). Pure C++: no SimGrid.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace haec::mapping {

struct Target; // target.hpp: the machine as the communication-aware strategies see it

// A compute node as the mapper sees it. Nodes are given in xyz order (x fastest).
struct Node {
  std::string host;            // SimGrid host name
  std::array<int, 3> coords{}; // grid coordinates ({i,0,0} for clusters / XML platforms)
};

// Point-to-point traffic between ranks: messages[src*n + dst], bytes[src*n + dst].
// MapLib's CSV matrices carry either counts or sizes; what a file did not give is marked unknown
// (its vector stays all zero and nothing may report it).
struct CommMatrix {
  int ranks = 0;
  std::vector<uint64_t> messages;
  std::vector<uint64_t> bytes;
  bool has_messages = true;
  bool has_bytes    = true;
  uint64_t msgs(int s, int d) const { return messages[static_cast<size_t>(s) * ranks + d]; }
  uint64_t byte_count(int s, int d) const { return bytes[static_cast<size_t>(s) * ranks + d]; }
};

enum class Strategy {
  Xyz, BlockXyz, Random, MinMd, File,
  // MapLib (arXiv 2005.10413): communication-oblivious curves ...
  Sweep, Scan, Peano, Hilbert, Gray,
  // ... and communication-aware strategies
  Bokhari, TopoAware, Greedy, FhGreedy, GreedyAllC, Bipartition, PaCMap,
  Scotch, // Scotch's static mapper (haec_mapping_scotch)
  Auto    // ours (haec_mapping: auto.cpp)
};

Strategy parse_strategy(const std::string& name); // throws InputError naming every known strategy
std::string strategy_name(Strategy s);
std::vector<Strategy> all_strategies(); // every strategy map_ranks can compute (not File)
std::string strategy_list();            // "xyz, block-xyz, ..." for help texts and errors
bool needs_matrix(Strategy s);          // communication-aware: needs --traffic
bool needs_target(Strategy s);          // needs Request::target (everything beyond the seed-004 four)

// Secondary objective of `auto` after hop-bytes (docs/guide/mappings.md).
enum class AutoObjective { Time, Energy };

struct Request {
  Strategy strategy = Strategy::Xyz;
  int ranks         = 0;
  uint64_t seed     = 1;                // random; the random jumps of Bokhari
  const CommMatrix* matrix = nullptr;   // communication-aware strategies (required)
  std::array<int, 3> dims{1, 1, 1};     // grid extent, for min-md's Manhattan distances
  const Target* target = nullptr;       // every strategy beyond xyz, block-xyz, random, min-md
  AutoObjective objective = AutoObjective::Time;
};

// rank -> node index, for every strategy of haec_mapping_model (the seed-004 four, MapLib's
// twelve). Scotch and auto live in libraries of their own; `map_strategy` (dispatch.hpp) serves
// all. Throws haec::InputError when the request cannot be served (no nodes, ranks <= 0, a missing
// matrix or target, a matrix of another size, a strategy that opts out of the size).
std::vector<int> map_ranks(const Request& req, const std::vector<Node>& nodes);

// HAEC-SIM / MapLib mapping file: the strategy name, the header line below, then one line per used
// node "x y z count rank rank ...", nodes sorted by (x, y, z) as MapLib writes them. Reading
// accepts the file with or without the header, validates coordinates against `nodes` and that
// every rank 0..n-1 appears exactly once (InputError naming the file and line otherwise).
inline const char* kMappingHeader = "x_coord y_coord z_coord number_of_processes process_id(s)";
std::string write_mapping_file(const std::string& strategy, const std::vector<int>& assignment,
                               const std::vector<Node>& nodes);
std::vector<int> read_mapping_file(const std::string& text, const std::string& path, const std::vector<Node>& nodes);

// SMPI hostfile: one host name per rank, rank order.
std::string write_hostfile(const std::vector<int>& assignment, const std::vector<Node>& nodes);

struct Metrics {
  bool has_messages = true;    // false: the matrix gave sizes only; the counts below mean nothing
  uint64_t ieplc = 0;          // point-to-point messages (all pairs)
  uint64_t ianlc = 0;          // of which both ranks on one node
  uint64_t ienlc = 0;          // of which on different nodes
  double ienlc_avg = 0;        // per communicating node pair (pairs with > 0 inter-node messages)
  uint64_t ienlc_min = 0, ienlc_max = 0;
  // Sum over logical point-to-point messages of hops(node(src), node(dst)): the application's
  // messages, not the network transfers (which add collectives; summary.json's transfer_hops).
  // Absent when no hop count of the platform's routes is known.
  std::optional<uint64_t> message_hops;
};
// hops(a, b) gives the route length (links) between node indices a and b; an empty function:
// message_hops is absent.
Metrics compute_metrics(const CommMatrix& matrix, const std::vector<int>& assignment,
                        const std::function<int(int, int)>& hops);
// The same from the nonzero cells alone, in any order: a run's own traffic at thousands of ranks
// (a dense 4096-rank matrix is 256 MiB).
struct MessageCount {
  int src, dst;
  uint64_t messages;
};
Metrics compute_metrics(const std::vector<MessageCount>& cells, const std::vector<int>& assignment,
                        const std::function<int(int, int)>& hops);

// Readers of a communication matrix. All throw InputError with file and line on bad input.
// traffic_matrix.csv as written by `haec run`: header "src_rank,dst_rank,messages,bytes".
CommMatrix read_traffic_matrix(const std::string& path);
// SimGrid time-independent trace: a list file naming one file per rank, or a single file with
// every rank's actions. Counts send/isend (and their sizes) per (rank, dst).
CommMatrix read_ti_trace(const std::string& path);
// MapLib's dense CSV matrices (square, comma-separated, no header, row = sender): "*.size.csv"
// holds bytes, "*.count.csv" messages; the sibling file of the other kind is read too when it
// exists, otherwise that quantity is unknown.
CommMatrix read_maplib_matrix(const std::string& path);

} // namespace haec::mapping
