#include "resilient_params.hpp"

#include "input_error.hpp"
#include "units.hpp"

#include <cmath>

namespace haec::link::resilient {

Protocol parse_protocol(const std::string& name)
{
  if (name == "dor_r")
    return Protocol::DOR_r;
  if (name == "pnc_r")
    return Protocol::PNC_r;
  if (name == "ncd_r")
    return Protocol::NCD_r;
  throw InputError("--link " + name, "unknown resilient link model", "use dor_r, pnc_r or ncd_r");
}

std::string protocol_name(Protocol p)
{
  switch (p) {
    case Protocol::DOR_r:
      return "dor_r";
    case Protocol::PNC_r:
      return "pnc_r";
    default:
      return "ncd_r";
  }
}

Params preset(const std::string& name)
{
  Params p; // the defaults are seed 001 Table 2
  if (name == "paper") {
    p.units = Units::ByteSlip;
    return p;
  }
  if (name == "physical")
    return p;
  throw InputError("haec/link/preset " + name, "unknown preset", "use paper or physical");
}

void validate(const Params& p, Protocol protocol)
{
  if (p.window < 1)
    throw InputError("haec/link/window " + std::to_string(p.window), "window size must be at least 1 packet",
                     "use e.g. haec/link/window:5");
  if (is_coded(protocol) && p.window > 32) // the rank chain costs O(s_w^4) per route class
    throw InputError("haec/link/window " + std::to_string(p.window),
                     "PNC_r and NCD_r solve a generation's rank chain exactly and allow at most 32 packets",
                     "use a window of 1..32 packets (DOR_r allows up to 255)");
  struct Named {
    const char* flag;
    double value;
  };
  for (const Named& n : {Named{"haec/link/d-out", p.d_out}, Named{"haec/link/d-in", p.d_in},
                         Named{"haec/link/d-p", p.d_p}, Named{"haec/link/d-sign", p.d_sign},
                         Named{"haec/link/d-verify", p.d_verify}, Named{"haec/link/d-mpi", p.d_mpi},
                         Named{"haec/link/rto-margin", p.rto_margin}, Named{"haec/link/window-id", p.window_id},
                         Named{"haec/link/ff-symbol", p.ff_symbol}})
    if (!(n.value >= 0 && std::isfinite(n.value)))
      throw InputError(std::string(n.flag) + " " + units::exact(n.value), "must be a finite value >= 0",
                       "give a non-negative number");
  if (!(p.ncd_target > 0 && p.ncd_target < 1))
    throw InputError("haec/link/ncd-target " + units::exact(p.ncd_target), "must be a probability in (0,1)",
                     "use e.g. 0.99");
  if (!(layout(protocol, p).payload > 0))
    throw InputError("haec/link/packet-size " + units::exact(p.packet_size),
                     "leaves no payload after the headers (ids, encoding vector, 32 B signature)",
                     "use a larger packet, e.g. 1500 B");
}

double loss_from_ber(double ber, double bytes)
{
  if (!(ber >= 0 && ber < 1))
    throw InputError("bit error rate " + units::exact(ber), "outside [0,1)", "give a BER such as 1e-9");
  // 1 - (1 - ber)^(8 bytes), accurate for tiny BERs too.
  return -std::expm1(8 * bytes * std::log1p(-ber));
}

Layout layout(Protocol protocol, const Params& p)
{
  Layout l{};
  const double w = p.window;
  l.d_a          = p.d_out / 2 + p.d_verify;
  if (protocol == Protocol::DOR_r) {
    l.payload  = p.packet_size - p.window_id - p.packet_id - p.signature;
    l.ack_size = p.window_id + p.packet_id + p.timestamp + p.signature;
    l.d_s      = 2 * p.d_out + p.d_sign;
    l.d_r      = 2 * p.d_out + p.d_verify + p.d_sign;
  } else {
    l.payload  = p.packet_size - p.window_id - w * p.ff_symbol - p.signature;
    l.ack_size = p.window_id + 1 + p.timestamp + p.signature;
    l.d_s      = 2 * p.d_out + w * p.d_p + p.d_sign;
    l.d_r      = 2 * p.d_out + w * w * p.d_p + p.d_verify + p.d_sign;
  }
  return l;
}

} // namespace haec::link::resilient
