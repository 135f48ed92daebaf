// One validator for spec strings and platform.json: shape and limits, link types, node speeds,
// power profiles and loopback.
#include "platform_spec_parts.hpp"
#include "fat_tree.hpp"
#include "hierarchical.hpp"
#include "input_error.hpp"
#include "text.hpp"
#include "units.hpp"

#include <algorithm>
#include <cmath>

namespace haec::platform {
namespace detail {

void check_link(const LinkType& t, const std::string& what)
{
  if (!std::isfinite(t.bandwidth) || !(t.bandwidth > 0))
    throw InputError(what, t.name + " bandwidth " + units::exact(t.bandwidth) + " B/s is not positive",
                     "give a bandwidth > 0, e.g. " + t.name + "-bw=10Gbps");
  if (!std::isfinite(t.latency) || !(t.latency >= 0))
    throw InputError(what, t.name + " latency " + units::exact(t.latency) + " s is negative or not finite",
                     "give a latency >= 0, e.g. " + t.name + "-lat=1us");
  if (!std::isfinite(t.ber) || !(t.ber >= 0) || !(t.ber < 1))
    throw InputError(what, t.name + " bit error rate " + units::exact(t.ber) + " is outside [0,1)",
                     "give a probability such as 1e-12");
}

} // namespace detail

namespace {

using namespace detail;
using text::split;

// fat-tree: its parameters give the node count; hierarchical: 1 <= l3 <= S*B (each parallel cable
// of a rack pair on another switch).
void validate_fat_tree_or_hierarchy(const PlatformSpec& s, const std::string& what)
{
  if (s.kind == Kind::FatTree) {
    validate_fat_tree(s.fat_tree, what);
    if (s.dims[0] != fat_tree_nodes(s.fat_tree) || s.dims[1] != 1 || s.dims[2] != 1)
      throw InputError(what, "fat-tree dimensions do not match its parameters", "regenerate the file with `haec platform`");
  } else if (s.fat_tree.levels != 0 || s.fat_tree.reduce_percent != 0) {
    throw InputError(what, "fat-tree parameters on a " + kind_name(s.kind), "drop reduce= or use fat-tree:");
  }
  const long long rack = 1LL * s.dims[0] * s.dims[1];
  if (s.kind == Kind::Hierarchical && (s.l3_links < 1 || s.l3_links > rack))
    throw InputError(what, "l3=" + std::to_string(s.l3_links) + " is outside 1.." + std::to_string(rack) + " (switches per rack)",
                     "give 1 <= l3 <= S*B, e.g. l3=2");
  if (s.kind != Kind::Hierarchical && s.l3_links != 1)
    throw InputError(what, "l3 applies to hierarchical only", "drop l3=");
  if (s.kind != Kind::Hierarchical && s.indirect_routes != 0)
    throw InputError(what, "indirect applies to hierarchical only", "drop indirect=");
  // An indirect route crosses one rack other than the two it joins.
  if (s.kind == Kind::Hierarchical && (s.indirect_routes < 0 || s.indirect_routes > std::max(0, s.dims[2] - 2)))
    throw InputError(what,
                     "indirect=" + std::to_string(s.indirect_routes) + " is outside 0.." +
                         std::to_string(std::max(0, s.dims[2] - 2)) + " (racks other than the two a route joins)",
                     "give 0 <= indirect <= R-2, e.g. indirect=1 with at least 3 racks");
}

// Dimensions, the node count and the link count.
void validate_shape(const PlatformSpec& s, const std::string& what)
{
  long long total = 1;
  for (int d = 0; d < 3; ++d) {
    if (s.dims[d] < 1)
      throw InputError(what, "dimension " + std::to_string(s.dims[d]) + " is not a positive integer",
                       "use dimensions >= 1, e.g. 4x4x4");
    total *= s.dims[d];
    if (total > kMaxNodes)
      throw InputError(what, "more than " + std::to_string(kMaxNodes) + " nodes", "use smaller dimensions");
  }
  if (s.kind == Kind::Cluster && (s.dims[1] != 1 || s.dims[2] != 1))
    throw InputError(what, "a cluster has dimensions {N,1,1}", "give the node count only, e.g. cluster:8");
  validate_fat_tree_or_hierarchy(s, what);
  if (s.kind != Kind::HaecBox && s.wireless_full)
    throw InputError(what, "full wireless applies to haec-box only", "drop wireless=full");
  if (directed_link_count(s) > kMaxLinks)
    throw InputError(what,
                     std::to_string(directed_link_count(s)) + " directed links, more than the limit of " +
                         std::to_string(kMaxLinks),
                     "use smaller boards or wireless=aligned");
}

void validate_links(const PlatformSpec& s, const std::string& what)
{
  auto names = link_type_names(s.kind);
  if (s.link_types.size() != names.size())
    throw InputError(what, kind_name(s.kind) + " needs link types " + join(names), "give exactly these link types");
  for (size_t i = 0; i < names.size(); ++i) {
    if (s.link_types[i].name != names[i])
      throw InputError(what, "link type '" + s.link_types[i].name + "' where " + kind_name(s.kind) + " expects '" +
                                 names[i] + "'",
                       "use link types " + join(names) + " in this order");
    check_link(s.link_types[i], what);
  }
}

void validate_cores_and_speeds(const PlatformSpec& s, const std::string& what)
{
  if (s.node.cores < 1)
    throw InputError(what, "cores=" + std::to_string(s.node.cores) + " is not a positive integer", "use cores >= 1");
  if (s.node.speeds.empty())
    throw InputError(what, "no node speed", "give speed=1Gf or speeds=2.3Gf/1.2Gf");
  for (size_t i = 0; i < s.node.speeds.size(); ++i) {
    double v = s.node.speeds[i];
    if (!std::isfinite(v) || !(v > 0))
      throw InputError(what, "speed " + units::exact(v) + " flop/s is not positive", "give speeds > 0, e.g. 1Gf");
    // DVFS code takes pstate 0 as the fastest one.
    if (i > 0 && v > s.node.speeds[i - 1])
      throw InputError(what, "speeds are not listed fastest first", "sort pstates in decreasing speed, e.g. 2.3Gf/1.2Gf");
  }
}

// One power entry per pstate, each `fields` non-negative numbers ("idle:one_core:all_cores").
struct PowerForm {
  const char* name;    // wattage_calibration, wattage_per_state
  const char* layout;  // idle:one_core:all_cores
  size_t min_fields;   // 3, or 2 for wattage_per_state's idle:all_cores
  const char* count_fix;
  const char* entry_fix;
};

void validate_power_entries(const std::vector<std::string>& entries, size_t pstates, const PowerForm& f,
                            const std::string& what)
{
  if (entries.size() != pstates)
    throw InputError(what,
                     std::to_string(entries.size()) + " " + f.name + " entries for " + std::to_string(pstates) +
                         " pstates",
                     f.count_fix);
  for (auto const& entry : entries) {
    auto parts = split(entry, ':');
    bool ok    = parts.size() == 3 || parts.size() == f.min_fields;
    for (size_t i = 0; ok && i < parts.size(); ++i)
      ok = units::parse_number(parts[i], what + " " + f.name) >= 0;
    if (!ok)
      throw InputError(what, std::string(f.name) + " entry '" + entry + "' is not " + f.layout + " watts", f.entry_fix);
  }
}

void validate_power(const PlatformSpec& s, const std::string& what)
{
  const size_t pstates = s.node.speeds.size();
  if (!s.node.wattage_calibration.empty())
    validate_power_entries(s.node.wattage_calibration, pstates,
                           {"wattage_calibration", "idle:one_core:all_cores", 3,
                            "give one idle:one_core:all_cores entry per speed (preset=taurus sets 12 speeds)",
                            "write three non-negative numbers, e.g. 92.75:114.62:174.38"},
                           what);
  if (!s.node.wattage_per_state.empty()) {
    if (!s.node.wattage_calibration.empty())
      throw InputError(what, "both wattage_calibration and wattage_per_state", "give one power form");
    validate_power_entries(s.node.wattage_per_state, pstates,
                           {"wattage_per_state", "idle:epsilon:all_cores", 2,
                            "give one idle:epsilon:all_cores entry per speed",
                            "write non-negative numbers, e.g. 92.75:109.19:174.38"},
                           what);
  }
  if (s.node.sockets < 1 || s.node.cores % s.node.sockets != 0)
    throw InputError(what, "sockets=" + std::to_string(s.node.sockets) + " does not divide cores=" +
                               std::to_string(s.node.cores),
                     "give a socket count that divides the cores, e.g. sockets=2 with cores=12");
  if (s.node.sockets > 1 && s.node.wattage_calibration.empty() && s.node.wattage_per_state.empty())
    throw InputError(what, "sockets need node power data", "use preset=taurus or drop sockets");
  if (!std::isfinite(s.node.socket_wattage) || s.node.socket_wattage < 0 ||
      (s.node.socket_wattage > 0 && s.node.sockets < 2))
    throw InputError(what, "socket-w=" + units::exact(s.node.socket_wattage) + " needs sockets >= 2 and watts >= 0",
                     "give e.g. sockets=2,socket-w=5");
  if (!std::isfinite(s.node.wattage_off) || (s.node.wattage_off < 0 && s.node.wattage_off != -1))
    throw InputError(what, "wattage_off " + units::exact(s.node.wattage_off) + " W is negative",
                     "give the watts drawn when off, e.g. 10");
}

void validate_loopback(const PlatformSpec& s, const std::string& what)
{
  if (!std::isfinite(s.loopback_bandwidth) || !(s.loopback_bandwidth > 0))
    throw InputError(what, "loopback bandwidth " + units::exact(s.loopback_bandwidth) + " B/s is not positive",
                     "give loopback-bw > 0, e.g. 100GBps");
  if (!std::isfinite(s.loopback_latency) || !(s.loopback_latency >= 0))
    throw InputError(what, "loopback latency " + units::exact(s.loopback_latency) + " s is negative or not finite",
                     "give loopback-lat >= 0, e.g. 10ns");
}

} // namespace

void validate(const PlatformSpec& s, const std::string& what)
{
  validate_shape(s, what);
  validate_links(s, what);
  validate_cores_and_speeds(s, what);
  validate_power(s, what);
  validate_loopback(s, what);
}

} // namespace haec::platform
