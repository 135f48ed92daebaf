// Segmented linear regression with automatic breakpoints: dynamic programming over every split of
// the sorted points into contiguous segments, the number of segments chosen by an information
// criterion (BIC). Residuals are relative (durations span decades), so a segment of microseconds
// weighs as much as one of milliseconds.
#pragma once
#include <cstddef>
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

// xs strictly increasing, ys the same length. Throws std::invalid_argument when there are fewer
// than min_points points.
std::vector<Segment> fit_segments(const std::vector<double>& xs, const std::vector<double>& ys,
                                  const SegmentOptions& opt = {});

// Value of the fitted segments at x the way SMPI looks its tables up: x belongs to segment k when
// x > the last x of segment k-1 and x <= the last x of segment k (the last one extends forever).
double evaluate(const std::vector<Segment>& segs, const std::vector<double>& xs, double x);

} // namespace haec::calibration
