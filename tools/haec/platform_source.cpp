#include "platform_source.hpp"
#include "atomic_file.hpp"
#include "input_error.hpp"
#include "simgrid_child.hpp"
#include "text.hpp"

#include <simgrid/s4u.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

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
  for (uint32_t n = 0; n < topo.num_nodes(); ++n)
    p.nodes.push_back({topo.host_name(n), topo.coords(n)});
}

// SimGrid aborts on many XML errors, so the platform is loaded in a child process that reports
// its hosts ("name x,y,z haec:prop,..." per line, "-" for none) through a pipe; a failure becomes
// one line of ours.
void fill_from_xml(ResolvedPlatform& p)
{
  if (!std::filesystem::is_regular_file(p.xml_path))
    throw InputError("--platform " + p.xml_path, "no such platform file", "give an existing SimGrid XML file or a spec such as haec-box:3x3x3");
  ChildOutput child = in_simgrid_child({}, [&p] {
    auto* engine = simgrid::s4u::Engine::get_instance();
    engine->load_platform(p.xml_path);
    for (auto* host : engine->get_all_hosts()) {
      const char* c = host->get_property("haec:coords");
      std::string props;
      if (auto* all = host->get_properties())
        for (auto const& [key, value] : *all)
          if (key.rfind("haec:", 0) == 0)
            props += (props.empty() ? "" : ",") + key;
      std::printf("%s %s %s\n", host->get_cname(), c && *c ? c : "-", props.empty() ? "-" : props.c_str());
    }
  });
  if (!child.ok)
    throw InputError("--platform " + p.xml_path,
                     "SimGrid cannot load it (" + (child.first_error.empty() ? "no message" : child.first_error) + ")",
                     "fix the XML or generate a platform with `haec platform`");
  const std::string& hosts = child.out;
  std::istringstream hs(hosts);
  int index = 0;
  for (std::string line; std::getline(hs, line); ++index) {
    std::istringstream ls(line);
    std::string name, coords, props;
    ls >> name >> coords >> props;
    mapping::Node node{name, {index, 0, 0}};
    int x, y, z;
    if (coords != "-" && std::sscanf(coords.c_str(), "%d,%d,%d", &x, &y, &z) == 3)
      node.coords = {x, y, z};
    if (props != "-")
      for (const std::string& prop : text::split(props, ','))
        p.host_properties.insert(prop);
    p.nodes.push_back(node);
  }
  if (p.nodes.empty())
    throw InputError("--platform " + p.xml_path, "declares no host", "add hosts to the platform");
  p.dims = {static_cast<int>(p.nodes.size()), 1, 1};
}

} // namespace

int ResolvedPlatform::hops(int a, int b) const
{
  if (topology)
    return topology->dor_distance(static_cast<uint32_t>(a), static_cast<uint32_t>(b));
  // XML platforms: Manhattan distance of the haec:coords properties (0 on the same node).
  const auto& ca = nodes[a].coords;
  const auto& cb = nodes[b].coords;
  return std::abs(ca[0] - cb[0]) + std::abs(ca[1] - cb[1]) + std::abs(ca[2] - cb[2]);
}

ResolvedPlatform resolve_platform(const std::string& text)
{
  ResolvedPlatform p;
  p.text = text;
  if (ends_with(text, ".xml")) {
    p.xml_path = std::filesystem::absolute(text).string();
    fill_from_xml(p);
  } else if (ends_with(text, ".json")) {
    auto json = nlohmann::json::parse(read_file(text, "--platform"), nullptr, false);
    if (json.is_discarded())
      throw InputError("--platform " + text, "is not valid JSON", "regenerate it with `haec platform`");
    p.topology = std::make_unique<platform::Topology>(platform::from_json(json, text));
    fill_from_topology(p);
  } else {
    p.topology = std::make_unique<platform::Topology>(platform::parse_spec(text));
    fill_from_topology(p);
  }
  return p;
}

} // namespace haec::cli
