// From raw calibration-net samples to the SMPI 3.32 settings that reproduce them: the inverse of
// smpi_costs.hpp. Per size the medians of the five operations are linear in the unknowns
//   os(p), ois(p), or(p) (startup + per_byte * p) and transfer(p) (c0 + c1 * p),
// with the equations chosen by the protocol thresholds A and D:
//   MPI_Isend = ois;  MPI_Ssend = os + transfer
//   MPI_Send  = os if p < D, else transfer
//   MPI_Recv  = or if p < A, transfer + or if A <= p < D, else transfer
//   PingPong/2 = os + transfer + or if p < D, else transfer
// (or is unobservable, and unused by SMPI, above D; MPI_Ssend is what separates the transfer from
// or between A and D). One segmentation serves every quantity: each segment is one weighted least
// squares over all operations (relative residuals), the segments come from dynamic programming
// with BIC, and A and D are searched jointly with it (the split of all ops that fits best).
// Breakpoints fall between two measured sizes; every setting that changes there is placed at the
// same size (their geometric mean), so all of SMPI switches at once, as the data does.
// The factors follow from transfer = L * lat_factor + S * (1 + share) / (B * bw_factor), S = p + 16.
#pragma once
#include "samples.hpp"
#include "segmented.hpp"
#include "smpi_costs.hpp"

#include <string>
#include <utility>
#include <vector>

namespace haec::calibration {

struct NetOptions {
  double bandwidth = 0; // nominal route bandwidth (B/s); 0: the best measured one (bw-factor <= 1)
  double latency   = 0; // nominal route latency (s); 0: the smallest measured one (lat-factor >= 1)
  // SimGrid's defaults (SHARED links, network/crosstraffic on) load a route's links with 5 % of
  // each flow in the reverse direction: one flow then gets bandwidth / 1.05. 0 for SPLITDUPLEX
  // links or network/crosstraffic:0.
  double reverse_share = 0.05;
  int protocol_window  = 3; // A and D are searched this many sizes around the first guess
  // At least 3 sizes per segment: each quantity then has more points than coefficients, so a
  // breakpoint hidden inside a segment shows as misfit instead of being fitted exactly.
  SegmentOptions segments = {3, 8, 0.01};
};

// The medians the fit works on: every size at which all five operations were measured.
struct MedianTable {
  std::vector<double> sizes;
  std::vector<std::array<double, 5>> median;     // [size][Op], PingPong halved
  std::vector<std::array<double, 5>> rel_stderr; // relative standard error of each median
  std::vector<std::array<int, 5>> count;
  double noise = 0; // typical relative error of a median
};
MedianTable median_table(const std::vector<Sample>& samples, const std::string& file);

// One fitted segment: measured sizes [first, last] and the coefficients of every quantity.
struct JointSegment {
  size_t first = 0, last = 0;
  double os[2] = {0, 0}, ois[2] = {0, 0}, orecv[2] = {0, 0}, transfer[2] = {0, 0}; // startup, per byte
  // Their standard errors (from the residuals of the segment's least squares; 0 for exact data).
  double os_se[2] = {0, 0}, ois_se[2] = {0, 0}, orecv_se[2] = {0, 0}, transfer_se[2] = {0, 0};
  bool or_observed = true; // false above D: SMPI never charges or there
};

// A reason not to trust the settings, and what to do about it.
struct FitProblem {
  std::string what, fix;
};

struct NetCalibration {
  SmpiNet settings;                  // what is printed, with the route it refers to
  MedianTable table;                 // the data
  std::vector<JointSegment> segments;
  size_t eager_gap = 0, detached_gap = 0; // A and D between sizes [gap-1] and [gap]
  std::vector<std::string> notes;    // clamps and fallbacks, one line each
  std::vector<FitProblem> problems;  // the caller refuses the fit or flags them
};

// `file` names the samples in errors (haec::InputError for unusable data).
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

// Every smpi/ setting in order: (key, value).
std::vector<std::pair<std::string, std::string>> smpi_settings(const SmpiNet& s);

} // namespace haec::calibration
