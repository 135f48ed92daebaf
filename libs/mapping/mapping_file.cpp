// HAEC-SIM mapping files (seed 000 §3.3.1) as MapLib writes them, and SMPI hostfiles.
// Mapping file: line 1 = strategy name (free text, e.g. "block xyz"), line 2 = the header
// "x_coord y_coord z_coord number_of_processes process_id(s)" (optional when reading: HAEC-SIM's own
// examples have none), then per used node "x y z count rank...". Blank lines are skipped; nodes may
// appear in any order, at most once.
#include "input_error.hpp"
#include "mapping_detail.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace haec::mapping {
namespace {

void check_assignment(const std::vector<int>& assignment, const std::vector<Node>& nodes, const std::string& what)
{
  for (size_t r = 0; r < assignment.size(); ++r)
    if (assignment[r] < 0 || assignment[r] >= static_cast<int>(nodes.size()))
      throw InputError(what, "rank " + std::to_string(r) + " is on node " + std::to_string(assignment[r]) +
                                 ", which is not one of the " + std::to_string(nodes.size()) + " nodes",
                       "build the assignment with map_ranks for the same platform");
}

std::string coords_text(long long x, long long y, long long z)
{
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

} // namespace

std::string write_mapping_file(const std::string& strategy, const std::vector<int>& assignment,
                               const std::vector<Node>& nodes)
{
  if (detail::trim(strategy).empty() || strategy.find('\n') != std::string::npos)
    throw InputError("mapping file", "the strategy name must be one non-empty line, got '" + strategy + "'",
                     "name the strategy, e.g. xyz");
  check_assignment(assignment, nodes, "mapping file");
  std::vector<std::vector<int>> on_node(nodes.size());
  for (size_t r = 0; r < assignment.size(); ++r)
    on_node[assignment[r]].push_back(static_cast<int>(r)); // ranks ascending per node
  // MapLib sorts the used nodes by (x, y, z): x slowest.
  std::vector<size_t> order;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (!on_node[i].empty())
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return nodes[a].coords < nodes[b].coords; });
  std::ostringstream out;
  out << strategy << '\n' << kMappingHeader << '\n';
  for (size_t i : order) {
    const auto& c = nodes[i].coords;
    out << c[0] << ' ' << c[1] << ' ' << c[2] << ' ' << on_node[i].size();
    for (int r : on_node[i])
      out << ' ' << r;
    out << '\n';
  }
  return out.str();
}

namespace {

const char* const kFormatFix = "write 'x y z count rank...' with integers, e.g. '0 0 0 2 38 72'";

// The data lines of a mapping file, read one at a time: rank -> node, each rank and node once.
class MappingReader {
public:
  MappingReader(const std::string& path, const std::vector<Node>& nodes) : path_(path)
  {
    for (size_t i = 0; i < nodes.size(); ++i)
      index_of_.emplace(nodes[i].coords, static_cast<int>(i));
  }

  void read_line(const std::vector<std::string>& f, const std::string& line, size_t lineno)
  {
    if (f.size() < 4)
      throw InputError(detail::where(path_, lineno), "expected 'x y z count rank...', got '" + detail::trim(line) + "'",
                       kFormatFix);
    const int node = node_at(f, lineno);
    uint64_t count = 0;
    if (!detail::parse_u64(f[3], count))
      throw InputError(detail::where(path_, lineno), "process count '" + f[3] + "' is not a non-negative integer",
                       kFormatFix);
    if (count != f.size() - 4)
      throw InputError(detail::where(path_, lineno),
                       "count says " + f[3] + " processes but " + std::to_string(f.size() - 4) + " rank(s) follow",
                       "make the count equal the number of ranks on the line");
    for (size_t k = 4; k < f.size(); ++k)
      place_rank(f[k], node, lineno);
  }

  // rank -> node index, once every line is read: the ranks must be exactly 0..n-1.
  std::vector<int> assignment() const
  {
    if (rank_line_.empty())
      throw InputError(path_, "places no rank", "add lines 'x y z count rank...'");
    const uint64_t n = rank_line_.size();
    if (auto last = std::prev(rank_line_.end()); last->first >= n)
      throw InputError(detail::where(path_, last->second),
                       "rank " + std::to_string(last->first) + " is listed but rank " +
                           std::to_string(first_missing_rank()) + " is missing (" + std::to_string(n) +
                           " ranks must be 0.." + std::to_string(n - 1) + ")",
                       "give every rank from 0 to the number of ranks - 1");
    std::vector<int> result(n);
    for (auto const& [rank, node] : rank_node_)
      result[rank] = node;
    return result;
  }

private:
  // The node whose coordinates start the line; each node is listed once.
  int node_at(const std::vector<std::string>& f, size_t lineno)
  {
    long long xyz[3];
    const char* axis[3] = {"x", "y", "z"};
    for (int k = 0; k < 3; ++k)
      if (!detail::parse_i64(f[k], xyz[k]))
        throw InputError(detail::where(path_, lineno),
                         std::string(axis[k]) + " coordinate '" + f[k] + "' is not an integer", kFormatFix);
    const std::array<int, 3> key{static_cast<int>(xyz[0]), static_cast<int>(xyz[1]), static_cast<int>(xyz[2])};
    auto it = index_of_.find(key);
    if (it == index_of_.end() || key[0] != xyz[0] || key[1] != xyz[1] || key[2] != xyz[2])
      throw InputError(detail::where(path_, lineno), "no node at coordinates " + coords_text(xyz[0], xyz[1], xyz[2]),
                       "use coordinates of the platform's nodes");
    if (auto [prev, fresh] = node_line_.emplace(it->second, lineno); !fresh)
      throw InputError(detail::where(path_, lineno),
                       "node " + coords_text(xyz[0], xyz[1], xyz[2]) + " is already listed on line " +
                           std::to_string(prev->second),
                       "list each node once with all its ranks");
    return it->second;
  }

  void place_rank(const std::string& field, int node, size_t lineno)
  {
    uint64_t rank = 0;
    if (!detail::parse_u64(field, rank))
      throw InputError(detail::where(path_, lineno), "rank '" + field + "' is not a non-negative integer", kFormatFix);
    if (auto [prev, fresh] = rank_line_.emplace(rank, lineno); !fresh)
      throw InputError(detail::where(path_, lineno),
                       "rank " + field + " is already placed on line " + std::to_string(prev->second),
                       "give every rank exactly once");
    rank_node_[rank] = node;
  }

  uint64_t first_missing_rank() const
  {
    uint64_t missing = 0;
    for (auto const& entry : rank_line_) {
      if (entry.first != missing)
        break;
      ++missing;
    }
    return missing;
  }

  std::string path_;
  std::map<std::array<int, 3>, int> index_of_;
  std::map<uint64_t, size_t> rank_line_; // rank -> line that lists it
  std::map<int, size_t> node_line_;      // node -> line, to reject a node listed twice
  std::map<uint64_t, int> rank_node_;
};

} // namespace

std::vector<int> read_mapping_file(const std::string& text, const std::string& path, const std::vector<Node>& nodes)
{
  const auto lines = detail::split_lines(text);
  if (lines.empty() || detail::trim(lines[0]).empty())
    throw InputError(detail::where(path, 1), "the first line must name the mapping strategy",
                     "start the file with a line such as 'xyz'");
  MappingReader reader(path, nodes);
  const auto header = detail::split_ws(kMappingHeader);
  bool first_data   = true;
  for (size_t li = 1; li < lines.size(); ++li) {
    const auto f = detail::split_ws(lines[li]);
    if (f.empty())
      continue;
    if (first_data && f[0] == header[0]) { // MapLib's header line
      if (f != header)
        throw InputError(detail::where(path, li + 1), "the header line must be '" + std::string(kMappingHeader) + "'",
                         "write MapLib's header exactly or leave it out");
    } else
      reader.read_line(f, lines[li], li + 1);
    first_data = false;
  }
  return reader.assignment();
}

std::string write_hostfile(const std::vector<int>& assignment, const std::vector<Node>& nodes)
{
  check_assignment(assignment, nodes, "hostfile");
  std::string out;
  for (int node : assignment)
    out += nodes[node].host + '\n';
  return out;
}

} // namespace haec::mapping
