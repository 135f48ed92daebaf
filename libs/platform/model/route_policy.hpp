// Per-message path selection among a pair's candidate routes (MARS seed 003 §2.4: "static via
// random or round-robin path selection to state-dependent adaptive schemes"). Pure C++.
#pragma once
#include "platform_spec.hpp"
#include "route_candidates.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace haec::platform {

enum class RoutingPolicy { Static, Random, RoundRobin, Adaptive };

// What a run asks of the routes (haec/routing, haec/routing/seed).
struct RoutingChoice {
  RoutingPolicy policy = RoutingPolicy::Static;
  uint64_t seed        = 1; // random only
};

// "static", "random", "round-robin", "adaptive"; anything else: InputError naming `what`.
RoutingPolicy parse_routing_policy(const std::string& text, const std::string& what);
std::string routing_policy_name(RoutingPolicy policy);

// Refuses (InputError naming `what`) a non-static policy on a platform whose routes cannot vary
// per message: every kind but hierarchical (dimension-order grids, the cluster's star, SimGrid's
// fat-tree zone) has one route per pair here.
void check_routing_supported(const PlatformSpec& spec, RoutingPolicy policy, const std::string& what);

// random: candidate of message number `message` (0, 1, ...) of the pair src -> dst, a function of
// the seed, the pair and the number alone (a counter-based generator: asking twice draws nothing).
size_t random_choice(uint64_t seed, uint32_t src, uint32_t dst, uint64_t message, size_t candidates);
// round-robin: the pair's messages take the candidates in turn.
size_t round_robin_choice(uint64_t message, size_t candidates);
// adaptive: the candidate whose busiest link has the fewest bytes in flight per byte/s of its
// bandwidth (the time that link needs to drain what is already on it); ties go to the shorter
// candidate, then to the lower index (so an idle network takes the static route).
size_t adaptive_choice(const std::vector<Path>& candidates, const std::vector<double>& in_flight_bytes,
                       const std::vector<double>& bandwidth);

} // namespace haec::platform
