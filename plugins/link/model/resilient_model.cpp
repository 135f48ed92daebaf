#include "resilient_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "input_error.hpp"

namespace haec::link::resilient {

Model::Model(Protocol protocol, Params params) : protocol_(protocol), params_(params)
{
  validate(params_, protocol_);
  layout_ = layout(protocol_, params_);
}

size_t Model::KeyHash::operator()(const Key& k) const
{
  uint64_t a, b;
  std::memcpy(&a, &k.q_data, sizeof a);
  std::memcpy(&b, &k.q_ack, sizeof b);
  uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
  return static_cast<size_t>(h ^ static_cast<uint64_t>(k.g) * 0xC2B2AE3D27D4EB4Full);
}

double Model::packet_hop_delay(const Hop& hop) const
{
  return params_.d_out + hop.latency + serialisation(params_.packet_size, hop.bandwidth, params_.units) + params_.d_in;
}

double Model::ack_hop_delay(const Hop& hop) const
{
  return params_.d_out + hop.latency + serialisation(layout_.ack_size, hop.bandwidth, params_.units) + params_.d_in;
}

uint64_t Model::packets(uint64_t m) const
{
  const double n = std::ceil(static_cast<double>(m) / layout_.payload);
  if (!(n < 18446744073709551616.0)) // saturate instead of an undefined conversion
    return UINT64_MAX;
  return std::max<uint64_t>(1, static_cast<uint64_t>(n));
}

Model::RouteSummary Model::summarize(const Hop* hops, size_t h) const
{
  RouteSummary r;
  r.hops = h;
  r.base = layout_.d_s + layout_.d_r + (static_cast<double>(h) - 1) * layout_.d_a;
  for (size_t i = 0; i < h; ++i) {
    const double dp = packet_hop_delay(hops[i]);
    r.base += dp;
    r.M = std::max(r.M, dp);
    r.A += ack_hop_delay(hops[i]) + layout_.d_a;
    r.q_data *= 1 - hops[i].loss_data;
    r.q_ack *= 1 - hops[i].loss_ack;
    r.max_serialisation = std::max(r.max_serialisation, serialisation(params_.packet_size, hops[i].bandwidth, params_.units));
  }
  if (h > 0) {
    // A route that loses nearly everything has no useful time, and sampling it would loop for
    // ever: refuse it with the numbers the user can act on.
    if (!(r.q_data > 0 && r.q_ack > 0 && std::isfinite(r.base + r.A + r.M)))
      throw InputError("route of " + std::to_string(h) + " hops", "delivers no packet or has no finite delay",
                       "lower haec/link/loss or the links' bit error rate, check the link parameters");
    r.full = &window_stats(params_.window, r.q_data, r.q_ack);
    if (!(r.full->rounds <= kMaxRoundsPerWindow)) {
      char what[160];
      std::snprintf(what, sizeof what, "delivers a packet with probability %.3g and an ack with %.3g: a window would "
                    "need %.3g rounds on average", r.q_data, r.q_ack, r.full->rounds);
      throw InputError("route of " + std::to_string(h) + " hops", what,
                       "lower haec/link/loss or the links' bit error rate (at most 1e6 rounds per window)");
    }
  }
  return r;
}

double Model::window_time(const RouteSummary& r, double rounds, double index_sum) const
{
  return rounds * (r.base + r.A) + index_sum * r.M + (rounds - 1) * params_.rto_margin;
}

const RoundStats& Model::window_stats(int g, double q_data, double q_ack) const
{
  Key key{g, q_data, q_ack};
  auto it = stats_.find(key);
  if (it == stats_.end())
    it = stats_.emplace(key, expected_rounds(protocol_, g, q_data, q_ack, params_.ncd_target)).first;
  return it->second;
}

const std::vector<int>& Model::sizes(int g, double q_data) const
{
  Key key{g, q_data, 0};
  auto it = sizes_.find(key);
  if (it == sizes_.end())
    it = sizes_.emplace(key, round_sizes(protocol_, g, q_data, params_.ncd_target)).first;
  return it->second;
}

double Model::loss_free_time(uint64_t m, const Hop* hops, size_t h) const
{
  if (h == 0)
    return (layout_.d_s + layout_.d_r) / 2 + params_.d_mpi;
  const RouteSummary r = summarize(hops, h);
  const uint64_t n     = packets(m);
  const auto s_w       = static_cast<uint64_t>(params_.window);
  const double n_w     = static_cast<double>(n / s_w);
  const auto n_r       = static_cast<int>(n % s_w);
  double t = n_w * window_time(r, 1, params_.window - 1);
  if (n_r > 0)
    t += window_time(r, 1, n_r - 1);
  return t + params_.d_mpi;
}

double Model::expected_time(uint64_t m, const Hop* hops, size_t h) const
{
  return expected_time(m, summarize(hops, h));
}

double Model::expected_time(uint64_t m, const RouteSummary& r) const
{
  if (r.hops == 0)
    return (layout_.d_s + layout_.d_r) / 2 + params_.d_mpi;
  const uint64_t n = packets(m);
  const auto s_w   = static_cast<uint64_t>(params_.window);
  const double n_w = static_cast<double>(n / s_w);
  const auto n_r   = static_cast<int>(n % s_w);
  double t         = 0;
  if (n_w > 0) {
    if (!r.full)
      r.full = &window_stats(params_.window, r.q_data, r.q_ack);
    t += n_w * window_time(r, r.full->rounds, r.full->index_sum);
  }
  if (n_r > 0) {
    const RoundStats& part = window_stats(n_r, r.q_data, r.q_ack);
    t += window_time(r, part.rounds, part.index_sum);
  }
  return t + params_.d_mpi;
}

double Model::sampled_time(uint64_t m, const Hop* hops, size_t h, std::mt19937_64& rng) const
{
  return sampled_time(m, summarize(hops, h), rng);
}

double Model::sampled_time(uint64_t m, const RouteSummary& r, std::mt19937_64& rng) const
{
  if (r.hops == 0)
    return (layout_.d_s + layout_.d_r) / 2 + params_.d_mpi;
  const uint64_t n   = packets(m);
  const auto s_w     = static_cast<uint64_t>(params_.window);
  const uint64_t n_w = n / s_w;
  const auto n_r     = static_cast<int>(n % s_w);
  // Sum the draws of every window first: one multiplication per term keeps the rounding of the
  // loss-free case identical to expected_time.
  uint64_t rounds = 0, index_sum = 0;
  if (n_w > 0) {
    const std::vector<int>& sz = sizes(params_.window, r.q_data);
    for (uint64_t w = 0; w < n_w; ++w) {
      RoundDraw d = sample_rounds(protocol_, params_.window, r.q_data, r.q_ack, sz, rng);
      rounds += d.rounds;
      index_sum += d.index_sum;
    }
  }
  if (n_r > 0) {
    RoundDraw d = sample_rounds(protocol_, n_r, r.q_data, r.q_ack, sizes(n_r, r.q_data), rng);
    rounds += d.rounds;
    index_sum += d.index_sum;
  }
  const double windows = static_cast<double>(n_w + (n_r > 0 ? 1 : 0));
  // window_time summed over windows: rounds (base + A) + index_sum M + (rounds - windows) margin.
  return static_cast<double>(rounds) * (r.base + r.A) + static_cast<double>(index_sum) * r.M +
         (static_cast<double>(rounds) - windows) * params_.rto_margin + params_.d_mpi;
}

double Model::bottleneck_serialisation(uint64_t m, const Hop* hops, size_t h) const
{
  return bottleneck_serialisation(m, summarize(hops, h));
}

double Model::bottleneck_serialisation(uint64_t m, const RouteSummary& r) const
{
  return static_cast<double>(packets(m)) * r.max_serialisation;
}

} // namespace haec::link::resilient
