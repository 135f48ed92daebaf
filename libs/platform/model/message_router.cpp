#include "message_router.hpp"

namespace haec::platform {

MessageRouter::MessageRouter(const Topology& topo, RoutingPolicy policy, uint64_t seed)
    : candidates_(topo), policy_(policy), seed_(seed), in_flight_(topo.links().size(), 0.0)
{
  for (auto const& l : topo.links())
    bandwidth_.push_back(topo.spec().link_types.at(l.type).bandwidth);
}

uint64_t MessageRouter::messages(uint32_t src, uint32_t dst) const
{
  auto it = sent_.find(key(src, dst));
  return it == sent_.end() ? 0 : it->second;
}

size_t MessageRouter::choose(uint32_t src, uint32_t dst, const std::vector<Path>& candidates) const
{
  if (candidates.size() == 1)
    return 0;
  switch (policy_) {
    case RoutingPolicy::Static:
      return 0;
    case RoutingPolicy::Random:
      return random_choice(seed_, src, dst, messages(src, dst), candidates.size());
    case RoutingPolicy::RoundRobin:
      return round_robin_choice(messages(src, dst), candidates.size());
    case RoutingPolicy::Adaptive:
      return adaptive_choice(candidates, in_flight_, bandwidth_);
  }
  return 0;
}

const Path& MessageRouter::next(uint32_t src, uint32_t dst)
{
  std::lock_guard<std::mutex> guard(candidates_lock_);
  const std::vector<Path>& candidates = candidates_.of(src, dst);
  return candidates[choose(src, dst, candidates)];
}

uint64_t MessageRouter::start(uint32_t src, uint32_t dst, double bytes)
{
  const Path& path = next(src, dst); // kept in the candidates' cache: the pointer stays valid
  ++sent_[key(src, dst)];
  for (uint32_t link : path)
    in_flight_[link] += bytes;
  flights_.emplace(next_token_, Flight{&path, bytes});
  return next_token_++;
}

void MessageRouter::end(uint64_t token)
{
  auto it = flights_.find(token);
  if (it == flights_.end())
    return;
  for (uint32_t link : *it->second.path)
    in_flight_[link] -= it->second.bytes;
  flights_.erase(it);
}

} // namespace haec::platform
