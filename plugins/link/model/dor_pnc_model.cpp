#include "dor_pnc_model.hpp"
#include "input_error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace haec::link {

DorPncModel::DorPncModel(Protocol protocol, NodeParams params) : protocol_(protocol), params_(params)
{
  const auto& p = params_;
  if (!(p.window >= 1))
    throw InputError("haec/link/window", "window size must be at least 1 packet", "set --cfg=haec/link/window:5");
  if (!(p.d_out >= 0) || !(p.d_in >= 0) || !(p.d_p >= 0))
    throw InputError("haec/link delays", "d_out, d_in and d_p must be non-negative", "give times >= 0");
  if (!(p.window_id >= 0) || !(p.ff_symbol >= 0))
    throw InputError("haec/link header sizes", "window id and symbol sizes must be non-negative", "give sizes >= 0");

  const double w = p.window;
  d_a_           = p.d_out / 2;
  if (protocol_ == Protocol::DOR) {
    payload_ = p.packet_size - p.window_id;
    d_s_     = 2 * p.d_out;
    d_r_     = 2 * p.d_out;
  } else {
    payload_ = p.packet_size - w * p.ff_symbol - p.window_id;
    d_s_     = 2 * p.d_out + w * p.d_p;
    d_r_     = 2 * p.d_out + w * w * p.d_p;
  }
  if (!(payload_ > 0))
    throw InputError("haec/link/packet-size",
                     "packet of " + std::to_string(p.packet_size) + " B leaves no payload after its headers",
                     "use a packet larger than the window id and encoding vector");
}

double DorPncModel::serialisation(const Hop& hop) const
{
  // Physical: s_p bytes over b bytes/s. ByteSlip (as published): s_p bytes over b *bits*/s.
  return params_.units == Units::Physical ? params_.packet_size / hop.bandwidth
                                          : params_.packet_size / (8 * hop.bandwidth);
}

double DorPncModel::hop_delay(const Hop& hop) const
{
  return params_.d_out + serialisation(hop) + hop.latency + params_.d_in;
}

uint64_t DorPncModel::packets(uint64_t m) const
{
  const double n = std::ceil(static_cast<double>(m) / payload_);
  // A payload of a tiny fraction of a byte (or m near 2^64) gives more packets than uint64_t
  // holds: saturate instead of the undefined conversion (found by tests/fuzz/fuzz_link_model).
  if (!(n < 18446744073709551616.0))
    return UINT64_MAX;
  return std::max<uint64_t>(1, static_cast<uint64_t>(n));
}

double DorPncModel::transfer_time(uint64_t m, const Hop* hops, size_t h) const
{
  if (h == 0)
    return (d_s_ + d_r_) / 2;

  double sum_dh = 0, max_dh = 0;
  for (size_t i = 0; i < h; ++i) {
    double dh = hop_delay(hops[i]);
    sum_dh += dh;
    max_dh = std::max(max_dh, dh);
  }
  const double d_i = d_a_;
  const double fixed = d_s_ + sum_dh + static_cast<double>(h - 1) * d_i + d_r_; // tt(1)
  auto tt = [&](double x) { return fixed + (x - 1) * max_dh; };
  const double ack = sum_dh + static_cast<double>(h) * d_a_; // one acknowledgment over the route

  // Delays beyond the double range (a 1e308 s latency, d_out = 1e308) make the terms below
  // inf - inf or inf * 0, i.e. NaN: such a message takes forever (found by tests/fuzz/fuzz_link_model).
  if (!std::isfinite(fixed) || !std::isfinite(max_dh))
    return std::numeric_limits<double>::infinity();

  const uint64_t n_p = packets(m);
  const uint64_t s_w = static_cast<uint64_t>(params_.window);
  const uint64_t n_w = n_p / s_w;
  const uint64_t n_r = n_p - s_w * n_w;

  double total = n_w == 0 ? 0.0 : tt(static_cast<double>(s_w)) * static_cast<double>(n_w);
  if (n_r > 0 || params_.partial_window == PartialWindow::SeedLiteral)
    total += tt(static_cast<double>(n_r)) + static_cast<double>(n_w + 1) * ack;
  else
    total += static_cast<double>(n_w) * ack;
  return total;
}

double DorPncModel::bottleneck_serialisation(uint64_t m, const Hop* hops, size_t h) const
{
  double worst = 0;
  for (size_t i = 0; i < h; ++i)
    worst = std::max(worst, serialisation(hops[i]));
  return static_cast<double>(packets(m)) * worst;
}

Protocol parse_protocol(const std::string& name)
{
  if (name == "dor")
    return Protocol::DOR;
  if (name == "pnc")
    return Protocol::PNC;
  throw InputError("link model '" + name + "'", "unknown error-free protocol", "use dor or pnc");
}

std::string protocol_name(Protocol p)
{
  return p == Protocol::DOR ? "dor" : "pnc";
}

} // namespace haec::link
