// Whether fitted network settings can be trusted: plausible coefficients, the medians they
// reproduce (in-sample) and the medians of samples they were not fitted on (held-out).
#pragma once
#include "net_fit.hpp"

#include <string>
#include <vector>

namespace haec::calibration {

// Negative overheads within three standard errors of 0 or whose effect is at most 1 % of the
// segment's values, and coefficients below a femtosecond, are noise or rounding: 0.
void clamp_negligible_negatives(NetCalibration& c);

// Appends to c.problems: overheads or transfer times that decrease significantly, negative
// startups or latencies, implausible factors (bw-factor < 1e-3 or > 1.01, lat-factor > 1e3, or
// < 0.99 when the route's latency was given) and medians the settings miss by more than
// max(5 %, 4 standard errors of the median). Factors within 1 % of the bound are clamped.
void check_plausibility(NetCalibration& c, const NetOptions& opt);

// Relative error of the settings' prediction for every (operation, size) median of a table.
struct PredictionError {
  size_t points = 0, beyond_tolerance = 0; // tolerance max(5 %, 4 standard errors)
  double median = 0, worst = 0;            // |error| median; the signed error of largest magnitude
  Op worst_op = Op::Send;
  double worst_size = 0;
  std::vector<double> errors; // per point, signed
  size_t over_limit(double limit) const; // points with |error| > limit
};
PredictionError prediction_error(const SmpiNet& s, const MedianTable& t);

// Fit on one half of the samples of every (operation, size) (alternate samples in file order),
// the error on the other half's medians.
struct HeldOut {
  bool computed = false;
  std::string reason; // why not, when not computed
  PredictionError error;
};
HeldOut held_out_validation(const std::vector<Sample>& samples, const std::string& file, const NetOptions& opt);

} // namespace haec::calibration
