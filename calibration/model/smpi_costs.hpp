// What SimGrid 3.32 charges for each operation calibration-net measures: the forward model that
// `haec calibrate net` inverts and validates its settings against. Read from the v3.32 sources:
//   smpi_host.cpp      smpi/os, ois, or: `T:startup:per_byte;...`, segment k applies to payloads
//                      p > T_k (the first segment also to smaller ones); SMPI sleeps only if > 0.
//   network_smpi.cpp   smpi/bw-factor, lat-factor: `T:factor;...`, factor k applies to network
//                      sizes S > T_k, sizes up to the first threshold get 1; S = p + 16 (the
//                      envelope smpi_request.cpp adds to every message).
//   network_cm02.cpp   transfer(S) = L * lat_factor(S) + S / (B * bw_factor(S) / (1 + share)):
//                      with network/crosstraffic (default) a SHARED route also carries 5 % of
//                      each flow backwards (share 0.05); SPLITDUPLEX links or crosstraffic off: 0.
//   smpi_request.cpp   p < D (send-is-detached-thresh): the send is detached: the sender sleeps
//                      os(p) and returns, the receiver sleeps or(p) after the transfer.
//                      p < A (async-small-thresh): the transfer starts at the send (the small
//                      mailbox has a permanent receiver), else when the receive is posted.
//                      MPI_Isend sleeps ois(p) at every size; MPI_Ssend is never detached, sleeps
//                      os(p) and waits for the transfer; its receiver sleeps no or.
// Hence, with the receive posted first (MPI_Recv: posted after the message had time to arrive):
//   MPI_Isend  ois(p)
//   MPI_Send   os(p) if p < D, else transfer(p)
//   MPI_Ssend  os(p) + transfer(p)
//   MPI_Recv   or(p) if p < A, transfer(p) + or(p) if A <= p < D, else transfer(p)
//   PingPong   2 (os(p) + transfer(p) + or(p)) if p < D, else 2 transfer(p)
#pragma once
#include <array>
#include <string>
#include <vector>

namespace haec::calibration {

enum class Op { Send, Isend, Recv, PingPong, Ssend };
constexpr std::array<Op, 5> kAllOps = {Op::Send, Op::Isend, Op::Recv, Op::PingPong, Op::Ssend};
const char* op_name(Op op);

// smpi/os, ois, or: startup + per_byte * p of the last segment whose threshold is below p.
struct Piecewise {
  std::vector<long long> thresholds; // increasing, the first is 0
  std::vector<double> startup, per_byte;
  double at(double payload) const;
  std::string text() const; // `T:startup:per_byte;...`
};

// smpi/bw-factor, lat-factor.
struct Factors {
  std::vector<long long> thresholds;
  std::vector<double> values;
  double at(double network_size) const;
  std::string text() const; // `T:factor;...`
};

struct SmpiNet {
  Piecewise os, ois, orecv;
  Factors bw, lat;
  long long async_small = 0, detached = 65536; // A and D (SimGrid's defaults)
  double bandwidth = 0, latency = 0;        // the route the factors refer to
  double reverse_share = 0.05;
  double transfer(double payload) const;
  double op_time(Op op, double payload) const; // what calibration-net reports (PingPong: round trip)
};

// Parses `--cfg=smpi/KEY:VALUE` lines (other lines ignored) into settings for a route of
// bandwidth B, latency L and crosstraffic share; throws std::invalid_argument on a bad value or
// when a factor table is missing (SimGrid's default tables are not modelled).
SmpiNet parse_smpi_cfg(const std::string& text, double bandwidth, double latency, double reverse_share);

std::string number_text(double v); // %.10g: what SimGrid reads back

} // namespace haec::calibration
