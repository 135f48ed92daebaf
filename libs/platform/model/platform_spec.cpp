// Spec strings (KIND:DIMS[,key=value...]) -> PlatformSpec: the dimensions, then each key applied
// left to right, then the one validator (platform_validate.cpp) and the check that every key given
// can act on the platform.
#include "platform_spec_parts.hpp"
#include "fat_tree.hpp"
#include "hierarchical.hpp"
#include "input_error.hpp"
#include "text.hpp"
#include "units.hpp"

#include <algorithm>
#include <set>

namespace haec::platform {
namespace {

using namespace detail;
using text::split;

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

// What a key of a spec acts on, and "" when this platform has it; else what the platform lacks.
// The rule: a key that cannot change anything on the platform it is given for (a link type the
// platform has no link of, routes between racks on one rack, ...) is a mistake, refused.
std::string missing_part(const PlatformSpec& s, const std::string& key)
{
  const long long x = s.dims[0], y = s.dims[1], z = s.dims[2], nodes = x * y * z;
  const std::string type = key.find('-') == std::string::npos ? "" : key.substr(0, key.rfind('-'));
  const bool link_key    = !type.empty() && (key.size() > 3 && (key.compare(key.size() - 3, 3, "-bw") == 0 ||
                                                                key.compare(key.size() - 4, 4, "-lat") == 0 ||
                                                                key.compare(key.size() - 4, 4, "-ber") == 0));
  if (link_key && type != "loopback") {
    if (s.kind == Kind::HaecBox && type == "optical" && x * y == 1)
      return "no optical link (one node per board)";
    if (s.kind == Kind::HaecBox && type == "wireless" && z == 1)
      return "no wireless link (one board)";
    if (s.kind == Kind::Hierarchical && type == "l1" && x == 1)
      return "no level-1 link (one switch per board)";
    if (s.kind == Kind::Hierarchical && type == "l2" && y == 1)
      return "no level-2 link (one board per rack)";
    if (s.kind == Kind::Hierarchical && type == "l3" && z == 1)
      return "no level-3 link (one rack)";
    if (type == "link" && nodes == 1)
      return "no link (one node: every message stays on it)";
  }
  if (key == "l3" && z == 1)
    return "no level-3 link (one rack)";
  if (key == "indirect" && z < 3)
    return std::to_string(z) + " rack" + (z == 1 ? "" : "s") + " (an indirect route crosses a third rack)";
  if (key == "wireless" && (z == 1 || x * y == 1))
    return z == 1 ? "one board (no wireless link)" : "one node per board (full and aligned wireless are the same)";
  if (key == "board" && x < 3 && y < 3)
    return "no line of 3 or more nodes on a board (torus and mesh boards are the same)";
  if (key == "reduce" && s.fat_tree.levels < 2)
    return "one level (reduce= lowers the bandwidth of the levels above the first)";
  return "";
}

void check_keys_act(const PlatformSpec& s, const std::set<std::string>& keys, const std::string& spec)
{
  for (const auto& key : keys)
    if (const std::string lacking = missing_part(s, key); !lacking.empty())
      throw InputError(spec, "key '" + key + "' cannot act: the platform has " + lacking,
                       "drop " + key + "= or give a platform that has what it sets");
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
  check_keys_act(s, seen, spec);
  return s;
}

} // namespace haec::platform
