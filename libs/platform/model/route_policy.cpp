#include "route_policy.hpp"
#include "input_error.hpp"

#include <algorithm>

namespace haec::platform {

RoutingPolicy parse_routing_policy(const std::string& text, const std::string& what)
{
  if (text == "static")
    return RoutingPolicy::Static;
  if (text == "random")
    return RoutingPolicy::Random;
  if (text == "round-robin")
    return RoutingPolicy::RoundRobin;
  if (text == "adaptive")
    return RoutingPolicy::Adaptive;
  throw InputError(what, "unknown routing policy", "use static, random, round-robin or adaptive");
}

std::string routing_policy_name(RoutingPolicy policy)
{
  switch (policy) {
    case RoutingPolicy::Static:
      return "static";
    case RoutingPolicy::Random:
      return "random";
    case RoutingPolicy::RoundRobin:
      return "round-robin";
    case RoutingPolicy::Adaptive:
      return "adaptive";
  }
  return "?";
}

void check_routing_supported(const PlatformSpec& spec, RoutingPolicy policy, const std::string& what)
{
  if (policy == RoutingPolicy::Static || spec.kind == Kind::Hierarchical)
    return;
  if (spec.kind == Kind::FatTree)
    throw InputError(what, "SimGrid's fat-tree zone has one static d-mod-k route per node pair",
                     "use --routing static on fat trees (per-message policies: hierarchical: platforms)");
  throw InputError(what, "a " + kind_name(spec.kind) + " platform has one route per node pair here",
                   "use --routing static, or a hierarchical: platform (its parallel and indirect routes)");
}

namespace {
// SplitMix64's finaliser: a well-mixed 64-bit function of its input.
uint64_t mix(uint64_t x)
{
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
} // namespace

size_t random_choice(uint64_t seed, uint32_t src, uint32_t dst, uint64_t message, size_t candidates)
{
  const uint64_t pair = (static_cast<uint64_t>(src) << 32) | dst;
  return static_cast<size_t>(mix(mix(mix(seed) ^ pair) ^ message) % candidates);
}

size_t round_robin_choice(uint64_t message, size_t candidates)
{
  return static_cast<size_t>(message % candidates);
}

size_t adaptive_choice(const std::vector<Path>& candidates, const std::vector<double>& in_flight_bytes,
                       const std::vector<double>& bandwidth)
{
  auto drain_time = [&](const Path& p) {
    double worst = 0;
    for (uint32_t link : p)
      worst = std::max(worst, in_flight_bytes[link] / bandwidth[link]);
    return worst;
  };
  size_t best      = 0;
  double best_time = drain_time(candidates[0]);
  for (size_t i = 1; i < candidates.size(); ++i) {
    const double t = drain_time(candidates[i]);
    if (t < best_time || (t == best_time && candidates[i].size() < candidates[best].size())) {
      best      = i;
      best_time = t;
    }
  }
  return best;
}

} // namespace haec::platform
