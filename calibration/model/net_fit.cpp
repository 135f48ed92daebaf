#include "net_fit.hpp"

#include "input_error.hpp"
#include "net_checks.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace haec::calibration {

namespace {

constexpr double kEnvelope = 16; // bytes SMPI adds to every message on the network
constexpr size_t kSend = 0, kIsend = 1, kRecv = 2, kPingPong = 3, kSsend = 4; // MedianTable columns

// Which equation each size follows: gap g lies between sizes[g-1] and sizes[g].
struct Protocol {
  size_t eager_gap, detached_gap; // sizes below the gap are eager (< A) / detached (< D)
};

// Relative weights: a floor keeps zero medians (SMPI overheads set to 0) finite.
std::array<double, 5> weight_floors(const MedianTable& t)
{
  std::array<double, 5> floor{};
  for (size_t o = 0; o < 5; ++o) {
    std::vector<double> v;
    for (const auto& m : t.median)
      if (m[o] != 0)
        v.push_back(std::fabs(m[o]));
    floor[o] = std::max(1e-12, v.empty() ? 0.0 : 1e-3 * median(v));
  }
  return floor;
}

// Weighted least squares A x = b by QR (A has full column rank: every quantity with two
// coefficients is seen at >= 2 sizes of the segment); returns the RSS.
double solve(const Eigen::MatrixXd& a, const Eigen::VectorXd& b, Eigen::VectorXd& x)
{
  x = a.householderQr().solve(b);
  return (a * x - b).squaredNorm();
}

// Standard errors of the solution: sqrt(diag(sigma^2 (A^T A)^-1)), sigma^2 = RSS / (rows - cols).
Eigen::VectorXd standard_errors(const Eigen::MatrixXd& a, double rss)
{
  const double dof = std::max<double>(1.0, static_cast<double>(a.rows() - a.cols()));
  const Eigen::MatrixXd cov = (a.transpose() * a).completeOrthogonalDecomposition().pseudoInverse() * (rss / dof);
  return cov.diagonal().cwiseMax(0.0).cwiseSqrt();
}

// The joint fit of sizes [i, j]: ois on its own (only MPI_Isend shows it), then os, or and the
// transfer from MPI_Send, MPI_Ssend, MPI_Recv and PingPong/2 together.
struct SegmentFitter {
  const MedianTable& t;
  Protocol proto;
  std::array<double, 5> floor;

  double row_weight(size_t k, size_t o) const { return 1.0 / std::max(std::fabs(t.median[k][o]), floor[o]); }

  // RSS of the joint fit of sizes [i, j]; with `out`, its coefficients and standard errors.
  double fit(size_t i, size_t j, JointSegment* out) const
  {
    if (out)
      *out = JointSegment{i, j};
    return fit_ois(i, j, out) + fit_os_or_transfer(i, j, out);
  }

  double fit_ois(size_t i, size_t j, JointSegment* out) const
  {
    const double scale = std::max(1.0, t.sizes[j]); // per-byte columns in units of the largest size
    Eigen::MatrixXd a(j - i + 1, 2);
    Eigen::VectorXd b(j - i + 1), x;
    for (size_t k = i; k <= j; ++k) {
      const double w = row_weight(k, kIsend);
      a.row(k - i) << w, w * t.sizes[k] / scale;
      b(k - i) = w * t.median[k][kIsend];
    }
    const double rss = solve(a, b, x);
    if (out) {
      const Eigen::VectorXd e = standard_errors(a, rss);
      out->ois[0] = x(0), out->ois[1] = x(1) / scale;
      out->ois_se[0] = e(0), out->ois_se[1] = e(1) / scale;
    }
    return rss;
  }

  // Columns: os (2), transfer (2), or (0-2: only sizes below D show it).
  double fit_os_or_transfer(size_t i, size_t j, JointSegment* out) const
  {
    const double scale = std::max(1.0, t.sizes[j]);
    size_t detached_sizes = 0;
    for (size_t k = i; k <= j; ++k)
      detached_sizes += k < proto.detached_gap;
    const size_t or_cols = std::min<size_t>(2, detached_sizes);
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(4 * (j - i + 1), 4 + or_cols);
    Eigen::VectorXd b(4 * (j - i + 1)), x;
    size_t r = 0;
    for (size_t k = i; k <= j; ++k) {
      const double p = t.sizes[k] / scale;
      const bool det = k < proto.detached_gap, eager = k < proto.eager_gap;
      auto add = [&](size_t o, bool os, bool tr, bool orc) { // one median: which quantities it sums
        const double w = row_weight(k, o);
        if (os)
          a.row(r).segment(0, 2) << w, w * p;
        if (tr)
          a.row(r).segment(2, 2) << w, w * p;
        for (size_t c = 0; orc && c < or_cols; ++c)
          a(r, 4 + c) = c == 0 ? w : w * p;
        b(r++) = w * t.median[k][o];
      };
      add(kSend, det, !det, false);
      add(kSsend, true, true, false);
      add(kRecv, false, !eager, det);
      add(kPingPong, det, true, det);
    }
    const double rss = solve(a, b, x);
    if (out) {
      const Eigen::VectorXd e = standard_errors(a, rss);
      out->os[0] = x(0), out->os[1] = x(1) / scale;
      out->os_se[0] = e(0), out->os_se[1] = e(1) / scale;
      out->transfer[0] = x(2), out->transfer[1] = x(3) / scale;
      out->transfer_se[0] = e(2), out->transfer_se[1] = e(3) / scale;
      out->or_observed = or_cols > 0;
      out->orecv[0]    = or_cols > 0 ? x(4) : 0.0;
      out->orecv[1]    = or_cols > 1 ? x(5) / scale : 0.0;
      out->orecv_se[0] = or_cols > 0 ? e(4) : 0.0;
      out->orecv_se[1] = or_cols > 1 ? e(5) / scale : 0.0;
    }
    return rss;
  }
};

struct JointFit {
  Protocol proto;
  Segmentation seg;
  std::vector<JointSegment> segments;
};

// Segmentations for several protocol guesses share most segment fits: a fit of sizes [i, j]
// depends on A and D only through where they fall inside [i, j + 1].
class JointSearch {
public:
  JointSearch(const MedianTable& t, const SegmentOptions& opt) : t_(t), opt_(opt), floor_(weight_floors(t)) {}

  JointFit fit(Protocol proto)
  {
    const SegmentFitter f{t_, proto, floor_};
    JointFit j{proto, {}, {}};
    // 8 coefficients and a breakpoint per segment; 5 medians per size.
    j.seg = choose_segments(t_.sizes.size(), [&](size_t a, size_t b) { return cost(f, a, b); }, 5 * t_.sizes.size(),
                            9.0, opt_);
    for (const auto& [a, b] : j.seg.ranges) {
      j.segments.emplace_back();
      f.fit(a, b, &j.segments.back());
    }
    return j;
  }

private:
  double cost(const SegmentFitter& f, size_t i, size_t j)
  {
    auto inside = [&](size_t g) { return std::clamp(g, i, j + 1); };
    const auto key = std::make_tuple(i, j, inside(f.proto.eager_gap), inside(f.proto.detached_gap));
    auto it = cache_.find(key);
    if (it == cache_.end())
      it = cache_.emplace(key, f.fit(i, j, nullptr)).first;
    return it->second;
  }

  const MedianTable& t_;
  SegmentOptions opt_;
  std::array<double, 5> floor_;
  std::map<std::tuple<size_t, size_t, size_t, size_t>, double> cache_;
};

// First guess of a protocol switch: the gap after which `sync` holds, with the fewest
// disagreeing sizes (a size is synchronous when the operation takes at least half a one-way
// PingPong: it waited for the transfer).
size_t switch_gap(const MedianTable& t, size_t op)
{
  const size_t n = t.sizes.size();
  size_t best = n, best_err = n + 1;
  for (size_t g = 0; g <= n; ++g) {
    size_t err = 0;
    for (size_t k = 0; k < n; ++k)
      err += (k < g) == (t.median[k][op] >= 0.5 * t.median[k][kPingPong]);
    if (err < best_err) {
      best_err = err;
      best     = g;
    }
  }
  return best;
}

// A and D jointly with the segmentation: from the first guesses, move A (then D) within the
// window to the place whose best segmentation has the lowest criterion, until neither moves
// (A <= D, as SimGrid requires).
JointFit search_protocol(const MedianTable& t, const NetOptions& opt)
{
  const long n = static_cast<long>(t.sizes.size()), w = opt.protocol_window;
  const size_t d0 = switch_gap(t, kSend), a0 = std::min(d0, switch_gap(t, kRecv));
  JointSearch search(t, opt.segments);
  JointFit best = search.fit({a0, d0});
  for (int round = 0; round < 4; ++round) {
    const Protocol start = best.proto;
    for (int which = 0; which < 2; ++which) {
      const Protocol centre = best.proto;
      const long g0 = static_cast<long>(which == 0 ? centre.eager_gap : centre.detached_gap);
      for (long g = std::max(0L, g0 - w); g <= std::min(n, g0 + w); ++g) {
        Protocol p = centre;
        (which == 0 ? p.eager_gap : p.detached_gap) = static_cast<size_t>(g);
        if (g == g0 || p.eager_gap > p.detached_gap)
          continue;
        JointFit j = search.fit(p);
        if (j.seg.bic < best.seg.bic - 1e-9)
          best = std::move(j);
      }
    }
    if (best.proto.eager_gap == start.eager_gap && best.proto.detached_gap == start.detached_gap)
      break;
  }
  return best;
}

// Where a setting that changes between sizes[g-1] and sizes[g] is placed: their geometric mean
// (so it is within one sampling step of the truth, wherever that lies in the gap).
long long gap_size(const std::vector<double>& xs, size_t g)
{
  if (g == 0)
    return 0;
  if (g >= xs.size())
    return static_cast<long long>(xs.back()) + 1;
  const double lo = xs[g - 1], hi = xs[g];
  return std::clamp(std::llround(std::sqrt(lo * hi)), static_cast<long long>(lo) + 1, static_cast<long long>(hi));
}

// smpi/os-style table from per-segment (startup, per byte); equal neighbours merged.
Piecewise piecewise(const std::vector<JointSegment>& segs, const std::vector<double>& xs,
                    double (JointSegment::*coef)[2])
{
  Piecewise p;
  for (const auto& s : segs) {
    const double a = (s.*coef)[0], b = (s.*coef)[1];
    const bool same = !p.startup.empty() && std::fabs(a - p.startup.back()) <= 1e-6 * std::fabs(a) + 1e-18 &&
                      std::fabs(b - p.per_byte.back()) <= 1e-6 * std::fabs(b) + 1e-24;
    if (same)
      continue;
    p.thresholds.push_back(s.first == 0 ? 0 : gap_size(xs, s.first) - 1); // payloads > T: >= the gap size
    p.startup.push_back(a);
    p.per_byte.push_back(b);
  }
  return p;
}

// What each segment's transfer line says about the route: c0 = L lat + 16 c1, c1 = (1+share)/(B bw).
struct SegmentRoute {
  double bandwidth, latency; // effective: B bw and L lat
  bool bandwidth_shown, latency_shown; // the data shows it: it makes a quarter of the transfer time
};

std::vector<SegmentRoute> segment_routes(const NetCalibration& c, double share)
{
  std::vector<SegmentRoute> out;
  for (const auto& g : c.segments) {
    const double c0 = g.transfer[0], c1 = g.transfer[1], x0 = c.table.sizes[g.first], x1 = c.table.sizes[g.last];
    const double lat = c0 - kEnvelope * c1;
    out.push_back({c1 > 0 ? (1 + share) / c1 : INFINITY, lat, c1 > 0 && c1 * (x1 + kEnvelope) >= 0.25 * (c0 + c1 * x1),
                   lat > 0 && lat >= 0.25 * (c0 + c1 * x0)});
  }
  return out;
}

// The route the factors refer to: given, or the best bandwidth and the smallest latency shown
// (any segment's when none shows one).
void choose_route(NetCalibration& c, const std::vector<SegmentRoute>& seg, const NetOptions& opt,
                  const std::string& file)
{
  auto& s     = c.settings;
  s.bandwidth = opt.bandwidth;
  for (int pass = 0; pass < 2 && s.bandwidth <= 0; ++pass)
    for (const auto& e : seg)
      if ((pass == 1 || e.bandwidth_shown) && std::isfinite(e.bandwidth))
        s.bandwidth = std::max(s.bandwidth, e.bandwidth);
  if (s.bandwidth <= 0)
    throw InputError(file, "no message size shows a transfer time growing with the size",
                     "measure larger messages (calibration-net --max)");
  s.latency = opt.latency;
  for (int pass = 0; pass < 2 && s.latency <= 0; ++pass)
    for (const auto& e : seg)
      if ((pass == 1 || e.latency_shown) && e.latency > 0 && (s.latency <= 0 || e.latency < s.latency))
        s.latency = e.latency;
  if (s.latency <= 0)
    c.notes.push_back("no positive latency measured: route latency 0, lat-factor 1");
}

// smpi/bw-factor and lat-factor relative to the route, thresholds on network sizes.
void set_factors(NetCalibration& c, const NetOptions& opt, const std::string& file)
{
  auto& s         = c.settings;
  s.reverse_share = opt.reverse_share;
  const auto seg  = segment_routes(c, opt.reverse_share);
  choose_route(c, seg, opt, file);
  for (size_t k = 0; k < seg.size(); ++k) {
    const long long t =
        k == 0 ? 0 : gap_size(c.table.sizes, c.segments[k].first) - 1 + static_cast<long long>(kEnvelope);
    if (!std::isfinite(seg[k].bandwidth))
      c.notes.push_back("segment " + std::to_string(k + 1) + ": transfer time flat in the size, bw-factor 1");
    const double bw  = std::isfinite(seg[k].bandwidth) ? seg[k].bandwidth / s.bandwidth : 1.0;
    const double lat = s.latency > 0 ? std::max(0.0, seg[k].latency) / s.latency : 1.0;
    if (s.bw.values.empty() || std::fabs(bw - s.bw.values.back()) > 1e-6 * bw) {
      s.bw.thresholds.push_back(t);
      s.bw.values.push_back(bw);
    }
    if (s.lat.values.empty() || std::fabs(lat - s.lat.values.back()) > 1e-6 * lat) {
      s.lat.thresholds.push_back(t);
      s.lat.values.push_back(lat);
    }
  }
}

} // namespace

NetCalibration calibrate_network(const std::vector<Sample>& samples, const std::string& file, const NetOptions& opt)
{
  NetCalibration c;
  c.table = median_table(samples, file);
  const size_t n = c.table.sizes.size();
  if (n < opt.segments.min_points)
    throw InputError(file, "all five operations share samples at " + std::to_string(n) + " size(s), at least " +
                               std::to_string(opt.segments.min_points) + " are needed",
                     "measure with calibration-net over a size grid (--count)");
  NetOptions o = opt;
  // Real measurements: do not split segments to chase the medians' own noise.
  o.segments.noise_floor = std::max(o.segments.noise_floor, c.table.noise);
  const JointFit j = search_protocol(c.table, o);
  c.segments       = j.segments;
  c.eager_gap      = j.proto.eager_gap;
  c.detached_gap   = j.proto.detached_gap;

  const auto& xs = c.table.sizes;
  clamp_negligible_negatives(c);
  c.settings.os    = piecewise(c.segments, xs, &JointSegment::os);
  c.settings.ois   = piecewise(c.segments, xs, &JointSegment::ois);
  c.settings.orecv = piecewise(c.segments, xs, &JointSegment::orecv);
  c.settings.async_small = gap_size(xs, c.eager_gap);
  c.settings.detached    = gap_size(xs, c.detached_gap);
  if (c.detached_gap >= n)
    c.notes.push_back("no measured size waits for the receiver: send-is-detached-thresh set above the largest");
  set_factors(c, opt, file);
  check_plausibility(c, opt);
  return c;
}

LoopbackCalibration calibrate_loopback(const std::vector<Sample>& samples, const std::string& file,
                                       const NetCalibration& inter, const NetOptions& opt)
{
  LoopbackCalibration lo;
  NetOptions own = opt;
  own.bandwidth = own.latency = 0;
  own.reverse_share           = 0; // the loopback is a FATPIPE link: no reverse-traffic share
  lo.path                     = calibrate_network(samples, file, own);
  const auto& xs              = lo.path.table.sizes;
  // Largest messages: the bandwidth they saw, over the factor SMPI will apply to them.
  const JointSegment& last = lo.path.segments.back();
  const double s1          = xs[last.last] + kEnvelope;
  if (last.transfer[1] <= 0)
    throw InputError(file, "the largest intra-node messages show no transfer time growing with the size",
                     "measure larger messages (calibration-net --max)");
  lo.bandwidth = 1.0 / last.transfer[1] / inter.settings.bw.at(s1);
  // Smallest messages: their latency over SMPI's lat-factor for them.
  const JointSegment& first = lo.path.segments.front();
  const double lat          = first.transfer[0] - kEnvelope * first.transfer[1];
  lo.latency                = std::max(0.0, lat / inter.settings.lat.at(xs[first.first] + kEnvelope));
  if (lat <= 0)
    lo.notes.push_back("intra-node latency not positive: loopback latency 0");
  return lo;
}

std::vector<std::pair<std::string, std::string>> smpi_settings(const SmpiNet& s)
{
  return {{"smpi/os", s.os.text()},
          {"smpi/ois", s.ois.text()},
          {"smpi/or", s.orecv.text()},
          {"smpi/bw-factor", s.bw.text()},
          {"smpi/lat-factor", s.lat.text()},
          {"smpi/async-small-thresh", std::to_string(s.async_small)},
          {"smpi/send-is-detached-thresh", std::to_string(s.detached)}};
}

} // namespace haec::calibration
