// Platform kinds: their names, the keys a spec of each kind accepts, their defaults and the
// published presets (seed 004's HAEC box, the taurus cluster of thesis 002).
#include "platform_spec_parts.hpp"
#include "fat_tree.hpp"
#include "hierarchical.hpp"
#include "input_error.hpp"
#include "text.hpp"
#include "units.hpp"

namespace haec::platform {
namespace detail {

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

} // namespace detail

namespace {

using text::split;

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

// seed 004 Table 2: 2-D mesh boards, aligned wireless, every link 250 Gbit/s and 1 us, error free.
void apply_ciorba2014(PlatformSpec& s)
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

} // namespace

namespace detail {

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

// preset=... (only as the first key): a published configuration the other keys may override.
void apply_preset(PlatformSpec& s, Kind kind, const std::string& value, size_t position, const std::string& spec)
{
  if (position != 1)
    throw InputError(spec, "preset must be the first key", "put preset=" + value + " right after the dimensions");
  if (kind == Kind::HaecBox && (value == "ciorba2014" || value == "seed004")) // seed004: its earlier name
    apply_ciorba2014(s);
  else if (kind == Kind::Cluster && value == "taurus")
    apply_taurus(s);
  else if (kind == Kind::Cluster && value == "taurus-node")
    apply_taurus_node(s);
  else
    throw InputError(spec, "unknown preset '" + value + "'",
                     kind == Kind::Cluster ? "use preset=taurus or preset=taurus-node" : "use preset=ciorba2014");
}

} // namespace detail

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

} // namespace haec::platform
