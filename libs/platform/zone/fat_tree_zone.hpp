// fat-tree: SimGrid's FatTree zone (s4u::create_fatTree_zone, d-mod-k routes) with our hosts,
// loopbacks and per-level bandwidth.
#pragma once
#include "haec_zone.hpp"

namespace haec::platform {

// Hosts "node-i" configured as every generated platform's, a FATPIPE loopback "lo-node-i" each;
// cables SPLITDUPLEX (one simplex link per direction, SimGrid's "link_from_C_P_U_UP" / "_DOWN"),
// haec:type "link", haec:ber, and bandwidth fat_tree_level_bandwidth() of their level. Hooks: the
// host hook runs per host; the link hook never (the cables have no Topology link id). SimGrid's
// zone numbers its nodes with a process-wide counter, so one fat tree per process: a second
// call throws InputError.
void build_fat_tree(const Topology& topo, const BuildHooks& hooks);

} // namespace haec::platform
