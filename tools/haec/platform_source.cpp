#include "platform_source.hpp"
#include "atomic_file.hpp"
#include "disk_cache.hpp"
#include "input_error.hpp"
#include "json_input.hpp"
#include "simgrid_child.hpp"
#include "text.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace haec::cli {
namespace {

bool ends_with(const std::string& s, const std::string& suffix)
{
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void fill_from_topology(ResolvedPlatform& p)
{
  const auto& topo = *p.topology;
  p.dims           = topo.spec().dims;
  if (topo.spec().node.wattage_per_state.empty() && topo.spec().node.wattage_calibration.empty())
    p.host_without_power = topo.host_name(0); // every node has the same profile
  for (uint32_t n = 0; n < topo.num_nodes(); ++n)
    p.nodes.push_back({topo.host_name(n), topo.coords(n)});
  p.cores.assign(p.nodes.size(), topo.spec().node.cores);
}

void read_route_links(std::istream& in, ResolvedPlatform& p)
{
  const size_t n = p.nodes.size();
  p.route_links.resize(n * n);
  for (size_t k = 0; k < n * n; ++k)
    if (!(in >> p.route_links[k]))
      throw InputError("--platform " + p.xml_path, "route lengths were not all reported by haec-simgrid-probe",
                       "report this as a bug");
}

// SimGrid aborts on many XML errors, so the platform is loaded by haec-simgrid-probe, which
// reports its hosts ("name x,y,z haec:prop,... power|none cores" per line, "-" for none) and their
// routes' lengths; a failure becomes one line of ours.
std::string probe_xml(const std::string& xml_path)
{
  ChildOutput child = run_simgrid_probe({"platform", xml_path});
  if (!child.ok)
    throw InputError("--platform " + xml_path,
                     "SimGrid cannot load it (" + (child.first_error.empty() ? "no message" : child.first_error) + ")",
                     "fix the XML or generate a platform with `haec platform`");
  return child.out;
}

// The probe of an unchanged platform, by an unchanged probe program and SimGrid library, is remembered
// (disk_cache.hpp): loading the XML and tracing every route costs more than a short replay's
// whole overhead. Empty when a file cannot be seen (no caching then).
std::string probe_key(const std::string& xml_path)
{
  const std::string xml = file_identity(xml_path), probe = file_identity(simgrid_probe_program()),
                    library = file_identity(HAEC_SIMGRID_LIBRARY);
  if (xml.empty() || probe.empty() || library.empty())
    return {};
  return "haec XML platform probe\n" + xml + probe + library;
}

std::string probe_xml_cached(const std::string& xml_path)
{
  const DiskCache cache("platform-probes");
  const std::string key = probe_key(xml_path);
  if (auto known = cache.find(key))
    return *known;
  std::string hosts = probe_xml(xml_path);
  cache.store(key, hosts);
  return hosts;
}

// An XML platform's hosts, properties, cores and route lengths, as SimGrid reads them.
void fill_from_xml(ResolvedPlatform& p)
{
  if (!std::filesystem::is_regular_file(p.xml_path))
    throw InputError("--platform " + p.xml_path, "no such platform file", "give an existing SimGrid XML file or a spec such as haec-box:3x3x3");
  const std::string hosts = probe_xml_cached(p.xml_path);
  std::istringstream hs(hosts);
  int index = 0;
  bool routes = false;
  for (std::string line; std::getline(hs, line); ++index) {
    if (line == "routes") {
      routes = true;
      break;
    }
    std::istringstream ls(line);
    std::string name, coords, props, power;
    int cores = 1;
    ls >> name >> coords >> props >> power >> cores;
    if (power == "none" && p.host_without_power.empty())
      p.host_without_power = name;
    mapping::Node node{name, {index, 0, 0}};
    int x, y, z;
    if (coords != "-" && std::sscanf(coords.c_str(), "%d,%d,%d", &x, &y, &z) == 3)
      node.coords = {x, y, z};
    if (props != "-")
      for (const std::string& prop : text::split(props, ','))
        p.host_properties.insert(prop);
    p.nodes.push_back(node);
    p.cores.push_back(cores);
  }
  if (p.nodes.empty())
    throw InputError("--platform " + p.xml_path, "declares no host", "add hosts to the platform");
  p.dims = {static_cast<int>(p.nodes.size()), 1, 1};
  if (routes)
    read_route_links(hs, p);
}

} // namespace

int ResolvedPlatform::hops(int a, int b) const
{
  if (topology)
    return topology->dor_distance(static_cast<uint32_t>(a), static_cast<uint32_t>(b));
  // XML platforms: the links of SimGrid's route (never a distance of haec:coords).
  if (a == b)
    return 0;
  if (route_links.empty())
    throw std::logic_error("hops() asked without a route table (check has_route_hops())");
  return route_links[static_cast<size_t>(a) * nodes.size() + static_cast<size_t>(b)];
}

ResolvedPlatform resolve_platform(const std::string& text)
{
  ResolvedPlatform p;
  p.text = text;
  if (ends_with(text, ".xml")) {
    p.xml_path = std::filesystem::absolute(text).string();
    fill_from_xml(p);
  } else if (ends_with(text, ".json")) {
    const nlohmann::json json =
        parse_json_input(read_file(text, "--platform"), "--platform " + text, "regenerate it with `haec platform`", false);
    p.topology = std::make_unique<platform::Topology>(platform::from_json(json, text));
    fill_from_topology(p);
  } else {
    std::error_code ec;
    if (std::filesystem::exists(text, ec) || (text.find(':') == std::string::npos && text.find('/') != std::string::npos))
      throw InputError("--platform " + text, "is neither a platform spec nor a .xml or .json platform file",
                       "give a SimGrid XML file (*.xml), a platform.json or a spec such as haec-box:3x3x3");
    p.topology = std::make_unique<platform::Topology>(platform::parse_spec(text));
    fill_from_topology(p);
  }
  return p;
}

} // namespace haec::cli
