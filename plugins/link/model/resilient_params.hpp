// Parameters, packet layout and per-hop delays of the resilient link models DOR_r, PNC_r and
// NCD_r (seed 001 §4, docs/MODELS.md §3.2). Pure C++: no SimGrid include.
//
//   DOR_r   L_p = s_p - s_wid - s_pid - s_sig          ack s_a = s_wid + s_pid + s_tst + s_sig
//   PNC_r   L_p = s_p - s_gid - s_w*s_ff - s_sig       ack s_a = s_gid + 1 (rank) + s_tst + s_sig
//   d_s = 2 d_out + d_sign (+ s_w d_p when coding)     d_r = 2 d_out + d_verify + d_sign (+ s_w^2 d_p)
//   d_a = d_i = d_out/2 + d_verify                     d_h,i(x) = d_out + l_i + ser(x, b_i) + d_in
// with ser(x, b) = x/b for b in bytes/s (Physical) or x/(8 b) (ByteSlip: bytes over bits/s, the
// slip that makes the published d_h,p = 1.544 us on 9.375 GB/s, 1.27 us links).
#pragma once
#include "dor_pnc_model.hpp" // Units

#include <string>

namespace haec::link::resilient {

enum class Protocol { DOR_r, PNC_r, NCD_r };

Protocol parse_protocol(const std::string& name); // dor_r | pnc_r | ncd_r; haec::InputError otherwise
std::string protocol_name(Protocol p);
inline bool is_coded(Protocol p) { return p != Protocol::DOR_r; }

struct Params {
  int window        = 5;      // s_w, packets per window / generation
  double packet_size = 1500;  // s_p, bytes
  double window_id  = 4;      // s_wid (DOR_r) or s_gid (PNC_r, NCD_r), bytes
  double packet_id  = 1;      // s_pid, bytes (DOR_r)
  double timestamp  = 4;      // s_tst, bytes (acks)
  double signature  = 32;     // s_sig, bytes (ECDSA)
  double ff_symbol  = 1;      // s_ff, bytes (GF(2^8))
  double d_out      = 127e-9; // s
  double d_in       = 127e-9; // s
  double d_p        = 0.1e-9; // s, per-symbol coding work
  double d_sign     = 40e-9;  // s
  double d_verify   = 100e-9; // s
  double d_mpi      = 500e-9; // s, injection latency per message
  Units units       = Units::Physical;
  double rto_margin = 0;      // s the retransmission timer adds to the loss-free round time
  double ncd_target = 0.99;   // NCD_r: wanted probability that one round completes the generation
};

// "paper": docs/MODELS.md §3.2 Table 2 with the published byte/bit slip; "physical": the same node
// parameters with 8 bits per byte. haec::InputError for other names.
Params preset(const std::string& name);

// Throws haec::InputError naming the haec/link flag for any value the models cannot use.
void validate(const Params& p, Protocol protocol);

// Loss probability of a packet of `bytes` bytes on a link with bit error rate `ber` in [0,1).
double loss_from_ber(double ber, double bytes);

// Derived values of a protocol's packet layout.
struct Layout {
  double payload;  // L_p, bytes
  double ack_size; // s_a, bytes
  double d_s, d_r, d_a;
};
Layout layout(Protocol protocol, const Params& p);

// Serialisation time of `bytes` on a link of `bandwidth` bytes/s in the chosen units.
inline double serialisation(double bytes, double bandwidth, Units units)
{
  return units == Units::Physical ? bytes / bandwidth : bytes / (8 * bandwidth);
}

} // namespace haec::link::resilient
