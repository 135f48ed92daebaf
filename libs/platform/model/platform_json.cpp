// platform.json <-> PlatformSpec: a stable JSON form (what `haec platform` writes), read back with
// every problem naming the file, the field and the fix, then the one validator.
#include "platform_spec_parts.hpp"
#include "fat_tree.hpp"
#include "input_error.hpp"

#include <algorithm>

namespace haec::platform {

using namespace detail;

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
