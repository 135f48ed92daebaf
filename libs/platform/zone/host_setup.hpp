// The per-host settings every generated platform shares (pstates, cores, power properties,
// haec:coords, haec:node), whichever SimGrid zone holds the host.
#pragma once
#include "topology.hpp"

#include <simgrid/forward.h>

#include <cstdint>
#include <string>

namespace haec::platform {

// Node settings turned into SimGrid property texts once per platform.
struct HostSettings {
  explicit HostSettings(const NodeSpec& node);
  const NodeSpec& node;
  std::string calibration; // haec:wattage_calibration, "" for none
  std::string per_state;   // wattage_per_state, "" for none
  std::string wattage_off; // "" for none
};

void configure_host(simgrid::s4u::Host& host, const HostSettings& settings, const Topology& topo, uint32_t node);

} // namespace haec::platform
