// Strategy names and the map_ranks entry point: validates the request, then hands it to one strategy.
#include "aware.hpp"
#include "input_error.hpp"
#include "mapping_detail.hpp"

#include <utility>

namespace haec::mapping {
namespace {

// Canonical names first (strategy_name), then the spellings of HAEC-SIM mapping files (seed 000
// §3.3.1), of MapLib's command line and of its paper.
const std::vector<std::pair<std::string, Strategy>>& names()
{
  static const std::vector<std::pair<std::string, Strategy>> table = {
      {"xyz", Strategy::Xyz},           {"block-xyz", Strategy::BlockXyz},  {"random", Strategy::Random},
      {"min-md", Strategy::MinMd},      {"sweep", Strategy::Sweep},         {"scan", Strategy::Scan},
      {"peano", Strategy::Peano},       {"hilbert", Strategy::Hilbert},     {"gray", Strategy::Gray},
      {"bokhari", Strategy::Bokhari},   {"topo-aware", Strategy::TopoAware}, {"greedy", Strategy::Greedy},
      {"fhgreedy", Strategy::FhGreedy}, {"greedy-allc", Strategy::GreedyAllC},
      {"bipartition", Strategy::Bipartition}, {"pacmap", Strategy::PaCMap}, {"scotch", Strategy::Scotch},
      {"auto", Strategy::Auto},         {"file", Strategy::File},
      // aliases
      {"block xyz", Strategy::BlockXyz}, {"min md", Strategy::MinMd}, {"topo_aware", Strategy::TopoAware},
      {"FHGreedy", Strategy::FhGreedy}, {"FHgreedy", Strategy::FhGreedy}, {"greedyALLC", Strategy::GreedyAllC},
      {"PaCMap", Strategy::PaCMap},     {"Peano", Strategy::Peano},         {"Hilbert", Strategy::Hilbert},
      {"Gray", Strategy::Gray},         {"Bokhari", Strategy::Bokhari}};
  return table;
}

} // namespace

Strategy parse_strategy(const std::string& name)
{
  for (auto const& [n, s] : names())
    if (n == name)
      return s;
  throw InputError("mapping strategy '" + name + "'", "unknown strategy",
                   "use one of " + strategy_list() + " (or a mapping file)");
}

std::string strategy_name(Strategy s)
{
  for (auto const& [n, t] : names())
    if (t == s)
      return n;
  return "xyz"; // unreachable: every enumerator has a name above
}

std::vector<Strategy> all_strategies()
{
  std::vector<Strategy> all;
  for (auto const& [n, s] : names())
    if (s != Strategy::File && (all.empty() || static_cast<int>(s) > static_cast<int>(all.back())))
      all.push_back(s);
  return all;
}

std::string strategy_list()
{
  std::string text;
  for (Strategy s : all_strategies())
    text += (text.empty() ? "" : ", ") + strategy_name(s);
  return text;
}

bool needs_matrix(Strategy s)
{
  switch (s) {
    case Strategy::MinMd: case Strategy::Bokhari: case Strategy::TopoAware: case Strategy::Greedy:
    case Strategy::FhGreedy: case Strategy::GreedyAllC: case Strategy::Bipartition: case Strategy::PaCMap:
    case Strategy::Scotch: case Strategy::Auto:
      return true;
    default:
      return false;
  }
}

bool needs_target(Strategy s)
{
  return needs_matrix(s) && s != Strategy::MinMd;
}

namespace detail {

std::vector<int> map_aware(Strategy s, const CommGraph& g, const Target& target, uint64_t seed)
{
  switch (s) {
    case Strategy::Bokhari: return map_bokhari(g, target, seed);
    case Strategy::TopoAware: return map_topo_aware(g, target);
    case Strategy::Greedy: return map_greedy(g, target);
    case Strategy::FhGreedy: return map_fhgreedy(g, target);
    case Strategy::GreedyAllC: return map_greedy_allc(g, target);
    case Strategy::Bipartition: return map_bipartition(g, target);
    case Strategy::PaCMap: return map_pacmap(g, target);
    default: break;
  }
  throw InputError("mapping " + strategy_name(s), "is not one of MapLib's communication-aware strategies",
                   "call map_ranks");
}

void check_request(const Request& req, size_t nodes)
{
  const std::string what = "mapping " + strategy_name(req.strategy);
  if (nodes == 0)
    throw InputError(what, "the platform has no compute nodes", "give a platform with at least one host");
  if (req.ranks <= 0)
    throw InputError(what, "the number of ranks must be positive, got " + std::to_string(req.ranks),
                     "give -np N with N >= 1");
  if (needs_target(req.strategy) && (req.target == nullptr || req.target->nodes.size() != nodes))
    throw InputError(what, "needs the platform's hop distances", "pass Request::target for these nodes");
  if (!needs_matrix(req.strategy))
    return;
  if (req.matrix == nullptr)
    throw InputError(what, "needs the application's communication matrix",
                     "give a traffic_matrix.csv, a MapLib matrix or a TI trace");
  const CommMatrix& m = *req.matrix;
  const size_t cells  = static_cast<size_t>(req.ranks) * static_cast<size_t>(req.ranks);
  if (m.ranks != req.ranks)
    throw InputError(what,
                     "the communication matrix has " + std::to_string(m.ranks) + " ranks, the run " +
                         std::to_string(req.ranks),
                     "give the matrix of a run with the same number of ranks");
  if (m.messages.size() != cells || m.bytes.size() != cells)
    throw InputError(what, "the communication matrix is not ranks x ranks", "build it with one of the readers");
}

} // namespace detail

std::vector<int> map_ranks(const Request& req, const std::vector<Node>& nodes)
{
  detail::check_request(req, nodes.size());
  const int n = static_cast<int>(nodes.size());
  switch (req.strategy) {
    case Strategy::Xyz: return detail::map_xyz(req.ranks, n);
    case Strategy::BlockXyz: return detail::map_block_xyz(req.ranks, n);
    case Strategy::Random: return detail::map_random(req.ranks, n, req.seed);
    case Strategy::MinMd: return detail::map_min_md(*req.matrix, nodes);
    case Strategy::Sweep: case Strategy::Scan: case Strategy::Peano: case Strategy::Hilbert: case Strategy::Gray:
      return detail::map_along(detail::curve_order(req.strategy, nodes), req.ranks);
    case Strategy::Bokhari: case Strategy::TopoAware: case Strategy::Greedy: case Strategy::FhGreedy:
    case Strategy::GreedyAllC: case Strategy::Bipartition: case Strategy::PaCMap:
      return detail::map_aware(req.strategy, detail::build_comm_graph(*req.matrix), *req.target, req.seed);
    case Strategy::Scotch: case Strategy::Auto:
      throw InputError("mapping " + strategy_name(req.strategy), "is computed by haec_mapping, not haec_mapping_model",
                       "call map_strategy (dispatch.hpp)");
    case Strategy::File: break;
  }
  throw InputError("mapping file", "a file mapping is read, not computed", "pass the file to read_mapping_file");
}

} // namespace haec::mapping
