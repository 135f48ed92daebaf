#include "samples.hpp"

#include "input_error.hpp"
#include "measurement_table.hpp"
#include "text.hpp"
#include "units.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace haec::calibration {

namespace {
const char* const kOps[] = {"MPI_Send", "MPI_Isend", "MPI_Recv", "PingPong", "MPI_Ssend"};
const char* const kHeader = "op,size,start,duration";

Sample parse_sample(const std::vector<std::string>& f, const std::string& where)
{
  Sample s;
  s.op = f[0];
  if (std::find(std::begin(kOps), std::end(kOps), s.op) == std::end(kOps))
    throw InputError(where, "unknown operation '" + s.op + "'", "use MPI_Send, MPI_Isend, MPI_Recv, PingPong or MPI_Ssend");
  s.size     = units::parse_integer(f[1], where + ": size");
  s.start    = units::parse_number(f[2], where + ": start");
  s.duration = units::parse_number(f[3], where + ": duration");
  if (s.duration < 0)
    throw InputError(where, "negative duration " + f[3], "durations are elapsed seconds");
  if (s.size > (1LL << 31) - 1)
    throw InputError(where, "size " + f[1] + " does not fit an int", "SMPI sizes are ints");
  return s;
}
} // namespace

std::vector<Sample> parse_samples(const std::string& text, const std::string& file)
{
  std::vector<Sample> out;
  const TableFormat format{kHeader, "give the CSV that calibration/net wrote", "the file looks truncated; measure again"};
  for_each_measurement(text, file, format, "give the CSV that calibration/net wrote",
                       [&](const std::vector<std::string>& f, const std::string& where, size_t) {
                         out.push_back(parse_sample(f, where));
                       });
  if (out.empty())
    throw InputError(file, "has a header but no samples", "the measurement did not finish; measure again");
  return out;
}

int Series::total() const
{
  int n = 0;
  for (int c : counts)
    n += c;
  return n;
}

double Series::median_noise() const
{
  std::vector<double> e;
  for (size_t i = 0; i < spreads.size(); ++i)
    e.push_back(spreads[i] / std::sqrt(static_cast<double>(counts[i])));
  return e.empty() ? 0.0 : median(e);
}

double median(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Series median_series(const std::vector<Sample>& samples, const std::string& op, double scale)
{
  std::map<long long, std::vector<double>> by_size;
  for (const auto& s : samples)
    if (s.op == op)
      by_size[s.size].push_back(s.duration * scale);
  Series out;
  for (auto& [size, values] : by_size) {
    out.sizes.push_back(static_cast<double>(size));
    out.medians.push_back(median(values));
    out.counts.push_back(static_cast<int>(values.size()));
    const double m = out.medians.back();
    std::vector<double> dev;
    for (double v : values)
      dev.push_back(std::fabs(v - m));
    out.spreads.push_back(m > 0 ? median(dev) / m : 0.0);
  }
  return out;
}

} // namespace haec::calibration
