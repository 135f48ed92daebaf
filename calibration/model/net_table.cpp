// The medians `haec calibrate net` fits: one per operation and size (net_fit.hpp).
#include "input_error.hpp"
#include "net_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace haec::calibration {

namespace {

// Standard error of a median of n samples relative to it: 1.2533 sigma / sqrt(n), sigma
// estimated as 1.4826 MAD (normal noise); 0 from a single sample.
double relative_stderr(const Series& s, size_t i)
{
  return s.counts[i] > 1 ? 1.2533 * 1.4826 * s.spreads[i] / std::sqrt(static_cast<double>(s.counts[i])) : 0.0;
}

} // namespace

MedianTable median_table(const std::vector<Sample>& samples, const std::string& file)
{
  std::array<Series, 5> series;
  for (Op op : kAllOps) {
    series[static_cast<size_t>(op)] = median_series(samples, op_name(op), op == Op::PingPong ? 0.5 : 1.0);
    if (series[static_cast<size_t>(op)].sizes.empty())
      throw InputError(file, std::string("has no ") + op_name(op) + " samples",
                       op == Op::Ssend ? "measure again with this version of calibration-net (MPI_Ssend separates "
                                         "the transfer from smpi/or)"
                                       : "measure with calibration-net, which records every operation");
  }
  // Sizes every operation was measured at.
  std::map<double, int> seen;
  for (const auto& s : series)
    for (double x : s.sizes)
      ++seen[x];
  MedianTable t;
  for (const auto& [x, n] : seen)
    if (n == 5)
      t.sizes.push_back(x);
  for (double x : t.sizes) {
    std::array<double, 5> m{}, e{};
    std::array<int, 5> c{};
    for (size_t o = 0; o < 5; ++o) {
      const Series& s = series[o];
      const size_t i  = static_cast<size_t>(std::lower_bound(s.sizes.begin(), s.sizes.end(), x) - s.sizes.begin());
      m[o]            = s.medians[i];
      e[o]            = relative_stderr(s, i);
      c[o]            = s.counts[i];
    }
    t.median.push_back(m);
    t.rel_stderr.push_back(e);
    t.count.push_back(c);
  }
  std::vector<double> errors;
  for (const auto& e : t.rel_stderr)
    errors.insert(errors.end(), e.begin(), e.end());
  t.noise = errors.empty() ? 0.0 : median(errors);
  return t;
}

} // namespace haec::calibration
