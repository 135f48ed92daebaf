// Fuzzes platform spec strings: haec::platform::parse_spec, then (when it parses) the platform.json
// round trip, Topology construction and dimension-order routes.
// Input: the spec on the first line; the bytes after the first '\n' choose (src, dst) pairs.
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "platform_spec.hpp"
#include "topology.hpp"

#include <set>

using namespace haec::platform;
using haec::fuzz::as_text;

namespace {

// Keep each input fast: the model accepts up to 2^22 nodes and 2^25 links, building those takes
// seconds. The cap lives here, not in the model.
constexpr long long kMaxFuzzNodes = 4096;
constexpr long long kMaxFuzzLinks = 1 << 16;

// Walks route(src, dst) link by link: it must start at src, end at dst, follow existing links
// in x, y, z order (full wireless: z only) and have exactly dor_distance hops.
void check_route(const Topology& t, uint32_t src, uint32_t dst, std::vector<uint32_t>& route)
{
  if (t.spec().kind == Kind::FatTree) { // SimGrid routes: 2 l cables, l <= levels, symmetric
    const int hops = t.dor_distance(src, dst);
    FUZZ_CHECK(hops % 2 == 0 && hops <= 2 * t.spec().fat_tree.levels && hops == t.dor_distance(dst, src));
    FUZZ_CHECK((hops == 0) == (src == dst));
    return;
  }
  t.route(src, dst, route);
  FUZZ_CHECK(static_cast<int>(route.size()) == t.dor_distance(src, dst));
  if (src == dst) {
    FUZZ_CHECK(route.empty());
    return;
  }
  const auto& links = t.links();
  for (uint32_t id : route)
    FUZZ_CHECK(id < links.size());
  if (t.spec().kind == Kind::Cluster) {
    FUZZ_CHECK(route.size() == 2);
    FUZZ_CHECK(links[route[0]].from == src && links[route[0]].dim == 0);
    FUZZ_CHECK(links[route[1]].to == dst && links[route[1]].dim == 1);
    return;
  }
  uint32_t cur = src;
  int last_dim = 0;
  for (uint32_t id : route) {
    const auto& l = links[id];
    FUZZ_CHECK(l.from == cur);
    FUZZ_CHECK(l.to != l.from);
    FUZZ_CHECK(l.dim >= last_dim || t.spec().kind == Kind::Hierarchical); // BFS: any level order
    FUZZ_CHECK(l.type < t.spec().link_types.size());
    last_dim = l.dim;
    cur      = l.to;
  }
  FUZZ_CHECK(cur == dst);
}

void check_topology(const PlatformSpec& s, const std::string& tail)
{
  const long long nodes = 1LL * s.dims[0] * s.dims[1] * s.dims[2];
  const long long count = directed_link_count(s);
  if (nodes > kMaxFuzzNodes || count > kMaxFuzzLinks)
    return;
  Topology t(s);
  FUZZ_CHECK(t.num_nodes() == nodes);
  FUZZ_CHECK(static_cast<long long>(t.links().size()) == (s.kind == Kind::FatTree ? 0 : count));
  if (count <= 4096) { // names are unique (SimGrid needs it); only for small platforms, it costs
    std::set<std::string> names;
    for (uint32_t i = 0; i < t.links().size(); ++i)
      FUZZ_CHECK(names.insert(t.link_name(i)).second);
    for (uint32_t n = 0; n < t.num_nodes(); ++n) {
      FUZZ_CHECK(names.insert(t.host_name(n)).second);
      FUZZ_CHECK(names.insert(t.loopback_name(n)).second);
    }
  }
  const uint32_t n = t.num_nodes();
  std::vector<uint32_t> route;
  // Fixed pairs: corners and middle, both ways.
  const uint32_t fixed[][2] = {{0, n - 1}, {n - 1, 0}, {n / 2, n - 1 - n / 2}, {n / 3, (2 * n) / 3}, {0, 0}};
  for (auto const& p : fixed) {
    check_route(t, p[0], p[1], route);
    check_route(t, p[1], p[0], route);
  }
  // Pairs chosen by the input: 4 bytes each, at most 64 pairs.
  for (size_t i = 0; i + 4 <= tail.size() && i < 256; i += 4) {
    auto u16 = [&](size_t k) { return static_cast<uint32_t>(static_cast<uint8_t>(tail[k]) | static_cast<uint8_t>(tail[k + 1]) << 8); };
    check_route(t, u16(i) % n, u16(i + 2) % n, route);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string input = as_text(data, size);
  const size_t nl         = input.find('\n');
  const std::string spec  = input.substr(0, nl);
  const std::string tail  = nl == std::string::npos ? "" : input.substr(nl + 1);

  PlatformSpec s;
  try {
    s = parse_spec(spec);
  } catch (const haec::InputError&) {
    return 0;
  }
  FUZZ_CHECK(s.spec_text == spec);

  // platform.json as `haec platform` writes it must read back to the same platform.
  const nlohmann::json j  = to_json(s);
  const std::string text  = j.dump(2); // what cmd_platform / cmd_run write
  const auto parsed       = nlohmann::json::parse(text, nullptr, false);
  FUZZ_CHECK(!parsed.is_discarded());
  try {
    PlatformSpec back = from_json(parsed, "platform.json");
    FUZZ_CHECK(to_json(back) == j);
  } catch (const haec::InputError& e) {
    std::fprintf(stderr, "platform.json of an accepted spec is rejected: %s\n", e.what());
    std::abort();
  }

  check_topology(s, tail);
  return 0;
}
