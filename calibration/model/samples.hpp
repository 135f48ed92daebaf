// Raw network samples as calibration/net writes them (`op,size,start,duration`, the columns of
// SimGrid's platform-calibration) and their per-size medians (robust to outliers).
#pragma once
#include <string>
#include <vector>

namespace haec::calibration {

struct Sample {
  std::string op; // MPI_Send, MPI_Isend, MPI_Recv or PingPong
  long long size;
  double start;
  double duration; // seconds
};

// Parses a whole samples file. `file` names it in errors ("file:line: problem; fix").
// Throws haec::InputError on an empty file, a wrong header, a truncated or malformed line,
// an unknown operation, a negative size or duration.
std::vector<Sample> parse_samples(const std::string& text, const std::string& file);

// One operation's samples reduced to one point per size (sizes increasing).
struct Series {
  std::vector<double> sizes;
  std::vector<double> medians;
  std::vector<int> counts;
  std::vector<double> spreads; // median absolute deviation / median at each size
  int total() const;
  // The relative error a median of this series typically carries (median over sizes of
  // spread / sqrt(count)): the noise a fit should not chase.
  double median_noise() const;
};

// The median of `op`'s durations at every size it was measured at, `scale` applied to each
// duration (0.5 turns a ping-pong round trip into a one-way time).
Series median_series(const std::vector<Sample>& samples, const std::string& op, double scale = 1.0);

double median(std::vector<double> values);

} // namespace haec::calibration
