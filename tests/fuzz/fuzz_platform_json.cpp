// Fuzzes platform.json: arbitrary bytes through nlohmann's parser (exceptions off, as a reader of
// untrusted files would) into haec::platform::from_json; an accepted platform must survive
// to_json/dump/parse/from_json unchanged and (when small) build a Topology with sane routes.
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "platform_spec.hpp"
#include "topology.hpp"

using namespace haec::platform;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const auto j = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded())
    return 0;
  PlatformSpec s;
  try {
    s = from_json(j, "platform.json");
  } catch (const haec::InputError&) {
    return 0;
  }

  const nlohmann::json out = to_json(s);
  const auto again         = nlohmann::json::parse(out.dump(2), nullptr, false);
  FUZZ_CHECK(!again.is_discarded());
  try {
    FUZZ_CHECK(to_json(from_json(again, "platform.json (rewritten)")) == out);
  } catch (const haec::InputError& e) {
    std::fprintf(stderr, "an accepted platform.json, rewritten, is rejected: %s\n", e.what());
    std::abort();
  }

  // Keep each input fast (the model allows 2^22 nodes).
  const long long nodes = 1LL * s.dims[0] * s.dims[1] * s.dims[2];
  if (nodes > 4096 || directed_link_count(s) > (1 << 16))
    return 0;
  Topology t(s);
  FUZZ_CHECK(t.num_nodes() == nodes);
  if (s.kind == Kind::FatTree) { // no links of ours: SimGrid's zone owns the cables
    FUZZ_CHECK(t.links().empty() && t.dor_distance(0, t.num_nodes() - 1) <= 2 * s.fat_tree.levels);
    return 0;
  }
  FUZZ_CHECK(static_cast<long long>(t.links().size()) == directed_link_count(s));
  std::vector<uint32_t> route;
  const uint32_t n = t.num_nodes();
  for (uint32_t src : {0u, n / 2, n - 1})
    for (uint32_t dst : {0u, n / 3, n - 1}) {
      t.route(src, dst, route);
      FUZZ_CHECK(static_cast<int>(route.size()) == t.dor_distance(src, dst));
      for (uint32_t id : route)
        FUZZ_CHECK(!t.link_name(id).empty());
    }
  return 0;
}
