// Link-model costs of traffic on a route (link_cost.hpp).
#include "link_cost.hpp"
#include "input_error.hpp"
#include "link_energy.hpp"

#include <cmath>

namespace haec::mapping {

LinkCost::LinkCost(const Target& target, const std::string& link_wattage)
    : model_(link::Protocol::DOR, link::NodeParams{})
{
  if (target.link_classes.empty() || !target.profile)
    throw InputError("link-model cost", "the platform's link types are unknown (SimGrid XML platform)",
                     "use a platform spec or platform.json, or a strategy that needs hop counts only");
  const auto wattage = power::parse_link_wattage_table(link_wattage, "link wattage");
  const double packet_bits = 8 * model_.params().packet_size;
  for (const auto& c : target.link_classes) {
    const double loss = 1 - std::pow(1 - c.ber, packet_bits);
    class_hop_.push_back({c.latency, c.bandwidth * (1 - loss)});
    auto it = wattage.find(c.name);
    joules_per_bit_.push_back(it == wattage.end() ? 0.0 : power::joules_per_bit(it->second, c.bandwidth));
  }
}

double LinkCost::time(uint64_t messages, uint64_t bytes, const RouteProfile& profile) const
{
  if (messages == 0)
    return 0;
  link::Hop hops[256];
  size_t h = 0;
  for (size_t c = 0; c < class_hop_.size(); ++c)
    for (int k = 0; k < profile.hops[c] && h < 256; ++k)
      hops[h++] = class_hop_[c];
  const uint64_t mean = bytes / messages;
  return static_cast<double>(messages) * model_.transfer_time(mean, hops, h);
}

double LinkCost::energy(uint64_t bytes, const RouteProfile& profile) const
{
  double per_bit = 0;
  for (size_t c = 0; c < joules_per_bit_.size(); ++c)
    per_bit += profile.hops[c] * joules_per_bit_[c];
  return 8.0 * static_cast<double>(bytes) * per_bit;
}

ModelCosts model_costs(const CommMatrix& m, const std::vector<int>& a, const Target& target)
{
  const LinkCost cost(target);
  ModelCosts total;
  for (int s = 0; s < m.ranks; ++s)
    for (int d = 0; d < m.ranks; ++d) {
      const uint64_t bytes = m.has_bytes ? m.byte_count(s, d) : 0;
      uint64_t msgs        = m.has_messages ? m.msgs(s, d) : (bytes > 0 ? 1 : 0);
      if (msgs == 0)
        continue;
      const RouteProfile p = target.profile(a[static_cast<size_t>(s)], a[static_cast<size_t>(d)]);
      total.time_s += cost.time(msgs, bytes, p);
      total.energy_j += cost.energy(bytes, p);
    }
  return total;
}

} // namespace haec::mapping
