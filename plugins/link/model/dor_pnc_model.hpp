// Error-free DOR and PNC transfer times, Eq. (1)-(2) of seed 004 (MODELS.md §3.1), generalised
// to routes whose links differ (optical and wireless hops). Pure C++: no SimGrid include.
//
//   tt(x) = d_s + sum_i d_h,i + (x - 1) * max_i d_h,i + (h - 1) * d_i + d_r
//   T     = tt(s_w) * n_w + tt(n_r) + (n_w + 1) * sum_i (d_h,i + d_a)
// with d_h,i = d_out + s_p/b_i + l_i + d_in. With equal links this is exactly Eq. (1)-(2).
// Decisions on the open points of docs/MODELS.md §3.1 (each pinned by a unit test):
//   - n_r = 0 means "no partial window": no tt(n_r) term and n_w acknowledgments, not n_w + 1
//     (PartialWindow::SeedLiteral charges tt(0) and n_w + 1 acknowledgments as printed).
//   - a zero-byte message still sends one packet: n_p = max(1, ceil(m / L_p)).
//   - same node (h = 0): T = (d_s + d_r) / 2 for the whole message.
//   - serialisation s_p/b uses bits (8 * s_p / b, b in bytes/s here: s_p / b) by default;
//     Units::ByteSlip reproduces the published numbers (s_p bytes over b bits/s).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace haec::link {

enum class Protocol { DOR, PNC };
enum class Units { Physical, ByteSlip };
enum class PartialWindow { NoPartial, SeedLiteral };

struct NodeParams {
  double packet_size   = 288;       // s_p, bytes
  double d_out         = 100e-9;    // s
  double d_in          = 100e-9;    // s
  double d_p           = 0.625e-9;  // s, PNC per-symbol packet processing
  int window           = 5;         // s_w, packets per window / generation
  double window_id     = 4;         // s_wid, bytes
  double ff_symbol     = 1;         // s_ff, bytes (8 bit)
  Units units                 = Units::Physical;
  PartialWindow partial_window = PartialWindow::NoPartial;
};

// One hop of a route, as SimGrid's link describes it.
struct Hop {
  double latency   = 0; // l_i, seconds
  double bandwidth = 0; // bytes per second
};

class DorPncModel {
public:
  DorPncModel(Protocol protocol, NodeParams params); // throws haec::InputError on bad params

  Protocol protocol() const { return protocol_; }
  const NodeParams& params() const { return params_; }

  double payload() const { return payload_; }       // L_p, bytes
  double sender_delay() const { return d_s_; }      // d_s
  double receiver_delay() const { return d_r_; }    // d_r
  double ack_delay() const { return d_a_; }         // d_a (= d_i)
  double hop_delay(const Hop& hop) const;           // d_h,i
  double serialisation(const Hop& hop) const;       // s_p / b_i in the chosen units
  uint64_t packets(uint64_t message_bytes) const;   // n_p

  // T(m, route) in seconds.
  double transfer_time(uint64_t message_bytes, const Hop* hops, size_t num_hops) const;
  // The part of transfer_time spent serialising every packet on the slowest hop:
  // n_p * max_i serialisation(hop_i) (0 when num_hops == 0). Never exceeds transfer_time.
  double bottleneck_serialisation(uint64_t message_bytes, const Hop* hops, size_t num_hops) const;

private:
  Protocol protocol_;
  NodeParams params_;
  double payload_ = 0, d_s_ = 0, d_r_ = 0, d_a_ = 0;
};

Protocol parse_protocol(const std::string& name); // "dor" | "pnc"; throws haec::InputError
std::string protocol_name(Protocol p);

} // namespace haec::link
