#include "segmented.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace haec::calibration {

namespace {

struct LineFit {
  double intercept, slope, rss;
};

// Weighted least squares on points [i, j] (centred, two passes: sums of squares of 4e6-byte
// sizes times 1e12 weights would cancel catastrophically).
LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& w, size_t i,
                 size_t j)
{
  double sw = 0, sx = 0, sy = 0;
  for (size_t k = i; k <= j; ++k) {
    sw += w[k];
    sx += w[k] * x[k];
    sy += w[k] * y[k];
  }
  const double mx = sx / sw, my = sy / sw;
  double sxx = 0, sxy = 0;
  for (size_t k = i; k <= j; ++k) {
    sxx += w[k] * (x[k] - mx) * (x[k] - mx);
    sxy += w[k] * (x[k] - mx) * (y[k] - my);
  }
  const double slope = sxx > 0 ? sxy / sxx : 0.0;
  LineFit f{my - slope * mx, slope, 0.0};
  for (size_t k = i; k <= j; ++k) {
    const double r = y[k] - f.intercept - f.slope * x[k];
    f.rss += w[k] * r * r;
  }
  return f;
}

} // namespace

Segmentation choose_segments(size_t n, const std::function<double(size_t, size_t)>& cost, size_t observations,
                             double params, const SegmentOptions& opt)
{
  const size_t m = std::max<size_t>(1, opt.min_points);
  if (n < m)
    throw std::invalid_argument("need at least " + std::to_string(m) + " sizes, got " + std::to_string(n));
  std::vector<std::vector<double>> fit(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + m - 1; j < n; ++j)
      fit[i][j] = cost(i, j);

  const size_t kmax = std::max<size_t>(1, std::min(opt.max_segments, n / m));
  const double inf  = std::numeric_limits<double>::infinity();
  // best[k][j]: least RSS of points [0, j] in k+1 ranges; from[k][j]: first point of the last one.
  std::vector<std::vector<double>> best(kmax, std::vector<double>(n, inf));
  std::vector<std::vector<size_t>> from(kmax, std::vector<size_t>(n, 0));
  for (size_t j = m - 1; j < n; ++j)
    best[0][j] = fit[0][j];
  for (size_t k = 1; k < kmax; ++k)
    for (size_t j = 0; j < n; ++j)
      for (size_t i = m; i + m - 1 <= j; ++i) {
        const double c = best[k - 1][i - 1] + fit[i][j];
        if (c < best[k][j]) {
          best[k][j] = c;
          from[k][j] = i;
        }
      }
  // BIC on the mean squared relative error, with a floor so exact (simulated) data stops at the
  // fewest ranges that fit it exactly.
  const double nobs = static_cast<double>(std::max<size_t>(observations, 1));
  size_t chosen = 0;
  double chosen_ic = inf;
  for (size_t k = 0; k < kmax; ++k) {
    if (best[k][n - 1] == inf)
      continue;
    const double mse = best[k][n - 1] / nobs + opt.noise_floor * opt.noise_floor;
    const double ic  = nobs * std::log(mse) + params * (k + 1) * std::log(nobs);
    if (ic < chosen_ic - 1e-9) {
      chosen_ic = ic;
      chosen    = k;
    }
  }
  Segmentation out;
  out.rss = best[chosen][n - 1];
  out.bic = chosen_ic;
  out.ranges.resize(chosen + 1);
  size_t j = n - 1;
  for (size_t k = chosen + 1; k-- > 0;) {
    const size_t i = k == 0 ? 0 : from[k][j];
    out.ranges[k]  = {i, j};
    j              = i - 1;
  }
  return out;
}

std::vector<Segment> fit_segments(const std::vector<double>& xs, const std::vector<double>& ys,
                                  const SegmentOptions& opt)
{
  const size_t n = xs.size();
  if (n < opt.min_points || ys.size() != n)
    throw std::invalid_argument("need at least " + std::to_string(opt.min_points) + " sizes, got " +
                                std::to_string(n));
  // Relative weights; a floor keeps zero durations (SMPI overheads set to 0) finite.
  std::vector<double> abs_y;
  for (double y : ys)
    abs_y.push_back(std::fabs(y));
  std::vector<double> sorted = abs_y;
  std::sort(sorted.begin(), sorted.end());
  const double floor = std::max(1e-12, 1e-3 * sorted[n / 2]);
  std::vector<double> w(n);
  for (size_t k = 0; k < n; ++k)
    w[k] = 1.0 / (abs_y[k] * abs_y[k] + floor * floor);
  // Each segment costs 3 parameters (2 + its breakpoint).
  const auto seg = choose_segments(n, [&](size_t i, size_t j) { return fit_line(xs, ys, w, i, j).rss; }, n, 3.0, opt);
  std::vector<Segment> out;
  for (const auto& [i, j] : seg.ranges) {
    const LineFit f = fit_line(xs, ys, w, i, j);
    out.push_back(Segment{i, j, f.intercept, f.slope});
  }
  return out;
}

double evaluate(const std::vector<Segment>& segs, const std::vector<double>& xs, double x)
{
  for (size_t k = 0; k + 1 < segs.size(); ++k)
    if (x <= xs[segs[k].last])
      return segs[k].at(x);
  return segs.back().at(x);
}

} // namespace haec::calibration
