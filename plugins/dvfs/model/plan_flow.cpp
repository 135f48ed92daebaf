#include "plan_flow.hpp"

// GCC 12 sees SmartDigraph's node records as maybe uninitialized when they are appended (a false
// positive inside LEMON's headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <lemon/network_simplex.h>
#include <lemon/smart_graph.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace haec::dvfs {
namespace {

using Graph   = lemon::SmartDigraph;
using Integer = long long;
using Simplex = lemon::NetworkSimplex<Graph, Integer, Integer>;

// Quanta: a time span of up to kTimeQuanta quanta and slopes of up to kWattQuanta quanta keep
// every cost (<= 2 kTimeQuanta) times the flow through the finite arcs (<= kWattQuanta per task)
// below 2^63 for up to 4e5 tasks.
constexpr double kTimeQuanta = 1e9;
constexpr double kWattQuanta = 1e4;

// Kahn's order of the tasks; empty when the edges have a cycle.
std::vector<size_t> topological(const PlanProblem& p)
{
  const size_t n = p.tasks.size();
  std::vector<size_t> missing(n, 0), first(n + 1, 0), next(p.edges.size()), order;
  for (auto const& e : p.edges) {
    ++missing[e.to];
    ++first[e.from + 1];
  }
  for (size_t k = 0; k < n; ++k)
    first[k + 1] += first[k];
  std::vector<size_t> fill(first.begin(), first.end() - 1);
  for (auto const& e : p.edges)
    next[fill[e.from]++] = e.to;
  for (size_t k = 0; k < n; ++k)
    if (missing[k] == 0)
      order.push_back(k);
  for (size_t i = 0; i < order.size(); ++i)
    for (size_t s = first[order[i]]; s < first[order[i] + 1]; ++s)
      if (--missing[next[s]] == 0)
        order.push_back(next[s]);
  if (order.size() != n)
    order.clear();
  return order;
}

// The longest a task may take: fixed, or its work at the curve's last stretch.
double longest(const PlanTask& t, const std::vector<CurvePoint>& curve)
{
  return t.fixed >= 0 ? t.fixed : t.work * curve.back().stretch;
}

// Every task's earliest end with the given durations.
template <class Seconds>
std::vector<double> forward(const PlanProblem& p, const std::vector<size_t>& order, Seconds seconds)
{
  const size_t n = p.tasks.size();
  std::vector<double> start(n), end(n);
  std::vector<std::vector<std::pair<size_t, double>>> succ(n);
  for (auto const& e : p.edges)
    succ[e.from].push_back({e.to, e.delay});
  for (size_t k = 0; k < n; ++k)
    start[k] = p.tasks[k].earliest;
  for (size_t k : order) {
    end[k] = start[k] + seconds(p.tasks[k]);
    for (auto const& [to, delay] : succ[k])
      start[to] = std::max(start[to], end[k] + delay);
  }
  return end;
}

// The shortest a task may take: fixed, or its work.
double shortest(const PlanTask& t) { return t.fixed >= 0 ? t.fixed : t.work; }

} // namespace

std::vector<CurvePoint> energy_curve(const std::vector<PlanLevel>& levels)
{
  std::vector<CurvePoint> points;
  for (auto const& l : levels)
    points.push_back({l.seconds_per_work, l.seconds_per_work * l.extra_watts});
  std::sort(points.begin(), points.end(), [](auto const& a, auto const& b) {
    return a.stretch < b.stretch || (a.stretch == b.stretch && a.energy < b.energy);
  });
  std::vector<CurvePoint> hull; // lower hull, left to right, stopping at the least energy
  for (auto const& q : points) {
    if (!hull.empty() && q.stretch <= hull.back().stretch)
      continue; // the same stretch, dearer
    if (!hull.empty() && q.energy >= hull.back().energy)
      continue; // slower and not cheaper: beyond the least (a later cheaper point re-enters)
    while (hull.size() >= 2) { // drop the last point when it lies on or above the chord
      const CurvePoint &a = hull[hull.size() - 2], &b = hull.back();
      if ((b.energy - a.energy) * (q.stretch - a.stretch) >= (q.energy - a.energy) * (b.stretch - a.stretch))
        hull.pop_back();
      else
        break;
    }
    hull.push_back(q);
  }
  return hull;
}

double curve_energy(const std::vector<CurvePoint>& curve, double work, double seconds)
{
  const double s = work > 0 ? seconds / work : curve.front().stretch;
  if (s <= curve.front().stretch)
    return curve.front().energy * work;
  for (size_t i = 1; i < curve.size(); ++i)
    if (s <= curve[i].stretch) {
      const double x = (s - curve[i - 1].stretch) / (curve[i].stretch - curve[i - 1].stretch);
      return ((1 - x) * curve[i - 1].energy + x * curve[i].energy) * work;
    }
  return curve.back().energy * work;
}

std::optional<std::vector<double>> flow_plan(const PlanProblem& p)
{
  const size_t n = p.tasks.size();
  if (n == 0)
    return std::vector<double>{};
  const std::vector<size_t> order = topological(p);
  if (order.empty())
    return std::nullopt;
  std::vector<std::vector<CurvePoint>> curves;
  double steepest = 0; // the largest slope, watts
  for (auto const& levels : p.levels) {
    curves.push_back(energy_curve(levels));
    const auto& c = curves.back();
    if (c.size() >= 2)
      steepest = std::max(steepest, (c[0].energy - c[1].energy) / (c[1].stretch - c[0].stretch));
  }
  // The span of the times: from the earliest start to the last end with every task at its longest.
  double origin = std::numeric_limits<double>::infinity(), last = 0;
  for (auto const& t : p.tasks)
    origin = std::min(origin, t.earliest);
  for (double e : forward(p, order, [&](const PlanTask& t) { return longest(t, curves[t.rank]); }))
    last = std::max(last, e);
  const double second = kTimeQuanta / std::max(last - origin, 1e-9); // quanta per second
  const double watt   = steepest > 0 ? kWattQuanta / steepest : 1.0;  // quanta per watt
  auto at             = [&](double t) { return static_cast<Integer>(std::llround((t - origin) * second)); };
  auto span           = [&](double s) { return static_cast<Integer>(std::llround(s * second)); };

  // Racing ends, exact and in quanta: a due met racing (within 1e-9 of the span) stays met once
  // rounded, where the roundings along a chain would otherwise add up beyond it.
  const std::vector<double> racing = forward(p, order, shortest);
  std::vector<Integer> racing_q(n);
  {
    PlanProblem q = p; // the program as rounded, in quanta
    for (auto& t : q.tasks) {
      t.earliest = static_cast<double>(at(t.earliest));
      t.work     = static_cast<double>(span(t.work));
      if (t.fixed >= 0)
        t.fixed = static_cast<double>(span(t.fixed));
    }
    for (auto& e : q.edges)
      e.delay = static_cast<double>(span(e.delay));
    const std::vector<double> ends = forward(q, order, shortest);
    for (size_t k = 0; k < n; ++k)
      racing_q[k] = static_cast<Integer>(ends[k]);
  }
  const double tolerance = 1e-9 * std::max(last - origin, 1e-9);
  auto due              = [&](size_t k) {
    const double d = p.tasks[k].due;
    return racing[k] <= d + tolerance ? std::max(at(d), racing_q[k]) : at(d);
  };

  Graph g;
  g.reserveNode(static_cast<int>(2 * n + 1));
  g.reserveArc(static_cast<int>(n * 16 + p.edges.size()));
  Graph::ArcMap<Integer> cost(g), upper(g);
  const Integer inf = std::numeric_limits<Integer>::max();
  const Graph::Node origin_node = g.addNode();
  std::vector<Graph::Node> a(n), b(n);
  auto arc = [&](Graph::Node from, Graph::Node to, Integer c, Integer u) {
    const Graph::Arc e = g.addArc(from, to);
    cost[e]            = c;
    upper[e]           = u;
  };
  for (size_t k = 0; k < n; ++k) {
    a[k] = g.addNode();
    b[k] = g.addNode();
  }
  for (size_t k = 0; k < n; ++k) {
    const PlanTask& t = p.tasks[k];
    const auto& curve = curves[t.rank];
    const bool fixed  = t.fixed >= 0 || t.work <= 0 || curve.size() < 2;
    const Integer least = span(shortest(t));
    arc(b[k], a[k], -least, inf);
    arc(a[k], b[k], fixed ? least : std::max(least, span(t.work * curve.back().stretch)), inf);
    if (!fixed)
      for (size_t i = 1; i < curve.size(); ++i) {
        const double slope      = (curve[i].energy - curve[i - 1].energy) / (curve[i].stretch - curve[i - 1].stretch);
        const double next_slope = i + 1 < curve.size() ? (curve[i + 1].energy - curve[i].energy) /
                                                             (curve[i + 1].stretch - curve[i].stretch)
                                                       : 0.0;
        const Integer beta = std::llround((next_slope - slope) * watt);
        if (beta > 0)
          arc(b[k], a[k], -std::max(least, span(t.work * curve[i].stretch)), beta);
      }
    arc(a[k], origin_node, -at(t.earliest), inf);
    if (std::isfinite(t.due))
      arc(origin_node, b[k], due(k), inf);
  }
  for (auto const& e : p.edges)
    arc(a[e.to], b[e.from], -span(e.delay), inf);

  Simplex simplex(g);
  simplex.costMap(cost).upperMap(upper);
  // First eligible: on these programs (a few hundred nodes, ten arcs per task) about half the
  // instructions of LEMON's default block search.
  if (simplex.run(Simplex::FIRST_ELIGIBLE) != Simplex::OPTIMAL)
    return std::nullopt; // a negative cycle of hard constraints: a due missed even racing
  std::vector<double> seconds(n);
  for (size_t k = 0; k < n; ++k) {
    const PlanTask& t = p.tasks[k];
    if (t.fixed >= 0)
      seconds[k] = t.fixed;
    else
      seconds[k] = std::clamp(static_cast<double>(simplex.potential(b[k]) - simplex.potential(a[k])) / second, t.work,
                              longest(t, curves[t.rank]));
  }
  return seconds;
}

} // namespace haec::dvfs
