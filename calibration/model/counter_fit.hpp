// Fitting the counter-based power model (docs/MODELS.md §9, plugins/power/model/counter_model.hpp)
// per pstate, P = P_static + sum_k c_k * rate_k, from two logs on one clock:
//   - a power log `time,watts` (wattmeter or RAPL, as `haec calibrate power` reads it: each sample
//     holds until the next one);
//   - counter samples `start_s,end_s,pstate,EVENT1,EVENT2,...`: the node's counts of each event
//     over [start_s, end_s), summed over its cores (PAPI read at the end of each interval).
// Each counter interval becomes one equation: its mean power (the log integrated over it) against
// its rates (count / length). Non-negative least squares (Lawson-Hanson, nnls.hpp), every 5th
// interval of each pstate held out to measure the error on samples the fit did not see.
// Pure C++.
#pragma once
#include "power_fit.hpp"

#include <string>
#include <vector>

namespace haec::calibration {

struct CounterInterval {
  double start = 0, end = 0;
  int pstate = 0;
  std::vector<double> counts; // in the order of CounterSamples::events
  int line = 0;
};

struct CounterSamples {
  std::vector<std::string> events;
  std::vector<CounterInterval> intervals;
};

// Throws haec::InputError naming file:line: another header, a row of the wrong width, end <= start,
// a negative or non-numeric count, a pstate that is not a small non-negative integer.
CounterSamples parse_counter_samples(const std::string& text, const std::string& file);

constexpr int kHoldOutEvery = 5; // the 5th, 10th, ... interval of each pstate is held out

struct PstateFit {
  double p_static = 0;
  std::vector<double> coefficients; // W per (event/s), in the order of the events
  size_t fitted = 0, held_out = 0;  // intervals
  double r2 = 0;                    // on the fitted intervals
  double held_out_rms_w = 0, held_out_max_rel = 0; // error of the fit on the held-out intervals
};

struct CounterFit {
  std::vector<std::string> events;
  std::vector<PstateFit> pstates; // 0 .. max pstate
  size_t skipped = 0;             // intervals the power log does not cover
};

// Throws haec::InputError (naming `what`, e.g. the two files) for: a log that covers no interval,
// pstates with gaps, fewer fitted intervals than unknowns, an event never counted in a pstate, a
// rank-deficient design (events the samples cannot tell apart), a pstate without held-out sample.
CounterFit fit_counter_model(const PowerLog& power, const CounterSamples& samples, const std::string& what);

// The mean power of the log over [start, end); needs the log to cover it (start >= first time,
// end <= last time).
double mean_power(const PowerLog& log, double start, double end);

} // namespace haec::calibration
