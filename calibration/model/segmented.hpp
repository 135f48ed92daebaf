// Segmented linear regression with automatic breakpoints: dynamic programming over every split of
// the sorted points into contiguous segments, the number of segments chosen by an information
// criterion (BIC). Residuals are relative (durations span decades), so a segment of microseconds
// weighs as much as one of milliseconds.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace haec::calibration {

struct Segment {
  size_t first = 0, last = 0; // indices of its first and last point
  double intercept = 0, slope = 0;
  double at(double x) const { return intercept + slope * x; }
};

struct SegmentOptions {
  size_t min_points   = 2;    // points (distinct sizes) per segment
  size_t max_segments = 8;
  double noise_floor  = 0.01; // relative error counted as noise: a split must explain more than that
};

// The segmentation of points 0..n-1 into contiguous ranges: dynamic programming over every split
// (each range at least min_points), the number of ranges by BIC. `cost(i, j)` is the relative
// weighted RSS of the best fit of points [i, j]; `observations` the number of residuals behind
// all costs, `params` what one range costs (its coefficients and its breakpoint). Throws
// std::invalid_argument when n < min_points.
struct Segmentation {
  std::vector<std::pair<size_t, size_t>> ranges; // first and last point of each
  double rss = 0;
  double bic = 0; // the criterion it won with (lower is better), to compare segmentations
};
Segmentation choose_segments(size_t n, const std::function<double(size_t, size_t)>& cost, size_t observations,
                             double params, const SegmentOptions& opt);

// One line per segment: xs strictly increasing, ys the same length. Throws std::invalid_argument
// when there are fewer than min_points points.
std::vector<Segment> fit_segments(const std::vector<double>& xs, const std::vector<double>& ys,
                                  const SegmentOptions& opt = {});

// Value of the fitted segments at x the way SMPI looks its tables up: x belongs to segment k when
// x > the last x of segment k-1 and x <= the last x of segment k (the last one extends forever).
double evaluate(const std::vector<Segment>& segs, const std::vector<double>& xs, double x);

} // namespace haec::calibration
