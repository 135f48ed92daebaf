// Spec strings and platform.json <-> PlatformSpec, with one validator for both.
#include "text.hpp"
#include "platform_spec.hpp"
#include "input_error.hpp"
#include "units.hpp"
#include "fat_tree.hpp"
#include "hierarchical.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace haec::platform {
namespace {

using text::split;
using text::trim;

const char* const kValidKinds = "haec-box, mesh, torus, cluster, fat-tree, hierarchical";

// Keys every kind accepts, then the kind-specific ones (in the order listed in error messages).
const std::vector<std::string> kCommonKeys = {"cores",   "speed",    "speeds",  "loopback-bw", "loopback-lat",
                                              "sockets", "socket-w", "wattage", "wattage-off"};
const std::vector<std::string> kHaecKeys   = {"preset",      "board",        "wireless",    "optical-bw",  "optical-lat",
                                              "optical-ber", "wireless-bw", "wireless-lat", "wireless-ber"};
const std::vector<std::string> kLinkKeys   = {"link-bw", "link-lat", "link-ber"};
const std::vector<std::string> kLevelKeys  = {"l3",     "indirect", "l1-bw",  "l1-lat", "l1-ber", "l2-bw",
                                              "l2-lat", "l2-ber", "l3-bw",  "l3-lat", "l3-ber"};

std::vector<std::string> keys_of(Kind kind)
{
  std::vector<std::string> keys = kind == Kind::HaecBox ? kHaecKeys : kind == Kind::Hierarchical ? kLevelKeys : kLinkKeys;
  if (kind == Kind::Cluster)
    keys.insert(keys.begin(), "preset");
  if (kind == Kind::FatTree)
    keys.insert(keys.begin(), "reduce");
  keys.insert(keys.end(), kCommonKeys.begin(), kCommonKeys.end());
  return keys;
}

std::string join(const std::vector<std::string>& items)
{
  std::string out;
  for (auto const& s : items)
    out += (out.empty() ? "" : ", ") + s;
  return out;
}

bool parse_kind(const std::string& name, Kind& kind)
{
  static const std::pair<const char*, Kind> table[] = {
      {"haec-box", Kind::HaecBox}, {"mesh", Kind::Mesh}, {"torus", Kind::Torus}, {"cluster", Kind::Cluster},
      {"fat-tree", Kind::FatTree}, {"hierarchical", Kind::Hierarchical}};
  for (auto const& [n, k] : table)
    if (name == n) {
      kind = k;
      return true;
    }
  return false;
}

// The expected link type names of a kind, in PlatformSpec::link_types order.
std::vector<std::string> link_type_names(Kind kind)
{
  switch (kind) {
    case Kind::HaecBox:
      return {"optical", "wireless"};
    case Kind::Mesh:
    case Kind::Torus:
    case Kind::FatTree:
      return {"link"};
    case Kind::Cluster:
      return {"cable"};
    case Kind::Hierarchical:
      return {"l1", "l2", "l3"};
  }
  return {};
}

// The taurus-8 calibration of thesis 002 Figure 8.7 (NAS-EP), idle:one_core:all_cores watts per
// pstate 2300..1200 MHz of a 12-core node (two 6-core sockets), and its power when off.
const char* const kTaurus8[12] = {"92.75:114.62:174.38", "92.75:113.25:168.62", "92.88:112.25:162.88",
                                  "92.88:110.75:157.12", "92.88:110.38:151.75", "92.88:109.38:147.25",
                                  "92.88:108.62:142.75", "93:107.38:138.25",    "93.12:106.75:134",
                                  "93:106.5:130.62",     "93:105.12:127",       "93.25:104.62:123.62"};
constexpr double kTaurus8OffW = 10;

// The taurus pstates, 2300..1200 MHz in 100 MHz steps, scaled so pstate 0 runs at `fastest` flop/s.
std::vector<double> taurus_speeds(double fastest)
{
  std::vector<double> speeds;
  for (int mhz = 2300; mhz >= 1200; mhz -= 100)
    speeds.push_back(fastest * mhz / 2300);
  return speeds;
}

// A node priced from taurus-8 (docs/MODELS.md "Default node power"): per pstate, the per-core
// dynamic power d = (P_all - P_one) / 11 and P_static = P_all - 12 d of taurus-8; the node takes
// `share` of taurus-8's idle, static and off power and `cores` times d, as SimGrid's
// idle:epsilon:all_cores (wattage_per_state).
void apply_taurus8_derived(NodeSpec& node, int cores, double share)
{
  node.cores = cores;
  node.wattage_calibration.clear();
  node.wattage_per_state.clear();
  for (const char* entry : kTaurus8) {
    auto parts           = split(entry, ':');
    const double idle    = std::stod(parts[0]), p1 = std::stod(parts[1]), pn = std::stod(parts[2]);
    const double per_core = (pn - p1) / 11;
    const double epsilon  = share * (pn - 12 * per_core);
    node.wattage_per_state.push_back(units::exact(share * idle) + ":" + units::exact(epsilon) + ":" +
                                     units::exact(epsilon + cores * per_core));
  }
  node.wattage_off = share * kTaurus8OffW;
}

// taurus (seed 002 §5.1, Figure 8.7): 12 cores, 2300..1200 MHz, and node taurus-8's calibration
// for NAS-EP as idle:one_core:all_cores per pstate, 10 W when off.
void apply_taurus(PlatformSpec& s)
{
  s.node.cores  = 12;
  s.node.speeds = taurus_speeds(2.3e9);
  s.node.wattage_per_state.clear();
  s.node.wattage_calibration.assign(std::begin(kTaurus8), std::end(kTaurus8));
  s.node.wattage_off = kTaurus8OffW;
}

// Defaults of each kind (MODELS.md §1; the cluster latency of 1.5 us is our choice, see README),
// each with a node power profile (docs/MODELS.md "Default node power").
PlatformSpec defaults(Kind kind)
{
  PlatformSpec s;
  s.kind = kind;
  switch (kind) {
    case Kind::HaecBox: // seed 000: torus boards, 250 Gbit/s optical, 100 Gbit/s wireless
      s.board_torus   = true;
      s.wireless_full = false;
      s.link_types    = {{"optical", 31.25e9, 10e-9, 1e-12}, {"wireless", 12.5e9, 100e-9, 1e-8}};
      // seed 000 §4.2: a node is one 8-core Sandy Bridge EP socket; half a taurus-8 node's
      // idle and static power, 8 cores of its per-core dynamic power; pstates as taurus's, 1 Gf first.
      s.node.speeds = taurus_speeds(1e9);
      apply_taurus8_derived(s.node, 8, 0.5);
      break;
    case Kind::Mesh:
    case Kind::Torus: // seed 001: Gemini-like links; a two-socket node of 16 cores priced as taurus-8
    case Kind::FatTree: // fat-tree, hierarchical: no link figures in seed 003; the same as mesh/torus
    case Kind::Hierarchical:
      s.link_types = {{"link", 9.375e9, 1.27e-6, 0}};
      if (kind == Kind::Hierarchical)
        s.link_types = {{"l1", 9.375e9, 1.27e-6, 0}, {"l2", 9.375e9, 1.27e-6, 0}, {"l3", 9.375e9, 1.27e-6, 0}};
      s.node.speeds = taurus_speeds(2.3e9);
      apply_taurus8_derived(s.node, 16, 1.0);
      break;
    case Kind::Cluster: // seed 002: taurus, 10 GbE, pstates 2300..1200 MHz, taurus-8's power
      s.link_types = {{"cable", 1.25e9, 1.5e-6, 0}};
      apply_taurus(s);
      break;
  }
  return s;
}

// seed 004 Table 2: 2-D mesh boards, aligned wireless, every link 250 Gbit/s and 1 us, error free.
void apply_seed004(PlatformSpec& s)
{
  s.board_torus   = false;
  s.wireless_full = false;
  s.link_types    = {{"optical", 31.25e9, 1e-6, 0}, {"wireless", 31.25e9, 1e-6, 0}};
}

// taurus-node: a rank stands for a whole node (an MPI+threads code like Ondes3D's, or the
// thesis's one-rank-per-node experiments priced at full load): one core, the taurus speeds, and
// the taurus-8 calibration converted exactly to SimGrid's idle:epsilon:all_cores with n = 12
// (P_dynamic = (PN - P1) * 12 / 11, epsilon = PN - P_dynamic), so busy = all cores' power.
void apply_taurus_node(PlatformSpec& s)
{
  apply_taurus(s);
  s.node.cores = 1;
  s.node.wattage_per_state.clear();
  for (auto const& entry : s.node.wattage_calibration) {
    auto parts           = split(entry, ':');
    const double idle    = std::stod(parts[0]), p1 = std::stod(parts[1]), pn = std::stod(parts[2]);
    const double dynamic = (pn - p1) * 12 / 11;
    s.node.wattage_per_state.push_back(units::exact(idle) + ":" + units::exact(pn - dynamic) + ":" + units::exact(pn));
  }
  s.node.wattage_calibration.clear();
}

std::array<int, 3> parse_dims(Kind kind, const std::string& text, const std::string& spec)
{
  const std::string example = kind == Kind::Cluster ? "cluster:8" : kind_name(kind) + ":4x4x4";
  auto parts                = split(text, 'x');
  size_t want               = kind == Kind::Cluster ? 1 : 3;
  if (parts.size() != want)
    throw InputError(spec, "dimensions '" + text + "' must be " + (want == 1 ? "one integer N" : "AxBxC"),
                     "write e.g. " + example);
  std::array<int, 3> dims{1, 1, 1};
  long long total = 1;
  for (size_t i = 0; i < parts.size(); ++i) {
    auto const& p = parts[i];
    if (p.empty() || p.find_first_not_of("0123456789") != std::string::npos || p.size() > 9 ||
        std::stoll(p) < 1)
      throw InputError(spec, "dimension '" + p + "' in '" + text + "' is not a positive integer",
                       "write e.g. " + example);
    dims[i] = static_cast<int>(std::stoll(p));
    total *= dims[i];
    if (total > kMaxNodes)
      throw InputError(spec, "more than " + std::to_string(kMaxNodes) + " nodes", "use smaller dimensions");
  }
  return dims;
}

double parse_ber(const std::string& value, const std::string& what)
{
  return units::parse_number(value, what);
}

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

} // namespace

std::string kind_name(Kind kind)
{
  switch (kind) {
    case Kind::HaecBox:
      return "haec-box";
    case Kind::Mesh:
      return "mesh";
    case Kind::Torus:
      return "torus";
    case Kind::Cluster:
      return "cluster";
    case Kind::FatTree:
      return "fat-tree";
    case Kind::Hierarchical:
      return "hierarchical";
  }
  return "?";
}

long long directed_link_count(const PlatformSpec& s)
{
  if (s.kind == Kind::Cluster)
    return 2LL * s.dims[0];
  if (s.kind == Kind::FatTree)
    return fat_tree_directed_links(s.fat_tree);
  if (s.kind == Kind::Hierarchical)
    return hierarchical_directed_links(s);
  long long nodes = 1LL * s.dims[0] * s.dims[1] * s.dims[2];
  long long wires = 0;
  for (int d = 0; d < 3; ++d) {
    long long n = s.dims[d], lines = nodes / n;
    if (s.kind == Kind::HaecBox && d == 2 && s.wireless_full) {
      long long board = 1LL * s.dims[0] * s.dims[1];
      wires += (n - 1) * board * board;
      continue;
    }
    bool wrap = s.kind == Kind::Torus || (s.kind == Kind::HaecBox && d < 2 && s.board_torus);
    long long per_line = n == 1 ? 0 : !wrap ? n - 1 : n == 2 ? 1 : n; // a 2-ring has one wire
    wires += per_line * lines;
  }
  return 2 * wires;
}

namespace {

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

namespace {

// preset=... (only as the first key): a published configuration the other keys may override.
void apply_preset(PlatformSpec& s, Kind kind, const std::string& value, size_t position, const std::string& spec)
{
  if (position != 1)
    throw InputError(spec, "preset must be the first key", "put preset=" + value + " right after the dimensions");
  if (kind == Kind::HaecBox && value == "seed004")
    apply_seed004(s);
  else if (kind == Kind::Cluster && value == "taurus")
    apply_taurus(s);
  else if (kind == Kind::Cluster && value == "taurus-node")
    apply_taurus_node(s);
  else
    throw InputError(spec, "unknown preset '" + value + "'",
                     kind == Kind::Cluster ? "use preset=taurus or preset=taurus-node" : "use preset=seed004");
}

int count_value(const std::string& key, const std::string& value, const std::string& spec, const std::string& fix)
{
  long long c = units::parse_integer(value, spec + " [" + key + "]");
  if (c < 1 || c > 1 << 20)
    throw InputError(spec, key + "=" + value + " is out of range", fix);
  return static_cast<int>(c);
}

// <type>-bw, <type>-lat, <type>-ber ("link" names a platform's only link type).
void apply_link_key(PlatformSpec& s, const std::string& key, const std::string& value, const std::string& what)
{
  size_t dash      = key.rfind('-');
  std::string type = key.substr(0, dash), field = key.substr(dash + 1);
  LinkType* t      = nullptr;
  for (auto& lt : s.link_types)
    if (lt.name == type || (type == "link" && s.link_types.size() == 1))
      t = &lt;
  if (field == "bw")
    t->bandwidth = units::parse_bandwidth(value, what);
  else if (field == "lat")
    t->latency = units::parse_time(value, what);
  else
    t->ber = parse_ber(value, what);
}

// The value of one key=value item of a spec; `speed_keys` counts speed= and speeds=.
void apply_key(PlatformSpec& s, Kind kind, const std::string& key, const std::string& value, size_t position,
               const std::string& spec, int& speed_keys)
{
  const std::string what = spec + " [" + key + "]";
  if (key == "preset") {
    apply_preset(s, kind, value, position, spec);
  } else if (key == "board") {
    if (value != "torus" && value != "mesh")
      throw InputError(spec, "board must be torus or mesh, not '" + value + "'", "write board=torus or board=mesh");
    s.board_torus = value == "torus";
  } else if (key == "wireless") {
    if (value != "aligned" && value != "full")
      throw InputError(spec, "wireless must be aligned or full, not '" + value + "'",
                       "write wireless=aligned or wireless=full");
    s.wireless_full = value == "full";
  } else if (key == "reduce") {
    s.fat_tree.reduce_percent = units::parse_number(value, what);
  } else if (key == "l3") {
    s.l3_links = count_value(key, value, spec, "give 1 <= l3 <= S*B, e.g. l3=2");
  } else if (key == "indirect") {
    const long long n = units::parse_integer(value, spec + " [indirect]");
    s.indirect_routes = static_cast<int>(std::min<long long>(n, 1 << 20)); // range: validate()
  } else if (key == "cores") {
    s.node.cores = count_value(key, value, spec, "use 1 <= cores <= 1048576");
  } else if (key == "sockets") {
    s.node.sockets = count_value(key, value, spec, "use sockets >= 1, dividing cores");
  } else if (key == "socket-w") {
    s.node.socket_wattage = units::parse_number(value, what);
  } else if (key == "speed" || key == "speeds") {
    s.node.speeds.clear();
    for (auto const& part : key == "speed" ? std::vector<std::string>{value} : split(value, '/'))
      s.node.speeds.push_back(units::parse_speed(part, what));
    ++speed_keys;
  } else if (key == "wattage") { // SimGrid's idle:epsilon:all_cores per pstate, '/' between pstates
    s.node.wattage_calibration.clear();
    s.node.wattage_per_state = split(value, '/');
  } else if (key == "wattage-off") {
    s.node.wattage_off = units::parse_number(value, what);
    if (!(s.node.wattage_off >= 0))
      throw InputError(spec, "wattage-off=" + value + " is negative", "give the watts drawn when off, e.g. wattage-off=10");
  } else if (key == "loopback-bw") {
    s.loopback_bandwidth = units::parse_bandwidth(value, what);
  } else if (key == "loopback-lat") {
    s.loopback_latency = units::parse_time(value, what);
  } else {
    apply_link_key(s, key, value, what);
  }
}

// speed=/speeds= with another pstate count than the kind's default power profile: that profile
// no longer describes the node, so the node has none (--power then refuses the platform and names
// wattage=). A preset's or wattage='s profile stays and is checked against the speeds.
void drop_default_power_if_stale(PlatformSpec& s, const std::set<std::string>& keys)
{
  const bool power_given = keys.count("wattage") || (keys.count("preset") && s.kind == Kind::Cluster);
  const bool speeds_given = keys.count("speed") || keys.count("speeds");
  const size_t entries    = s.node.wattage_per_state.size() + s.node.wattage_calibration.size();
  if (power_given || !speeds_given || entries == s.node.speeds.size())
    return;
  s.node.wattage_per_state.clear();
  s.node.wattage_calibration.clear();
  if (!keys.count("wattage-off"))
    s.node.wattage_off = -1;
}

// cores= on a kind whose default profile is derived per core from taurus-8: the profile is derived
// again for that many cores (SimGrid's all_cores figure is per node, so keeping the default's would
// price each core at the wrong wattage). A wattage= or a cluster preset's calibration stays as given.
void rederive_default_power_for_cores(PlatformSpec& s, const std::set<std::string>& keys)
{
  if (!keys.count("cores") || keys.count("wattage") || (keys.count("preset") && s.kind == Kind::Cluster))
    return;
  const double off = s.node.wattage_off;
  apply_taurus8_derived(s.node, s.node.cores, s.kind == Kind::HaecBox ? 0.5 : 1.0);
  if (keys.count("wattage-off"))
    s.node.wattage_off = off;
}

// key=value with a key of this kind, given once.
std::pair<std::string, std::string> key_value(const std::string& item, Kind kind, const std::vector<std::string>& valid,
                                              std::set<std::string>& seen, const std::string& spec)
{
  size_t eq = item.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
    throw InputError(spec, "'" + item + "' is not key=value", "write e.g. cores=4 (keys: " + join(valid) + ")");
  std::string key = item.substr(0, eq), value = item.substr(eq + 1);
  if (std::find(valid.begin(), valid.end(), key) == valid.end()) {
    auto all = keys_of(Kind::HaecBox);
    all.insert(all.end(), kLinkKeys.begin(), kLinkKeys.end());
    all.insert(all.end(), kLevelKeys.begin(), kLevelKeys.end());
    all.push_back("reduce");
    bool known = std::find(all.begin(), all.end(), key) != all.end();
    throw InputError(spec,
                     (known ? "key '" + key + "' does not apply to " + kind_name(kind) : "unknown key '" + key + "'"),
                     "valid keys for " + kind_name(kind) + ": " + join(valid));
  }
  if (!seen.insert(key).second)
    throw InputError(spec, "key '" + key + "' given twice", "give each key once");
  return {key, value};
}

} // namespace

PlatformSpec parse_spec(const std::string& spec)
{
  size_t colon = spec.find(':');
  if (spec.empty() || colon == std::string::npos)
    throw InputError(spec.empty() ? "(empty platform spec)" : spec, "expected KIND:DIMS[,key=value...]",
                     "write e.g. haec-box:4x4x4, torus:16x16x16 or cluster:8 (kinds: " + std::string(kValidKinds) + ")");
  Kind kind;
  std::string kind_text = spec.substr(0, colon);
  if (!parse_kind(kind_text, kind))
    throw InputError(spec, "unknown platform kind '" + kind_text + "'", std::string("use one of ") + kValidKinds);

  auto items     = split(spec.substr(colon + 1), ',');
  PlatformSpec s = defaults(kind);
  if (kind == Kind::FatTree) { // its parameters hold commas: they run up to the first key=value
    size_t keys = 1;
    while (keys < items.size() && items[keys].find('=') == std::string::npos)
      items[0] += "," + items[keys++];
    items.erase(items.begin() + 1, items.begin() + static_cast<long>(keys));
    s.fat_tree = parse_fat_tree(items[0], spec);
    validate_fat_tree(s.fat_tree, spec);
    s.dims = {static_cast<int>(fat_tree_nodes(s.fat_tree)), 1, 1};
  } else {
    s.dims = parse_dims(kind, items[0], spec);
  }
  s.spec_text      = spec;
  const auto valid = keys_of(kind);
  std::set<std::string> seen;
  int speed_keys = 0;
  for (size_t i = 1; i < items.size(); ++i) {
    auto [key, value] = key_value(items[i], kind, valid, seen, spec);
    apply_key(s, kind, key, value, i, spec, speed_keys);
    if (speed_keys > 1)
      throw InputError(spec, "both speed= and speeds= given", "use speed= for one pstate or speeds= for several");
  }
  rederive_default_power_for_cores(s, seen);
  drop_default_power_if_stale(s, seen);
  validate(s, spec);
  return s;
}

// ----- platform.json -----

nlohmann::json to_json(const PlatformSpec& s)
{
  nlohmann::json j;
  j["format"]  = "haec-platform";
  j["version"] = 1;
  j["kind"]    = kind_name(s.kind);
  j["dims"]    = s.dims;
  if (s.kind == Kind::FatTree) {
    j["fat_tree"]       = fat_tree_text(s.fat_tree);
    j["reduce_percent"] = s.fat_tree.reduce_percent;
  }
  if (s.kind == Kind::Hierarchical)
    j["l3_links"] = s.l3_links;
  if (s.kind == Kind::Hierarchical && s.indirect_routes > 0) // absent: 0, files of earlier versions
    j["indirect_routes"] = s.indirect_routes;
  if (s.kind == Kind::HaecBox) {
    j["board"]    = s.board_torus ? "torus" : "mesh";
    j["wireless"] = s.wireless_full ? "full" : "aligned";
  }
  auto& links = j["links"] = nlohmann::json::object();
  for (auto const& t : s.link_types)
    links[t.name] = {{"bandwidth_Bps", t.bandwidth}, {"latency_s", t.latency}, {"ber", t.ber}};
  j["node"]     = {{"cores", s.node.cores}, {"speeds_flops", s.node.speeds}};
  if (!s.node.wattage_calibration.empty())
    j["node"]["wattage_calibration"] = s.node.wattage_calibration;
  if (!s.node.wattage_per_state.empty())
    j["node"]["wattage_per_state"] = s.node.wattage_per_state;
  if (s.node.wattage_off >= 0)
    j["node"]["wattage_off"] = s.node.wattage_off;
  if (s.node.sockets > 1) {
    j["node"]["sockets"]        = s.node.sockets;
    j["node"]["socket_wattage"] = s.node.socket_wattage;
  }
  j["loopback"] = {{"bandwidth_Bps", s.loopback_bandwidth}, {"latency_s", s.loopback_latency}};
  j["spec"]     = s.spec_text;
  return j;
}

namespace {

// Field access for from_json: every problem names the file, the field and how to fix it.
struct Reader {
  const std::string& what;

  void only(const nlohmann::json& obj, const std::string& where, const std::vector<std::string>& allowed) const
  {
    for (auto it = obj.begin(); it != obj.end(); ++it)
      if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end())
        throw InputError(what, "unknown field '" + where + it.key() + "'",
                         "remove it (fields here: " + join(allowed) + ")");
  }
  const nlohmann::json& get(const nlohmann::json& obj, const std::string& where, const std::string& name) const
  {
    if (!obj.is_object() || !obj.contains(name))
      throw InputError(what, "missing field '" + where + name + "'", "regenerate the file with `haec platform`");
    return obj.at(name);
  }
  const nlohmann::json& object(const nlohmann::json& obj, const std::string& where, const std::string& name) const
  {
    auto const& v = get(obj, where, name);
    if (!v.is_object())
      throw InputError(what, "field '" + where + name + "' is not an object", "regenerate the file with `haec platform`");
    return v;
  }
  double number(const nlohmann::json& obj, const std::string& where, const std::string& name) const
  {
    auto const& v = get(obj, where, name);
    if (!v.is_number())
      throw InputError(what, "field '" + where + name + "' is not a number", "write a number");
    return v.get<double>();
  }
  long long integer(const nlohmann::json& v, const std::string& name) const
  {
    if (!v.is_number_integer())
      throw InputError(what, "field '" + name + "' is not an integer", "write a whole number");
    if (v.is_number_unsigned() && v.get<unsigned long long>() > (1ULL << 40))
      throw InputError(what, "field '" + name + "' is too large", "use a smaller number");
    return v.get<long long>();
  }
  std::string text(const nlohmann::json& obj, const std::string& name) const
  {
    auto const& v = get(obj, "", name);
    if (!v.is_string())
      throw InputError(what, "field '" + name + "' is not a string", "write a quoted string");
    return v.get<std::string>();
  }
};

} // namespace

namespace {

Kind read_kind(const Reader& r, const nlohmann::json& j)
{
  if (!j.is_object())
    throw InputError(r.what, "is not a JSON object", "regenerate the file with `haec platform`");
  if (r.text(j, "format") != "haec-platform")
    throw InputError(r.what, "field 'format' is not \"haec-platform\"", "give a platform.json written by `haec platform`");
  if (r.integer(r.get(j, "", "version"), "version") != 1)
    throw InputError(r.what, "unsupported version", "this build reads version 1; regenerate the file");
  Kind kind;
  std::string kind_text = r.text(j, "kind");
  if (!parse_kind(kind_text, kind))
    throw InputError(r.what, "unknown platform kind '" + kind_text + "'", std::string("use one of ") + kValidKinds);
  std::vector<std::string> top = {"format", "version", "kind", "dims", "links", "node", "loopback", "spec"};
  if (kind == Kind::HaecBox) {
    top.push_back("board");
    top.push_back("wireless");
  }
  if (kind == Kind::FatTree) {
    top.push_back("fat_tree");
    top.push_back("reduce_percent");
  }
  if (kind == Kind::Hierarchical) {
    top.push_back("l3_links");
    top.push_back("indirect_routes");
  }
  r.only(j, "", top);
  return kind;
}

void read_shape(const Reader& r, const nlohmann::json& j, PlatformSpec& s)
{
  auto const& dims = r.get(j, "", "dims");
  if (!dims.is_array() || dims.size() != 3)
    throw InputError(r.what, "field 'dims' is not an array of 3 integers", "write e.g. [4, 4, 4]");
  for (int d = 0; d < 3; ++d) {
    long long v = r.integer(dims[d], "dims[" + std::to_string(d) + "]");
    if (v < 1 || v > kMaxNodes)
      throw InputError(r.what, "dimension " + std::to_string(v) + " is not a positive integer <= " + std::to_string(kMaxNodes),
                       "use dimensions >= 1");
    s.dims[d] = static_cast<int>(v);
  }
  if (s.kind == Kind::FatTree) {
    s.fat_tree                = parse_fat_tree(r.text(j, "fat_tree"), r.what);
    s.fat_tree.reduce_percent = r.number(j, "", "reduce_percent");
  }
  if (s.kind == Kind::Hierarchical) {
    long long l3 = r.integer(r.get(j, "", "l3_links"), "l3_links");
    if (l3 < 1 || l3 > kMaxNodes)
      throw InputError(r.what, "l3_links=" + std::to_string(l3) + " is out of range", "give 1 <= l3_links <= S*B");
    s.l3_links = static_cast<int>(l3);
    if (j.contains("indirect_routes")) {
      long long n = r.integer(j["indirect_routes"], "indirect_routes");
      if (n > kMaxNodes)
        throw InputError(r.what, "indirect_routes=" + std::to_string(n) + " is out of range", "give 0 <= indirect_routes <= R-2");
      s.indirect_routes = static_cast<int>(n);
    }
  }
  if (s.kind != Kind::HaecBox)
    return;
  std::string board = r.text(j, "board"), wireless = r.text(j, "wireless");
  if (board != "torus" && board != "mesh")
    throw InputError(r.what, "board must be \"torus\" or \"mesh\", not '" + board + "'", "fix field 'board'");
  if (wireless != "aligned" && wireless != "full")
    throw InputError(r.what, "wireless must be \"aligned\" or \"full\", not '" + wireless + "'", "fix field 'wireless'");
  s.board_torus   = board == "torus";
  s.wireless_full = wireless == "full";
}

void read_links(const Reader& r, const nlohmann::json& j, PlatformSpec& s)
{
  auto const& links = r.object(j, "", "links");
  r.only(links, "links.", link_type_names(s.kind));
  for (auto& t : s.link_types) {
    std::string where = "links." + t.name + ".";
    auto const& lt    = r.object(links, "links.", t.name);
    r.only(lt, where, {"bandwidth_Bps", "latency_s", "ber"});
    t.bandwidth = r.number(lt, where, "bandwidth_Bps");
    t.latency   = r.number(lt, where, "latency_s");
    t.ber       = r.number(lt, where, "ber");
  }
}

// node.wattage_calibration or node.wattage_per_state: an array of "a:b:c" strings.
void read_power_entries(const Reader& r, const nlohmann::json& node, const std::string& name, const char* example,
                        const char* layout, std::vector<std::string>& out)
{
  if (!node.contains(name))
    return;
  auto const& w = node.at(name);
  if (!w.is_array())
    throw InputError(r.what, "field 'node." + name + "' is not an array", std::string("write e.g. [\"") + example + "\"]");
  for (auto const& e : w) {
    if (!e.is_string())
      throw InputError(r.what, "field 'node." + name + "' holds a non-string", std::string("write \"") + layout + "\" strings");
    out.push_back(e.get<std::string>());
  }
}

// The file's power fields replace the kind's default profile (a file without them has none).
void read_node_power(const Reader& r, const nlohmann::json& node, PlatformSpec& s)
{
  s.node.wattage_calibration.clear();
  s.node.wattage_per_state.clear();
  s.node.wattage_off = -1;
  read_power_entries(r, node, "wattage_calibration", "92.75:114.62:174.38", "idle:one_core:all_cores",
                     s.node.wattage_calibration);
  read_power_entries(r, node, "wattage_per_state", "92.75:109.19:174.38", "idle:epsilon:all_cores",
                     s.node.wattage_per_state);
  if (node.contains("sockets")) {
    long long sockets = r.integer(r.get(node, "node.", "sockets"), "node.sockets");
    if (sockets < 1 || sockets > 1 << 20)
      throw InputError(r.what, "node.sockets=" + std::to_string(sockets) + " is out of range", "use sockets >= 1");
    s.node.sockets = static_cast<int>(sockets);
  }
  if (node.contains("socket_wattage"))
    s.node.socket_wattage = r.number(node, "node.", "socket_wattage");
  if (node.contains("wattage_off")) {
    s.node.wattage_off = r.number(node, "node.", "wattage_off");
    if (s.node.wattage_off < 0)
      throw InputError(r.what, "field 'node.wattage_off' is negative", "give the watts drawn when off, e.g. 10");
  }
}

void read_node(const Reader& r, const nlohmann::json& j, PlatformSpec& s)
{
  auto const& node = r.object(j, "", "node");
  r.only(node, "node.",
         {"cores", "speeds_flops", "wattage_calibration", "wattage_per_state", "wattage_off", "sockets", "socket_wattage"});
  long long cores = r.integer(r.get(node, "node.", "cores"), "node.cores");
  if (cores < 1 || cores > 1 << 20)
    throw InputError(r.what, "node.cores=" + std::to_string(cores) + " is out of range", "use 1 <= cores <= 1048576");
  s.node.cores       = static_cast<int>(cores);
  auto const& speeds = r.get(node, "node.", "speeds_flops");
  if (!speeds.is_array())
    throw InputError(r.what, "field 'node.speeds_flops' is not an array", "write e.g. [2.3e9, 1.2e9]");
  s.node.speeds.clear();
  for (auto const& v : speeds) {
    if (!v.is_number())
      throw InputError(r.what, "field 'node.speeds_flops' holds a non-number", "write flop/s values such as 2.3e9");
    s.node.speeds.push_back(v.get<double>());
  }
  read_node_power(r, node, s);
}

} // namespace

PlatformSpec from_json(const nlohmann::json& j, const std::string& what)
{
  Reader r{what};
  PlatformSpec s = defaults(read_kind(r, j));
  read_shape(r, j, s);
  read_links(r, j, s);
  read_node(r, j, s);
  auto const& lo = r.object(j, "", "loopback");
  r.only(lo, "loopback.", {"bandwidth_Bps", "latency_s"});
  s.loopback_bandwidth = r.number(lo, "loopback.", "bandwidth_Bps");
  s.loopback_latency   = r.number(lo, "loopback.", "latency_s");
  s.spec_text          = j.contains("spec") ? r.text(j, "spec") : what;
  validate(s, what);
  return s;
}

} // namespace haec::platform
