// Internals shared by the mapping model's source files (not part of the public contract).
#pragma once
#include "mapping.hpp"
#include "target.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace haec::mapping::detail {

// Dense matrices hold ranks^2 entries twice; beyond this the memory use (1 GiB) is a user error.
constexpr int kMaxMatrixRanks = 8192;

// One strategy each (strategies.cpp, min_md.cpp). Arguments are already validated by map_ranks.
std::vector<int> map_xyz(int ranks, int nodes);
std::vector<int> map_block_xyz(int ranks, int nodes);
std::vector<int> map_random(int ranks, int nodes, uint64_t seed);
std::vector<int> map_min_md(const CommMatrix& matrix, const std::vector<Node>& nodes);

// MapLib's curves (curves.cpp): the nodes in the curve's order; ranks round-robin along an order.
std::vector<int> curve_order(Strategy curve, const std::vector<Node>& nodes);
std::vector<int> map_along(const std::vector<int>& order, int ranks);

// MapLib's communication-aware strategies, one file each, on the graph of build_comm_graph
// (aware.hpp); every strategy places g.n ranks.
struct CommGraph;
std::vector<int> map_bokhari(const CommGraph& g, const Target& target, uint64_t seed);
std::vector<int> map_topo_aware(const CommGraph& g, const Target& target);
std::vector<int> map_greedy(const CommGraph& g, const Target& target);
std::vector<int> map_fhgreedy(const CommGraph& g, const Target& target);
std::vector<int> map_greedy_allc(const CommGraph& g, const Target& target);
std::vector<int> map_bipartition(const CommGraph& g, const Target& target);
std::vector<int> map_pacmap(const CommGraph& g, const Target& target);
// One of the seven above by name.
std::vector<int> map_aware(Strategy s, const CommGraph& g, const Target& target, uint64_t seed);

// A MapLib CSV matrix: n x n non-negative integers, comma-separated (maplib_matrix.cpp); throws
// InputError "path:line" on a ragged, non-square or non-numeric matrix.
std::vector<uint64_t> parse_dense_matrix(const std::string& text, const std::string& path, int& n);

// Checks what every strategy needs (nodes, ranks, matrix of the right size, target); throws
// InputError naming the strategy.
void check_request(const Request& req, size_t nodes);

// Size in bytes of a SimGrid 3.32 datatype id as written in TI traces ("0" = MPI_DOUBLE, ...);
// -1 for ids SimGrid does not define (ti_datatypes.cpp).
int ti_datatype_size(const std::string& id);

// Text helpers (text.cpp).
std::string trim(const std::string& s);                 // strips spaces, tabs, \r, \n at both ends
std::vector<std::string> split_ws(const std::string& s); // fields separated by runs of spaces/tabs
std::vector<std::string> split_lines(const std::string& text);
std::string read_text_file(const std::string& path, const std::string& what);
// Digits only, fits in uint64; nullopt-like failure via the bool.
bool parse_u64(const std::string& s, uint64_t& out);
// Optional leading '-' then digits, fits in long long.
bool parse_i64(const std::string& s, long long& out);
std::string where(const std::string& path, size_t line); // "path:line"

// An all-zero matrix of n ranks; throws InputError(input, ...) when n exceeds kMaxMatrixRanks.
CommMatrix zero_matrix(int n, const std::string& input);

} // namespace haec::mapping::detail
