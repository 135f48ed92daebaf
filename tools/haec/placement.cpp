#include "placement.hpp"
#include "atomic_file.hpp"
#include "input_error.hpp"
#include "units.hpp"

#include <map>
#include <sstream>

namespace haec::cli {
namespace {

// SMPI hostfile: "host" or "host:count" per line; expanded to one rank per entry, cycling when
// -np asks for more ranks than entries (as smpirun does).
std::vector<int> read_hostfile(const ResolvedPlatform& platform, const std::string& path, int ranks)
{
  std::map<std::string, int> index;
  for (size_t i = 0; i < platform.nodes.size(); ++i)
    index[platform.nodes[i].host] = static_cast<int>(i);
  std::istringstream in(read_file(path, "--hostfile"));
  std::vector<int> slots;
  int lineno = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineno;
    auto hash = line.find('#');
    if (hash != std::string::npos)
      line.erase(hash);
    std::istringstream ls(line);
    std::string entry;
    if (!(ls >> entry))
      continue;
    std::string host = entry;
    int count        = 1;
    auto colon       = entry.find(':');
    if (colon != std::string::npos) {
      host  = entry.substr(0, colon);
      count = static_cast<int>(units::parse_integer(entry.substr(colon + 1), path + ":" + std::to_string(lineno)));
    }
    auto it = index.find(host);
    if (it == index.end())
      throw InputError(path + ":" + std::to_string(lineno), "host '" + host + "' is not on platform " + platform.text,
                       "use host names of that platform (`haec platform " + platform.text + " --hosts` lists them)");
    for (int c = 0; c < count; ++c)
      slots.push_back(it->second);
  }
  if (slots.empty())
    throw InputError(path, "hostfile names no host", "write one host name per line");
  std::vector<int> assignment;
  for (int r = 0; r < ranks; ++r)
    assignment.push_back(slots[static_cast<size_t>(r) % slots.size()]);
  return assignment;
}

} // namespace

mapping::CommMatrix read_comm_matrix(const std::string& path)
{
  std::string text = read_file(path, "--traffic");
  if (text.rfind("src_rank,dst_rank", 0) == 0)
    return mapping::read_traffic_matrix(path);
  return mapping::read_ti_trace(path);
}

Placement place_ranks(const ResolvedPlatform& platform, const PlacementOptions& opt)
{
  if (opt.ranks <= 0)
    throw InputError("-np " + std::to_string(opt.ranks), "the number of ranks must be positive", "give -np N with N >= 1");
  Placement p;
  if (!opt.traffic.empty()) {
    p.matrix = read_comm_matrix(opt.traffic);
    if (p.matrix->ranks > opt.ranks)
      throw InputError("--traffic " + opt.traffic,
                       "has " + std::to_string(p.matrix->ranks) + " ranks but -np is " + std::to_string(opt.ranks),
                       "give the matrix of a run with the same number of ranks");
    if (p.matrix->ranks < opt.ranks) { // ranks that never sent: pad the matrix
      mapping::CommMatrix padded;
      padded.ranks = opt.ranks;
      padded.messages.assign(static_cast<size_t>(opt.ranks) * opt.ranks, 0);
      padded.bytes.assign(padded.messages.size(), 0);
      for (int s = 0; s < p.matrix->ranks; ++s)
        for (int d = 0; d < p.matrix->ranks; ++d) {
          padded.messages[static_cast<size_t>(s) * opt.ranks + d] = p.matrix->msgs(s, d);
          padded.bytes[static_cast<size_t>(s) * opt.ranks + d] =
              p.matrix->bytes[static_cast<size_t>(s) * p.matrix->ranks + d];
        }
      p.matrix = padded;
    }
  }
  if (!opt.hostfile.empty()) {
    p.strategy   = "hostfile";
    p.assignment = read_hostfile(platform, opt.hostfile, opt.ranks);
  } else if (!opt.mapping_file.empty()) {
    std::string text = read_file(opt.mapping_file, "--mapping-file");
    p.assignment     = mapping::read_mapping_file(text, opt.mapping_file, platform.nodes);
    p.strategy       = text.substr(0, text.find('\n'));
    if (static_cast<int>(p.assignment.size()) != opt.ranks)
      throw InputError("--mapping-file " + opt.mapping_file,
                       "places " + std::to_string(p.assignment.size()) + " ranks but -np is " + std::to_string(opt.ranks),
                       "give -np " + std::to_string(p.assignment.size()) + " or a mapping of " +
                           std::to_string(opt.ranks) + " ranks");
  } else {
    mapping::Request req;
    req.strategy = mapping::parse_strategy(opt.strategy);
    req.ranks    = opt.ranks;
    req.seed     = opt.seed;
    req.dims     = platform.dims;
    if (req.strategy == mapping::Strategy::MinMd) {
      if (!p.matrix)
        throw InputError("--map min-md", "needs the application's communication matrix",
                         "add --traffic traffic_matrix.csv (from an earlier run) or --traffic TRACE (a TI trace)");
      req.matrix = &*p.matrix;
    }
    p.assignment = mapping::map_ranks(req, platform.nodes);
    p.strategy   = mapping::strategy_name(req.strategy);
  }
  return p;
}

std::string metrics_json(const mapping::Metrics& m)
{
  std::ostringstream j;
  j << "{\"ieplc\": " << m.ieplc << ", \"ianlc\": " << m.ianlc << ", \"ienlc\": " << m.ienlc
    << ", \"ienlc_avg\": " << units::exact(m.ienlc_avg) << ", \"ienlc_min\": " << m.ienlc_min
    << ", \"ienlc_max\": " << m.ienlc_max << ", \"total_hops\": " << m.total_hops << "}";
  return j.str();
}

std::string metrics_text(const mapping::Metrics& m)
{
  std::ostringstream t;
  t << "IePLC " << m.ieplc << "  IaNLC " << m.ianlc << "  IeNLC " << m.ienlc << "  (avg " << m.ienlc_avg << ", min "
    << m.ienlc_min << ", max " << m.ienlc_max << " per communicating node pair)  total hops " << m.total_hops;
  return t.str();
}

} // namespace haec::cli
