// Fuzzes the resilient link models' settings as users give them (--cfg haec/link/KEY:VALUE, read by
// resilient_setup exactly as `haec run` and the suite read them) and evaluates message times.
// Input: lines "KEY:VALUE" with KEY a haec/link/... key (e.g. "haec/link/window:16"), "model:NAME"
// (dor_r, pnc_r or ncd_r), "m:BYTES" a message size, "hop:LATENCY,BANDWIDTH,LOSS,ACKLOSS" a hop of the
// route (SimGrid units). Other lines are ignored.
// Invariants when the setup and the route are accepted: expected, sampled and loss-free times are
// non-negative numbers, expected >= loss-free, loss-free non-decreasing in the size (expected too
// for DOR_r: a coded generation of more packets can finish sooner when acks are lost often, since
// every packet sent brings one more chance of a full-rank ack; found by this target), serialisation
// <= loss-free time; a refused route is refused with haec::InputError only.
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "resilient_model.hpp"
#include "resilient_setup.hpp"
#include "units.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

using namespace haec::link::resilient;
namespace units = haec::units;

namespace {

struct Input {
  std::string model = "dor_r";
  std::map<std::string, std::string> settings;
  std::vector<uint64_t> sizes;
  std::vector<Hop> hops;
};

Input parse(const std::string& text)
{
  Input in;
  for (const auto& line : haec::fuzz::lines(text)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    const std::string key = line.substr(0, colon), value = line.substr(colon + 1);
    if (key == "model")
      in.model = value;
    else if (key.rfind("haec/link/", 0) == 0)
      in.settings[key] = value;
    else if (key == "m" && in.sizes.size() < 8)
      in.sizes.push_back(static_cast<uint64_t>(units::parse_integer(value, key)) % (64ull << 20));
    else if (key == "hop" && in.hops.size() < 48) {
      std::vector<std::string> f;
      size_t start = 0;
      for (size_t c; (c = value.find(',', start)) != std::string::npos; start = c + 1)
        f.push_back(value.substr(start, c - start));
      f.push_back(value.substr(start));
      if (f.size() != 4)
        continue;
      Hop h;
      h.latency   = units::parse_time(f[0], key);
      h.bandwidth = units::parse_bandwidth(f[1], key);
      h.loss_data = units::parse_number(f[2], key);
      h.loss_ack  = units::parse_number(f[3], key);
      // As the plugin builds hops: valid links, loss in [0,1) (haec/link/loss or loss_from_ber).
      if (!(h.bandwidth > 0) || !(h.latency >= 0) || !std::isfinite(h.bandwidth) || !std::isfinite(h.latency) ||
          !(h.loss_data >= 0 && h.loss_data < 1) || !(h.loss_ack >= 0 && h.loss_ack < 1))
        continue;
      in.hops.push_back(h);
    }
  }
  return in;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  Input in;
  std::optional<Setup> setup;
  try {
    in = parse(haec::fuzz::as_text(data, size));
    setup.emplace(setup_from_settings(in.model, in.settings));
  } catch (const haec::InputError&) {
    return 0;
  }
  // Keep each input fast: coded windows cost O(s_w^4) per route class.
  if (setup->params.window > 16)
    return 0;
  Model model(setup->protocol, setup->params); // accepted settings must build a model
  std::optional<Model::RouteSummary> route;
  try {
    route.emplace(model.summarize(in.hops.data(), in.hops.size()));
  } catch (const haec::InputError&) {
    return 0;
  }
  std::vector<uint64_t> sizes = in.sizes;
  sizes.insert(sizes.end(), {0, 1, 1500, 20000});
  std::sort(sizes.begin(), sizes.end());
  std::mt19937_64 rng(setup->seed);
  double prev_expected = 0, prev_free = 0;
  for (uint64_t m : sizes) {
    const double free     = model.loss_free_time(m, in.hops.data(), in.hops.size());
    const double expected = model.expected_time(m, *route);
    const double serial   = model.bottleneck_serialisation(m, *route);
    FUZZ_CHECK(std::isfinite(free) && free >= 0);
    FUZZ_CHECK(!std::isnan(expected) && expected >= free * (1 - 1e-9));
    FUZZ_CHECK(serial >= 0 && serial <= free * (1 + 1e-12));
    FUZZ_CHECK(free >= prev_free * (1 - 1e-12));
    if (setup->protocol == Protocol::DOR_r)
      FUZZ_CHECK(expected >= prev_expected * (1 - 1e-9));
    prev_expected = expected;
    prev_free     = free;
    if (route->full == nullptr || route->full->rounds < 1e3) { // sampling costs one draw per packet
      const double sampled = model.sampled_time(m, *route, rng);
      FUZZ_CHECK(std::isfinite(sampled) && sampled >= free * (1 - 1e-9));
    }
  }
  return 0;
}
