// From raw ping / ping-pong samples to the SMPI 3.32 settings that reproduce them, inverting how
// SMPI charges each operation (src/smpi/mpi/smpi_request.cpp, src/surf/network_smpi.cpp):
//   MPI_Isend            ois(p)                         every size
//   MPI_Send             os(p)   if p < send-is-detached-thresh (D), else the transfer time
//   MPI_Recv (arrived)   or(p)   if p < min(D, async-small-thresh A), else transfer (+ or if p < D)
//   PingPong / 2         os(p) + comm(p) + or(p)  if p < D, else comm(p)
//   comm(p)              L * lat_factor(p+16) + (p+16) / (B * bw_factor(p+16))
// (SMPI adds a 16-byte envelope to the network size; factor thresholds compare against it,
// os/or/ois thresholds against the payload; a segment `T:...` applies to sizes > T).
// or is only observable below min(A, D); its last segment is extrapolated above.
#pragma once
#include "samples.hpp"
#include "segmented.hpp"

#include <string>
#include <utility>
#include <vector>

namespace haec::calibration {

struct NetOptions {
  double bandwidth = 0; // nominal link bandwidth (B/s) of the platform; 0: the best measured one
  double latency   = 0; // nominal route latency (s); 0: the smallest measured one
  double send_sync_ratio = 0.5;  // MPI_Send >= this * PingPong/2: the send waited for the transfer
  double recv_sync_ratio = 0.5;  // MPI_Recv >= this * PingPong/2: the receive did the transfer
  // SimGrid's defaults (SHARED links, network/crosstraffic on) load a route's links with 5 % of
  // each flow in the reverse direction: one flow then gets bandwidth / 1.05. 0 for SPLITDUPLEX
  // links or network/crosstraffic:0.
  double reverse_share = 0.05;
  SegmentOptions segments;
};

// One fitted quantity over payload sizes.
struct OpFit {
  std::vector<double> sizes, values; // the points fitted (medians, seconds)
  std::vector<Segment> segments;
  std::vector<long long> thresholds; // SMPI thresholds of the segments (first is 0)
  double at(double size) const;
};

struct NetCalibration {
  OpFit os, ois, orecv, comm;
  long long async_small_thresh = 0, send_is_detached_thresh = 0;
  double bandwidth = 0, latency = 0;       // nominal values the factors refer to
  std::vector<long long> factor_thresholds; // network sizes (payload + 16)
  std::vector<double> bw_factors, lat_factors;
  std::vector<std::string> notes;           // clamps and fallbacks, one line each
  double bw_factor(double network_size) const;
  double lat_factor(double network_size) const;
};

// `file` names the samples in errors.
NetCalibration calibrate_network(const std::vector<Sample>& samples, const std::string& file,
                                 const NetOptions& opt = {});

// The loopback (intra-node) path: SimGrid 3.32 applies the global bw/lat factors and each host's
// os/or/ois to it too, so only the loopback link's bandwidth and latency can differ: chosen so
// the largest messages get the measured bandwidth and the smallest the measured latency.
struct LoopbackCalibration {
  NetCalibration path; // the intra-node samples fitted on their own (informative)
  double bandwidth = 0, latency = 0;
  std::vector<std::string> notes;
};
LoopbackCalibration calibrate_loopback(const std::vector<Sample>& samples, const std::string& file,
                                       const NetCalibration& inter, const NetOptions& opt = {});

// `threshold:startup:per_byte;...` and `threshold:factor;...`, numbers SimGrid 3.32 reads back
// (thresholds plain integers: it parses them with stoi).
std::string piecewise_text(const OpFit& fit);
std::string factor_text(const std::vector<long long>& thresholds, const std::vector<double>& factors);
// Every smpi/ setting in order: (key, value).
std::vector<std::pair<std::string, std::string>> smpi_settings(const NetCalibration& c);
std::string number_text(double v);

} // namespace haec::calibration
