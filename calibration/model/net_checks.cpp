#include "net_checks.hpp"

#include "input_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace haec::calibration {

namespace {

const char* const kMoreData = "measure more sizes (calibration-net --count 120) or repetitions (--reps 20)";

// Three significant digits: enough for an error message.
std::string short_number(double v)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

struct Overhead {
  const char* key;
  double (JointSegment::*coef)[2];
  double (JointSegment::*se)[2];
};
constexpr Overhead kOverheads[] = {{"smpi/os", &JointSegment::os, &JointSegment::os_se},
                                   {"smpi/ois", &JointSegment::ois, &JointSegment::ois_se},
                                   {"smpi/or", &JointSegment::orecv, &JointSegment::orecv_se}};

// A negative coefficient within three standard errors of 0, or whose effect is at most 1 % of
// the values it belongs to, or below a femtosecond, is noise or rounding.
bool negligible(double v, double se, double effect, double scale)
{
  return v >= 0 || v >= -3 * se || std::fabs(effect) <= 0.01 * scale || std::fabs(effect) < 1e-15;
}

std::string sizes_text(const NetCalibration& c, const JointSegment& s)
{
  return "sizes " + number_text(c.table.sizes[s.first]) + ".." + number_text(c.table.sizes[s.last]);
}

// Largest magnitude of a line over a segment's sizes (the scale its coefficients are judged by).
double line_scale(double a, double b, double x0, double x1)
{
  return std::max({std::fabs(a + b * x0), std::fabs(a + b * x1), 1e-12});
}

void check_overheads(NetCalibration& c)
{
  for (size_t k = 0; k < c.segments.size(); ++k) {
    const JointSegment& s = c.segments[k];
    const double x0 = c.table.sizes[s.first], x1 = c.table.sizes[s.last];
    for (const auto& o : kOverheads) {
      const double a = (s.*o.coef)[0], b = (s.*o.coef)[1];
      if (a < 0) // what clamp_negligible_negatives left
        c.problems.push_back({std::string(o.key) + " has a negative startup " + short_number(a) + " s (" +
                                  sizes_text(c, s) + ")", kMoreData});
      if (b < 0)
        c.problems.push_back({std::string(o.key) + " decreases with the size (" + short_number(b) + " s/B, " +
                                  sizes_text(c, s) + ")", kMoreData});
    }
    const double c0 = s.transfer[0], c1 = s.transfer[1];
    const double scale = line_scale(c0, c1, x0, x1);
    if (!negligible(c1, s.transfer_se[1], c1 * (x1 + 16), scale))
      c.problems.push_back({"the transfer time decreases with the size (" + sizes_text(c, s) + ")", kMoreData});
    if (!negligible(c0 - 16 * c1, s.transfer_se[0], c0 - 16 * c1, scale))
      c.problems.push_back({"the transfer has a negative latency " + short_number(c0 - 16 * c1) + " s (" +
                                sizes_text(c, s) + ")", kMoreData});
  }
}

void check_factors(NetCalibration& c, const NetOptions& opt)
{
  auto& bw = c.settings.bw.values;
  for (size_t k = 0; k < bw.size(); ++k) {
    const std::string seg = " (segment " + std::to_string(k + 1) + ")";
    if (bw[k] > 1 && bw[k] <= 1.01) {
      c.notes.push_back("bw-factor " + number_text(bw[k]) + seg + " clamped to 1");
      bw[k] = 1;
    } else if (bw[k] > 1.01) {
      c.problems.push_back(
          {"bw-factor " + short_number(bw[k]) + seg + " > 1: the measured bandwidth exceeds the route's " +
               short_number(c.settings.bandwidth) + " B/s",
           opt.bandwidth > 0 ? "give the route's bandwidth (--bandwidth), and --no-crosstraffic if its links are "
                               "SPLITDUPLEX or crosstraffic is off"
                             : kMoreData});
    } else if (bw[k] < 1e-3) {
      c.problems.push_back({"bw-factor " + short_number(bw[k]) + seg + " is implausible (an effective bandwidth of " +
                                short_number(bw[k] * c.settings.bandwidth) + " B/s)", kMoreData});
    }
  }
  auto& lat = c.settings.lat.values;
  for (size_t k = 0; k < lat.size(); ++k) {
    const std::string seg = " (segment " + std::to_string(k + 1) + ")";
    if (lat[k] < 1 && lat[k] >= 0.99) {
      c.notes.push_back("lat-factor " + number_text(lat[k]) + seg + " clamped to 1");
      lat[k] = 1;
    } else if (lat[k] < 0.99 && opt.latency > 0) {
      c.problems.push_back({"lat-factor " + short_number(lat[k]) + seg + " < 1: the measured latency is below the "
                                "route's " + short_number(c.settings.latency) + " s",
                            "give the route's latency (--latency)"});
    } else if (lat[k] > 1e3) {
      c.problems.push_back({"lat-factor " + short_number(lat[k]) + seg + " is implausible", kMoreData});
    }
  }
}

double tolerance(const MedianTable& t, size_t k, size_t o) { return std::max(0.05, 4 * t.rel_stderr[k][o]); }

} // namespace

void clamp_negligible_negatives(NetCalibration& c)
{
  for (auto& s : c.segments) {
    const double x0 = c.table.sizes[s.first], x1 = c.table.sizes[s.last];
    for (const auto& o : kOverheads) {
      double* v = s.*o.coef;
      const double* se = s.*o.se;
      const double scale = line_scale(v[0], v[1], x0, x1);
      if ((v[0] < 0 && negligible(v[0], se[0], v[0], scale)) || std::fabs(v[0]) < 1e-15)
        v[0] = 0;
      if ((v[1] < 0 && negligible(v[1], se[1], v[1] * x1, scale)) || std::fabs(v[1] * x1) < 1e-15)
        v[1] = 0;
    }
  }
}

size_t PredictionError::over_limit(double limit) const
{
  return static_cast<size_t>(
      std::count_if(errors.begin(), errors.end(), [&](double e) { return std::fabs(e) > limit; }));
}

PredictionError prediction_error(const SmpiNet& s, const MedianTable& t)
{
  PredictionError e;
  std::vector<double> magnitudes;
  for (size_t k = 0; k < t.sizes.size(); ++k)
    for (Op op : kAllOps) {
      const size_t o        = static_cast<size_t>(op);
      const double measured = t.median[k][o] * (op == Op::PingPong ? 2 : 1);
      // Relative to the measurement; below a nanosecond differences do not matter.
      const double err = (s.op_time(op, t.sizes[k]) - measured) / std::max(std::fabs(measured), 1e-9);
      e.errors.push_back(err);
      magnitudes.push_back(std::fabs(err));
      e.beyond_tolerance += std::fabs(err) > tolerance(t, k, o);
      if (std::fabs(err) > std::fabs(e.worst) || e.points == 0) {
        e.worst      = err;
        e.worst_op   = op;
        e.worst_size = t.sizes[k];
      }
      ++e.points;
    }
  e.median = magnitudes.empty() ? 0.0 : median(magnitudes);
  return e;
}

void check_plausibility(NetCalibration& c, const NetOptions& opt)
{
  check_overheads(c);
  check_factors(c, opt);
  const PredictionError e = prediction_error(c.settings, c.table);
  if (e.beyond_tolerance > 0)
    c.problems.push_back({"the settings miss " + std::to_string(e.beyond_tolerance) + " of " +
                              std::to_string(e.points) + " medians by > 5 % (worst: " + op_name(e.worst_op) + " at " +
                              number_text(e.worst_size) + " B, " + short_number(100 * e.worst) + " %)",
                          c.table.noise > 0.05 ? "the medians carry " + short_number(100 * c.table.noise) +
                                                     " % noise: measure on a quiet machine, or with --reps 40"
                                               : kMoreData});
}

HeldOut held_out_validation(const std::vector<Sample>& samples, const std::string& file, const NetOptions& opt)
{
  HeldOut h;
  std::map<std::pair<std::string, long long>, int> seen;
  std::vector<Sample> fit_half, test_half;
  for (const auto& s : samples)
    (seen[{s.op, s.size}]++ % 2 == 0 ? fit_half : test_half).push_back(s);
  if (std::any_of(seen.begin(), seen.end(), [](const auto& kv) { return kv.second < 2; })) {
    h.reason = "some (operation, size) has a single sample; measure with --reps 2 or more";
    return h;
  }
  try {
    const NetCalibration half = calibrate_network(fit_half, file + " (first half)", opt);
    h.error    = prediction_error(half.settings, median_table(test_half, file + " (second half)"));
    h.computed = true;
  } catch (const InputError& e) {
    h.reason = std::string("the first half cannot be fitted: ") + e.what();
  }
  return h;
}

} // namespace haec::calibration
