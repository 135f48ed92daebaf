// Strategy names and the map_ranks entry point: validates the request, then hands it to one strategy.
#include "input_error.hpp"
#include "mapping_detail.hpp"

namespace haec::mapping {

Strategy parse_strategy(const std::string& name)
{
  if (name == "xyz")
    return Strategy::Xyz;
  // "block xyz" and "min md" are the spellings of HAEC-SIM mapping files (seed 000 §3.3.1).
  if (name == "block-xyz" || name == "block xyz")
    return Strategy::BlockXyz;
  if (name == "random")
    return Strategy::Random;
  if (name == "min-md" || name == "min md")
    return Strategy::MinMd;
  if (name == "file")
    return Strategy::File;
  throw InputError("mapping strategy '" + name + "'", "unknown strategy",
                   "use one of xyz, block-xyz, random, min-md (or a mapping file)");
}

std::string strategy_name(Strategy s)
{
  switch (s) {
    case Strategy::Xyz: return "xyz";
    case Strategy::BlockXyz: return "block-xyz";
    case Strategy::Random: return "random";
    case Strategy::MinMd: return "min-md";
    case Strategy::File: return "file";
  }
  return "xyz"; // unreachable: every enumerator is handled above
}

std::vector<int> map_ranks(const Request& req, const std::vector<Node>& nodes)
{
  const std::string what = "mapping " + strategy_name(req.strategy);
  if (nodes.empty())
    throw InputError(what, "the platform has no compute nodes", "give a platform with at least one host");
  if (req.ranks <= 0)
    throw InputError(what, "the number of ranks must be positive, got " + std::to_string(req.ranks),
                     "give -np N with N >= 1");
  const int n = static_cast<int>(nodes.size());
  switch (req.strategy) {
    case Strategy::Xyz: return detail::map_xyz(req.ranks, n);
    case Strategy::BlockXyz: return detail::map_block_xyz(req.ranks, n);
    case Strategy::Random: return detail::map_random(req.ranks, n, req.seed);
    case Strategy::MinMd: {
      if (req.matrix == nullptr)
        throw InputError(what, "needs the application's communication matrix",
                         "give a traffic_matrix.csv or a TI trace");
      const CommMatrix& m = *req.matrix;
      const size_t cells  = static_cast<size_t>(req.ranks) * static_cast<size_t>(req.ranks);
      if (m.ranks != req.ranks)
        throw InputError(what,
                         "the communication matrix has " + std::to_string(m.ranks) + " ranks, the run " +
                             std::to_string(req.ranks),
                         "give the matrix of a run with the same number of ranks");
      if (m.messages.size() != cells || (!m.bytes.empty() && m.bytes.size() != cells))
        throw InputError(what, "the communication matrix is not ranks x ranks", "build it with read_traffic_matrix");
      return detail::map_min_md(m, nodes);
    }
    case Strategy::File: break;
  }
  throw InputError(what, "a file mapping is read, not computed", "pass the file to read_mapping_file");
}

} // namespace haec::mapping
