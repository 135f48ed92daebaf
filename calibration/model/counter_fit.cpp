#include "counter_fit.hpp"
#include "input_error.hpp"
#include "measurement_table.hpp"
#include "nnls.hpp"
#include "text.hpp"
#include "units.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <set>

namespace haec::calibration {
namespace {

const char* kLayout = "write start_s,end_s,pstate,EVENT... (calibration/README.md)";

// The header: start_s,end_s,pstate and at least one event name, each named once.
std::vector<std::string> header_events(const std::string& text, const std::string& file)
{
  for (const std::string& raw : text::split_lines(text)) {
    const std::string line = text::trim(raw);
    if (line.empty() || line[0] == '#')
      continue;
    std::vector<std::string> f;
    for (const auto& field : text::split(line, ','))
      f.push_back(text::trim(field));
    if (f.size() < 4 || f[0] != "start_s" || f[1] != "end_s" || f[2] != "pstate")
      throw InputError(file, "header is not start_s,end_s,pstate,EVENT...", kLayout);
    std::vector<std::string> events(f.begin() + 3, f.end());
    if (std::set<std::string>(events.begin(), events.end()).size() != events.size() ||
        std::count(events.begin(), events.end(), "") > 0)
      throw InputError(file, "header names an event twice or an empty one", "name each event once");
    return events;
  }
  throw InputError(file, "holds no header", kLayout);
}

CounterInterval parse_interval(const std::vector<std::string>& f, const std::string& where, size_t line)
{
  CounterInterval c;
  c.start          = units::parse_number(f[0], where + ": start_s");
  c.end            = units::parse_number(f[1], where + ": end_s");
  const long long p = units::parse_integer(f[2], where + ": pstate");
  if (!(c.end > c.start) || !std::isfinite(c.start) || !std::isfinite(c.end))
    throw InputError(where, "end_s " + f[1] + " is not after start_s " + f[0], "intervals must have a length");
  if (p > 1000)
    throw InputError(where, "pstate " + f[2] + " is not a pstate index", "number pstates 0, 1, ... fastest first");
  c.pstate = static_cast<int>(p);
  c.line   = static_cast<int>(line);
  for (size_t k = 3; k < f.size(); ++k) {
    const double count = units::parse_number(f[k], where + ": count");
    if (!(count >= 0) || !std::isfinite(count))
      throw InputError(where, "count " + f[k] + " is not a finite number >= 0", "counts are events counted");
    c.counts.push_back(count);
  }
  return c;
}

struct Equations {
  Eigen::MatrixXd X; // rows: [1, rate_1, ..., rate_K]
  Eigen::VectorXd y; // mean power
};

Equations equations(const std::vector<const CounterInterval*>& rows, const std::vector<double>& watts)
{
  const Eigen::Index n = static_cast<Eigen::Index>(rows.size());
  const Eigen::Index k = rows.empty() ? 0 : static_cast<Eigen::Index>(rows[0]->counts.size());
  Equations e{Eigen::MatrixXd(n, k + 1), Eigen::VectorXd(n)};
  for (Eigen::Index i = 0; i < n; ++i) {
    const CounterInterval& c = *rows[static_cast<size_t>(i)];
    e.X(i, 0) = 1;
    for (Eigen::Index j = 0; j < k; ++j)
      e.X(i, j + 1) = c.counts[static_cast<size_t>(j)] / (c.end - c.start);
    e.y(i) = watts[static_cast<size_t>(i)];
  }
  return e;
}

// Refuses what least squares cannot answer: fewer equations than unknowns, an event never counted,
// columns the samples do not tell apart (rank below the unknowns, at a relative tolerance of 1e-9).
void check_determined(const Equations& e, const std::vector<std::string>& events, int pstate, const std::string& what)
{
  const std::string p = "pstate " + std::to_string(pstate);
  if (e.X.rows() < e.X.cols())
    throw InputError(what,
                     p + " has " + std::to_string(e.X.rows()) + " fitted intervals for " +
                         std::to_string(e.X.cols()) + " unknowns (P_static and one coefficient per event)",
                     "log more intervals (every 5th is held out)");
  for (Eigen::Index j = 1; j < e.X.cols(); ++j)
    if (e.X.col(j).cwiseAbs().maxCoeff() == 0)
      throw InputError(what, "event " + events[static_cast<size_t>(j - 1)] + " is never counted in " + p,
                       "drop the event or log a workload that triggers it");
  Eigen::MatrixXd scaled = e.X;
  for (Eigen::Index j = 0; j < scaled.cols(); ++j)
    scaled.col(j) /= scaled.col(j).norm();
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(scaled);
  qr.setThreshold(1e-9);
  if (qr.rank() < scaled.cols())
    throw InputError(what,
                     p + ": the samples cannot tell the events apart (design rank " + std::to_string(qr.rank()) +
                         " of " + std::to_string(scaled.cols()) + ")",
                     "log workloads whose event rates vary independently, or fit fewer events");
}

double r_squared(const Equations& e, const Eigen::VectorXd& x)
{
  const double mean = e.y.mean();
  const double ss_res = (e.y - e.X * x).squaredNorm();
  const double ss_tot = (e.y.array() - mean).square().sum();
  return ss_tot > 0 ? 1 - ss_res / ss_tot : (ss_res == 0 ? 1 : 0);
}

PstateFit fit_pstate(const std::vector<const CounterInterval*>& rows, const std::vector<double>& watts,
                     const std::vector<std::string>& events, int pstate, const std::string& what)
{
  std::vector<const CounterInterval*> fit_rows, test_rows;
  std::vector<double> fit_w, test_w;
  for (size_t i = 0; i < rows.size(); ++i) {
    const bool held = (i + 1) % kHoldOutEvery == 0;
    (held ? test_rows : fit_rows).push_back(rows[i]);
    (held ? test_w : fit_w).push_back(watts[i]);
  }
  const Equations train = equations(fit_rows, fit_w);
  check_determined(train, events, pstate, what);
  if (test_rows.empty())
    throw InputError(what, "pstate " + std::to_string(pstate) + " has no held-out interval",
                     "log at least " + std::to_string(kHoldOutEvery) + " intervals per pstate");
  const NnlsResult r = nnls(train.X, train.y);
  if (!r.converged)
    throw InputError(what, "pstate " + std::to_string(pstate) + ": the non-negative fit did not converge",
                     "check the logs (units, alignment)");
  PstateFit f;
  f.p_static = r.x(0);
  for (Eigen::Index j = 1; j < r.x.size(); ++j)
    f.coefficients.push_back(r.x(j));
  f.fitted   = fit_rows.size();
  f.held_out = test_rows.size();
  f.r2       = r_squared(train, r.x);
  const Equations test = equations(test_rows, test_w);
  const Eigen::VectorXd err = test.X * r.x - test.y;
  f.held_out_rms_w = std::sqrt(err.squaredNorm() / static_cast<double>(err.size()));
  for (Eigen::Index i = 0; i < err.size(); ++i)
    f.held_out_max_rel = std::max(f.held_out_max_rel, std::abs(err(i)) / std::max(test.y(i), 1e-300));
  return f;
}

} // namespace

CounterSamples parse_counter_samples(const std::string& text, const std::string& file)
{
  CounterSamples s;
  s.events = header_events(text, file);
  std::string header = "start_s,end_s,pstate";
  for (auto const& e : s.events)
    header += "," + e;
  const TableFormat format{header, kLayout, "give one count per event"};
  for_each_measurement(text, file, format, kLayout,
                       [&](const std::vector<std::string>& f, const std::string& where, size_t line) {
                         s.intervals.push_back(parse_interval(f, where, line));
                       });
  if (s.intervals.empty())
    throw InputError(file, "holds no interval", kLayout);
  return s;
}

double mean_power(const PowerLog& log, double start, double end)
{
  double energy = 0; // each sample holds until the next one
  for (size_t i = 0; i + 1 < log.time.size(); ++i) {
    const double lo = std::max(start, log.time[i]), hi = std::min(end, log.time[i + 1]);
    if (hi > lo)
      energy += log.watts[i] * (hi - lo);
  }
  return energy / (end - start);
}

CounterFit fit_counter_model(const PowerLog& power, const CounterSamples& samples, const std::string& what)
{
  CounterFit fit;
  fit.events = samples.events;
  std::vector<std::vector<const CounterInterval*>> rows;
  std::vector<std::vector<double>> watts;
  for (auto const& c : samples.intervals) {
    if (c.start < power.time.front() || c.end > power.time.back()) {
      ++fit.skipped;
      continue;
    }
    if (rows.size() <= static_cast<size_t>(c.pstate)) {
      rows.resize(static_cast<size_t>(c.pstate) + 1);
      watts.resize(static_cast<size_t>(c.pstate) + 1);
    }
    rows[static_cast<size_t>(c.pstate)].push_back(&c);
    watts[static_cast<size_t>(c.pstate)].push_back(mean_power(power, c.start, c.end));
  }
  if (rows.empty())
    throw InputError(what, "the power log does not cover any counter interval",
                     "log power and counters over the same time, on the same clock");
  for (size_t p = 0; p < rows.size(); ++p) {
    if (rows[p].empty())
      throw InputError(what, "pstate " + std::to_string(p) + " has no interval covered by the power log",
                       "number pstates 0, 1, ... without gaps and log each");
    fit.pstates.push_back(fit_pstate(rows[p], watts[p], samples.events, static_cast<int>(p), what));
  }
  return fit;
}

} // namespace haec::calibration
