#include "host_setup.hpp"
#include "units.hpp"

#include <simgrid/s4u/Host.hpp>

#include <cstdio>

namespace haec::platform {
namespace {
std::string joined(const std::vector<std::string>& entries)
{
  std::string out;
  for (auto const& entry : entries)
    out += (out.empty() ? "" : ",") + entry;
  return out;
}
} // namespace

HostSettings::HostSettings(const NodeSpec& n)
    : node(n), calibration(joined(n.wattage_calibration)), per_state(joined(n.wattage_per_state))
{
  if (n.wattage_off >= 0) { // "10", as a user would write it (the value reads back exactly)
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", n.wattage_off);
    wattage_off = text;
  }
}

void configure_host(simgrid::s4u::Host& host, const HostSettings& s, const Topology& topo, uint32_t node)
{
  host.set_core_count(s.node.cores);
  if (!s.calibration.empty()) // read by the power plugin (plugins/power)
    host.set_property("haec:wattage_calibration", s.calibration);
  if (!s.per_state.empty())
    host.set_property("wattage_per_state", s.per_state);
  if (!s.wattage_off.empty())
    host.set_property("wattage_off", s.wattage_off);
  if (s.node.sockets > 1) {
    host.set_property("haec:sockets", std::to_string(s.node.sockets));
    host.set_property("haec:socket_wattage", units::exact(s.node.socket_wattage));
  }
  auto c = topo.coords(node);
  host.set_property("haec:coords", std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]));
  host.set_property("haec:node", std::to_string(node));
}

} // namespace haec::platform
