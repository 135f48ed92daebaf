#include "net_fit.hpp"

#include "input_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace haec::calibration {

namespace {

constexpr double kEnvelope = 16; // bytes SMPI adds to every message on the network

// Fits a quantity, turning "too few points" into an error naming the file and the operation.
OpFit fit_op(const std::vector<double>& xs, const std::vector<double>& ys, const std::string& file,
             const std::string& what, const SegmentOptions& opt)
{
  OpFit f{xs, ys, {}, {}};
  try {
    f.segments = fit_segments(xs, ys, opt);
  } catch (const std::invalid_argument& e) {
    throw InputError(file, what + ": too few samples to fit a segment (" + e.what() + ")",
                     "measure more sizes (calibration-net --count) or more repetitions");
  }
  f.thresholds.push_back(0);
  for (size_t k = 1; k < f.segments.size(); ++k)
    f.thresholds.push_back(static_cast<long long>(xs[f.segments[k - 1].last]));
  return f;
}

// os / or: only sizes below a protocol switch show them; with one point a constant, with none 0.
OpFit fit_overhead(const Series& s, double limit, const std::string& file, const std::string& what,
                   const SegmentOptions& opt)
{
  std::vector<double> xs, ys;
  for (size_t i = 0; i < s.sizes.size(); ++i)
    if (s.sizes[i] < limit) {
      xs.push_back(s.sizes[i]);
      ys.push_back(s.medians[i]);
    }
  if (xs.size() >= opt.min_points)
    return fit_op(xs, ys, file, what, opt);
  OpFit f{xs, ys, {Segment{0, 0, xs.empty() ? 0.0 : ys[0], 0.0}}, {0}};
  return f;
}

// First size at which `sync` holds from there on, with the fewest disagreeing sizes; past the
// last size when it never holds.
long long switch_size(const std::vector<double>& sizes, const std::vector<bool>& sync)
{
  const size_t n = sizes.size();
  size_t best_k = n, best_err = n + 1;
  for (size_t k = 0; k <= n; ++k) {
    size_t err = 0;
    for (size_t i = 0; i < n; ++i)
      err += (i < k) == sync[i];
    if (err < best_err) {
      best_err = err;
      best_k   = k;
    }
  }
  return best_k < n ? static_cast<long long>(sizes[best_k]) : static_cast<long long>(sizes[n - 1]) + 1;
}

double lookup_factor(const std::vector<long long>& thresholds, const std::vector<double>& factors, double size)
{
  double current = 1.0; // SMPI: sizes up to the first threshold get 1
  for (size_t k = 0; k < thresholds.size(); ++k) {
    if (size <= static_cast<double>(thresholds[k]))
      return current;
    current = factors[k];
  }
  return current;
}

void require_op(const Series& s, const std::string& file, const std::string& op, size_t min_sizes)
{
  if (s.sizes.size() < min_sizes)
    throw InputError(file, op + " has samples at " + std::to_string(s.sizes.size()) + " size(s), at least " +
                               std::to_string(min_sizes) + " are needed",
                     "measure with calibration-net over a size grid");
}

} // namespace

double OpFit::at(double size) const
{
  return evaluate(segments, sizes.empty() ? std::vector<double>{0} : sizes, size);
}

double NetCalibration::bw_factor(double s) const { return lookup_factor(factor_thresholds, bw_factors, s); }
double NetCalibration::lat_factor(double s) const { return lookup_factor(factor_thresholds, lat_factors, s); }

NetCalibration calibrate_network(const std::vector<Sample>& samples, const std::string& file, const NetOptions& opt)
{
  const Series send = median_series(samples, "MPI_Send");
  const Series isend = median_series(samples, "MPI_Isend");
  const Series recv  = median_series(samples, "MPI_Recv");
  const Series pp    = median_series(samples, "PingPong", 0.5);
  require_op(send, file, "MPI_Send", 1);
  require_op(recv, file, "MPI_Recv", 1);
  require_op(isend, file, "MPI_Isend", opt.segments.min_points);
  require_op(pp, file, "PingPong", opt.segments.min_points);

  NetCalibration c;
  // Real measurements: do not split segments to chase the medians' own noise.
  auto seg_opt = [&](const Series& s) {
    SegmentOptions o = opt.segments;
    o.noise_floor    = std::max(o.noise_floor, s.median_noise());
    return o;
  };
  c.ois = fit_op(isend.sizes, isend.medians, file, "MPI_Isend", seg_opt(isend));

  // Protocol switches: where the caller starts to wait for the transfer itself.
  auto one_way = [&](double size) {
    auto it = std::lower_bound(pp.sizes.begin(), pp.sizes.end(), size);
    if (it == pp.sizes.end() || *it != size)
      return -1.0;
    return pp.medians[it - pp.sizes.begin()];
  };
  auto classify = [&](const Series& s, double ratio, std::vector<double>& sizes) {
    std::vector<bool> sync;
    for (size_t i = 0; i < s.sizes.size(); ++i)
      if (double t = one_way(s.sizes[i]); t >= 0) {
        sizes.push_back(s.sizes[i]);
        sync.push_back(s.medians[i] >= ratio * t);
      }
    if (sizes.empty())
      throw InputError(file, "MPI_Send and MPI_Recv share no size with PingPong",
                       "measure every operation over the same sizes (calibration-net does)");
    return sync;
  };
  std::vector<double> send_sizes, recv_sizes;
  const auto send_sync = classify(send, opt.send_sync_ratio, send_sizes);
  const auto recv_sync = classify(recv, opt.recv_sync_ratio, recv_sizes);
  c.send_is_detached_thresh = switch_size(send_sizes, send_sync);
  c.async_small_thresh      = switch_size(recv_sizes, recv_sync);
  const double detached     = static_cast<double>(c.send_is_detached_thresh);
  c.os    = fit_overhead(send, detached, file, "MPI_Send", seg_opt(send));
  c.orecv = fit_overhead(recv, std::min<double>(detached, static_cast<double>(c.async_small_thresh)), file,
                         "MPI_Recv", seg_opt(recv));
  if (c.orecv.sizes.empty())
    c.notes.push_back("smpi/or: no size arrived before MPI_Recv (async-small-thresh is the smallest size); or = 0");

  // The network alone: half a round trip minus the overheads SMPI adds below D.
  std::vector<double> comm;
  for (size_t i = 0; i < pp.sizes.size(); ++i) {
    const double p = pp.sizes[i];
    comm.push_back(pp.medians[i] - (p < detached ? c.os.at(p) + c.orecv.at(p) : 0.0));
  }
  c.comm = fit_op(pp.sizes, comm, file, "PingPong", seg_opt(pp));

  // Per segment: effective bandwidth 1/slope and latency (intercept minus the envelope's share).
  struct Eff {
    double bw, lat;
    bool bw_dominated, lat_dominated;
  };
  std::vector<Eff> eff;
  for (const auto& s : c.comm.segments) {
    const double x0 = pp.sizes[s.first], x1 = pp.sizes[s.last];
    Eff e{s.slope > 0 ? (1.0 + opt.reverse_share) / s.slope : INFINITY, s.intercept - kEnvelope * s.slope, false, false};
    e.bw_dominated  = s.slope > 0 && s.slope * (x1 + kEnvelope) >= 0.5 * s.at(x1);
    e.lat_dominated = e.lat > 0 && e.lat >= 0.5 * s.at(x0);
    eff.push_back(e);
  }
  c.bandwidth = opt.bandwidth;
  if (c.bandwidth <= 0) {
    for (int pass = 0; pass < 2 && c.bandwidth <= 0; ++pass)
      for (const auto& e : eff)
        if ((pass == 1 || e.bw_dominated) && std::isfinite(e.bw))
          c.bandwidth = std::max(c.bandwidth, e.bw);
    if (c.bandwidth <= 0)
      throw InputError(file, "no message size shows a transfer time growing with the size",
                       "measure larger messages (calibration-net --max)");
  }
  c.latency = opt.latency;
  if (c.latency <= 0) {
    for (int pass = 0; pass < 2 && c.latency <= 0; ++pass)
      for (const auto& e : eff)
        if ((pass == 1 || e.lat_dominated) && e.lat > 0 && (c.latency <= 0 || e.lat < c.latency))
          c.latency = e.lat;
    if (c.latency <= 0)
      c.notes.push_back("no positive latency measured: route latency 0, lat-factor 1");
  }
  for (size_t k = 0; k < eff.size(); ++k) {
    c.factor_thresholds.push_back(k == 0 ? 0 : c.comm.thresholds[k] + static_cast<long long>(kEnvelope));
    double bw = eff[k].bw / c.bandwidth;
    if (bw > 1 + 1e-9)
      c.notes.push_back("bw-factor " + number_text(bw) + " of segment " + std::to_string(k + 1) +
                        " clamped to 1 (the link is slower than measured)");
    c.bw_factors.push_back(std::min(1.0, bw));
    double lat = c.latency > 0 ? eff[k].lat / c.latency : 1.0;
    if (lat < 1 - 1e-9)
      c.notes.push_back("lat-factor " + number_text(lat) + " of segment " + std::to_string(k + 1) +
                        " clamped to 1 (latency below the route's)");
    c.lat_factors.push_back(std::max(1.0, lat));
  }
  return c;
}

LoopbackCalibration calibrate_loopback(const std::vector<Sample>& samples, const std::string& file,
                                       const NetCalibration& inter, const NetOptions& opt)
{
  LoopbackCalibration lo;
  NetOptions own = opt;
  own.bandwidth = own.latency = 0;
  lo.path        = calibrate_network(samples, file, own);
  const auto& segs = lo.path.comm.segments;
  const auto& xs   = lo.path.comm.sizes;
  // Largest messages: the bandwidth they saw, over the factor SMPI will apply to them (the
  // loopback is a FATPIPE link: no reverse-traffic share).
  const Segment& last = segs.back();
  const double x1     = xs[last.last] + kEnvelope;
  if (last.slope <= 0)
    throw InputError(file, "the largest intra-node messages show no transfer time growing with the size",
                     "measure larger messages (calibration-net --max)");
  lo.bandwidth = 1.0 / last.slope / inter.bw_factor(x1);
  // Smallest messages: their latency over SMPI's lat-factor for them.
  const Segment& first = segs.front();
  const double lat     = first.intercept - kEnvelope * first.slope;
  lo.latency           = std::max(0.0, lat / inter.lat_factor(xs[first.first] + kEnvelope));
  if (lat <= 0)
    lo.notes.push_back("intra-node latency not positive: loopback latency 0");
  return lo;
}

std::string number_text(double v)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string piecewise_text(const OpFit& fit)
{
  std::string out;
  for (size_t k = 0; k < fit.segments.size(); ++k)
    out += (k ? ";" : "") + std::to_string(fit.thresholds[k]) + ":" + number_text(fit.segments[k].intercept) + ":" +
           number_text(fit.segments[k].slope);
  return out;
}

std::string factor_text(const std::vector<long long>& thresholds, const std::vector<double>& factors)
{
  std::string out;
  for (size_t k = 0; k < factors.size(); ++k)
    out += (k ? ";" : "") + std::to_string(thresholds[k]) + ":" + number_text(factors[k]);
  return out;
}

std::vector<std::pair<std::string, std::string>> smpi_settings(const NetCalibration& c)
{
  return {{"smpi/os", piecewise_text(c.os)},
          {"smpi/ois", piecewise_text(c.ois)},
          {"smpi/or", piecewise_text(c.orecv)},
          {"smpi/bw-factor", factor_text(c.factor_thresholds, c.bw_factors)},
          {"smpi/lat-factor", factor_text(c.factor_thresholds, c.lat_factors)},
          {"smpi/async-small-thresh", std::to_string(c.async_small_thresh)},
          {"smpi/send-is-detached-thresh", std::to_string(c.send_is_detached_thresh)}};
}

} // namespace haec::calibration
