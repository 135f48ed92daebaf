#include "net_checks.hpp"

#include "input_error.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace haec::calibration {

namespace {

const char* const kMoreData = "measure more sizes (calibration-net --count 80) or more repetitions (--reps 20)";

struct Overhead {
  const char* key;
  double (JointSegment::*coef)[2];
};
constexpr Overhead kOverheads[] = {
    {"smpi/os", &JointSegment::os}, {"smpi/ois", &JointSegment::ois}, {"smpi/or", &JointSegment::orecv}};

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
      if (a < 0)
        c.problems.push_back({std::string(o.key) + " has a negative startup " + number_text(a) + " s (" +
                                  sizes_text(c, s) + ")", kMoreData});
      if (b < 0)
        c.problems.push_back({std::string(o.key) + " decreases with the size (" + number_text(b) + " s/B, " +
                                  sizes_text(c, s) + ")", kMoreData});
    }
    const double c0 = s.transfer[0], c1 = s.transfer[1];
    const double scale = line_scale(c0, c1, x0, x1);
    if (c1 * (x1 + 16) < -0.01 * scale)
      c.problems.push_back({"the transfer time decreases with the size (" + sizes_text(c, s) + ")", kMoreData});
    if (c0 - 16 * c1 < -0.01 * scale)
      c.problems.push_back({"the transfer has a negative latency " + number_text(c0 - 16 * c1) + " s (" +
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
          {"bw-factor " + number_text(bw[k]) + seg + " > 1: the measured bandwidth exceeds the route's " +
               number_text(c.settings.bandwidth) + " B/s",
           opt.bandwidth > 0 ? "give the route's bandwidth (--bandwidth), and --no-crosstraffic if its links are "
                               "SPLITDUPLEX or crosstraffic is off"
                             : kMoreData});
    } else if (bw[k] < 1e-3) {
      c.problems.push_back({"bw-factor " + number_text(bw[k]) + seg + " is implausible (an effective bandwidth of " +
                                number_text(bw[k] * c.settings.bandwidth) + " B/s)", kMoreData});
    }
  }
  auto& lat = c.settings.lat.values;
  for (size_t k = 0; k < lat.size(); ++k) {
    const std::string seg = " (segment " + std::to_string(k + 1) + ")";
    if (lat[k] < 1 && lat[k] >= 0.99) {
      c.notes.push_back("lat-factor " + number_text(lat[k]) + seg + " clamped to 1");
      lat[k] = 1;
    } else if (lat[k] < 0.99 && opt.latency > 0) {
      c.problems.push_back({"lat-factor " + number_text(lat[k]) + seg + " < 1: the measured latency is below the "
                                "route's " + number_text(c.settings.latency) + " s",
                            "give the route's latency (--latency)"});
    } else if (lat[k] > 1e3) {
      c.problems.push_back({"lat-factor " + number_text(lat[k]) + seg + " is implausible", kMoreData});
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
      const double scale = line_scale(v[0], v[1], x0, x1);
      // Below a femtosecond a coefficient is rounding noise, whatever its sign.
      if ((v[0] < 0 && -v[0] <= 0.01 * scale) || std::fabs(v[0]) < 1e-15)
        v[0] = 0;
      if ((v[1] < 0 && -v[1] * x1 <= 0.01 * scale) || std::fabs(v[1] * x1) < 1e-15)
        v[1] = 0;
    }
  }
}

size_t PredictionError::over_limit(double limit) const
{
  return static_cast<size_t>(std::count_if(errors.begin(), errors.end(), [&](double e) { return std::fabs(e) > limit; }));
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
                              std::to_string(e.points) + " medians by more than 5 % (worst: " + op_name(e.worst_op) +
                              " at " + number_text(e.worst_size) + " B, " + number_text(100 * e.worst) + " %)",
                          "too few sizes in some protocol or segment, or too much noise: " + std::string(kMoreData)});
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
