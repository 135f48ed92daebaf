#include "plan_fill.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace haec::dvfs {
namespace {

constexpr int kSteps      = 48;   // steps of the common stretch over the useful range
constexpr int kRounds     = 20;   // tries per step to tell the tight computations from the pushed ones
constexpr double kBand    = 0.01; // of a step: computations stopping this close to the first stop are tight too
constexpr double kInf     = std::numeric_limits<double>::infinity();
constexpr double kNoGain  = 1e-9; // a stretch this close to 1 slows nothing

// The program's graph in topological order, with each task's predecessors and successors.
struct Graph {
  std::vector<size_t> order;                     // tasks, every edge from an earlier one to a later one
  std::vector<size_t> pred_first, succ_first;    // CSR offsets by task (size n + 1)
  std::vector<size_t> pred_task, succ_task;      // the other end
  std::vector<double> pred_delay, succ_delay;
};

// Kahn's algorithm; false when the edges have a cycle (no schedule).
bool topological(const PlanProblem& p, Graph& g)
{
  const size_t n = p.tasks.size();
  g.pred_first.assign(n + 1, 0);
  g.succ_first.assign(n + 1, 0);
  for (auto const& e : p.edges) {
    ++g.pred_first[e.to + 1];
    ++g.succ_first[e.from + 1];
  }
  for (size_t k = 0; k < n; ++k) {
    g.pred_first[k + 1] += g.pred_first[k];
    g.succ_first[k + 1] += g.succ_first[k];
  }
  g.pred_task.resize(p.edges.size());
  g.succ_task.resize(p.edges.size());
  g.pred_delay.resize(p.edges.size());
  g.succ_delay.resize(p.edges.size());
  std::vector<size_t> pn(g.pred_first.begin(), g.pred_first.end() - 1), sn(g.succ_first.begin(), g.succ_first.end() - 1);
  for (auto const& e : p.edges) {
    g.pred_task[pn[e.to]]     = e.from;
    g.pred_delay[pn[e.to]++]  = e.delay;
    g.succ_task[sn[e.from]]   = e.to;
    g.succ_delay[sn[e.from]++] = e.delay;
  }
  std::vector<size_t> missing(n);
  g.order.clear();
  for (size_t k = 0; k < n; ++k)
    if ((missing[k] = g.pred_first[k + 1] - g.pred_first[k]) == 0)
      g.order.push_back(k);
  for (size_t i = 0; i < g.order.size(); ++i)
    for (size_t s = g.succ_first[g.order[i]]; s < g.succ_first[g.order[i] + 1]; ++s)
      if (--missing[g.succ_task[s]] == 0)
        g.order.push_back(g.succ_task[s]);
  return g.order.size() == n;
}

// Total float of every task with the given durations: latest end (dues backwards) minus earliest end.
void total_float(const PlanProblem& p, const Graph& g, const std::vector<double>& d, std::vector<double>& end,
                 std::vector<double>& late, std::vector<double>& tf)
{
  for (size_t k : g.order) {
    double start = p.tasks[k].earliest;
    for (size_t i = g.pred_first[k]; i < g.pred_first[k + 1]; ++i)
      start = std::max(start, end[g.pred_task[i]] + g.pred_delay[i]);
    end[k] = start + d[k];
  }
  for (auto it = g.order.rbegin(); it != g.order.rend(); ++it) {
    const size_t k = *it;
    double latest  = p.tasks[k].due;
    for (size_t i = g.succ_first[k]; i < g.succ_first[k + 1]; ++i) {
      const size_t s = g.succ_task[i];
      latest         = std::min(latest, late[s] - d[s] - g.succ_delay[i]);
    }
    late[k] = latest;
    tf[k]   = latest - end[k];
  }
}

// Progressive filling of the `free` tasks' stretch from 1, the other tasks keeping their durations d.
void fill(const PlanProblem& p, const Graph& g, const std::vector<double>& cap, double eps, std::vector<size_t> free,
          std::vector<double>& d)
{
  const size_t n = p.tasks.size();
  std::vector<double> end(n), late(n), tf(n);
  total_float(p, g, d, end, late, tf);
  double top = 1;
  for (size_t k : free)
    top = std::max(top, cap[p.tasks[k].rank]);
  const double step = (top - 1) / kSteps;
  std::vector<double> before = tf; // each free task's float at the current stretch, the others as they are
  double sigma = 1;
  while (!free.empty()) {
    double next = sigma + step;
    for (size_t k : free)
      next = std::min(next, cap[p.tasks[k].rank]); // a cap is a step's end: the float stays linear in it
    for (int round = 1;; ++round) {
      for (size_t k : free)
        d[k] = p.tasks[k].work * next;
      total_float(p, g, d, end, late, tf);
      // Where a path through it misses a due, a task stops where the chord of its float crosses 0.
      // The first to stop are tight; the others may only have been pushed by them: they stop too
      // only after kRounds tries, else they go on from the stops made.
      double first_stop = 1;
      for (size_t k : free)
        if (tf[k] < -eps)
          first_stop = std::min(first_stop, std::max(0.0, before[k]) / (std::max(0.0, before[k]) - tf[k]));
      if (first_stop >= 1)
        break;
      std::vector<size_t> going;
      for (size_t k : free) {
        const double a = std::max(0.0, before[k]), root = tf[k] < -eps ? a / (a - tf[k]) : 1;
        if (root <= first_stop + kBand || (round == kRounds && root < 1))
          d[k] = p.tasks[k].work * (sigma + (next - sigma) * root);
        else
          going.push_back(k);
      }
      free.swap(going);
      if (round == kRounds || free.empty())
        break;
      for (size_t k : free) // the floats at the step's start with the stops made (they lie within it)
        d[k] = p.tasks[k].work * sigma;
      total_float(p, g, d, end, late, before);
    }
    std::vector<size_t> going;
    for (size_t k : free)
      if (next < cap[p.tasks[k].rank] - kNoGain) {
        going.push_back(k);
        before[k] = tf[k];
      }
    free.swap(going);
    sigma = next;
  }
}

} // namespace

double cheapest_stretch(const std::vector<PlanLevel>& levels)
{
  double best = kInf, stretch = 1;
  for (auto const& l : levels) {
    const double per_work = l.seconds_per_work * l.extra_watts;
    if (!(per_work >= best - 1e-12 * std::abs(per_work)) || (per_work <= best && l.seconds_per_work < stretch)) {
      best    = per_work;
      stretch = l.seconds_per_work;
    }
  }
  return std::max(1.0, stretch);
}

double plan_energy(const std::vector<PlanLevel>& levels, double work, double seconds)
{
  const double s = work > 0 ? seconds / work : 1;
  double best    = kInf;
  for (auto const& a : levels)
    for (auto const& b : levels) {
      if (a.seconds_per_work > s + 1e-12 || b.seconds_per_work < s - 1e-12)
        continue;
      const double span = b.seconds_per_work - a.seconds_per_work;
      const double x    = span > 0 ? (s - a.seconds_per_work) / span : 0; // share of the work at b
      best = std::min(best, (1 - x) * a.seconds_per_work * a.extra_watts + x * b.seconds_per_work * b.extra_watts);
    }
  return best * work;
}

std::optional<std::vector<double>> fill_plan(const PlanProblem& p)
{
  const size_t n = p.tasks.size();
  Graph g;
  if (!topological(p, g))
    return std::nullopt;
  std::vector<double> cap(p.levels.size());
  for (size_t r = 0; r < p.levels.size(); ++r)
    cap[r] = cheapest_stretch(p.levels[r]);
  std::vector<double> d(n), end(n), late(n), tf(n);
  for (size_t k = 0; k < n; ++k)
    d[k] = p.tasks[k].fixed >= 0 ? p.tasks[k].fixed : p.tasks[k].work;
  total_float(p, g, d, end, late, tf);
  double horizon = 0;
  for (size_t k = 0; k < n; ++k)
    horizon = std::max(horizon, std::max(std::abs(end[k]), std::abs(p.tasks[k].earliest)));
  const double eps = 1e-9 * std::max(horizon, 1e-9);
  for (size_t k = 0; k < n; ++k)
    if (tf[k] < -eps)
      return std::nullopt; // a due missed even racing
  // Stage by stage: a stage's tasks take their float before the later stages' (still racing) do.
  std::vector<int> stages;
  for (auto const& t : p.tasks)
    stages.push_back(t.stage);
  std::sort(stages.begin(), stages.end());
  stages.erase(std::unique(stages.begin(), stages.end()), stages.end());
  for (int stage : stages) {
    std::vector<size_t> free;
    for (size_t k = 0; k < n; ++k) {
      const PlanTask& t = p.tasks[k];
      if (t.stage == stage && t.fixed < 0 && t.work > 0 && cap[t.rank] > 1 + kNoGain)
        free.push_back(k);
    }
    fill(p, g, cap, eps, std::move(free), d);
  }
  // Every path meets its due by construction; checked, since the plan is applied as it is.
  total_float(p, g, d, end, late, tf);
  for (size_t k = 0; k < n; ++k)
    if (tf[k] < -10 * eps) {
      for (size_t j = 0; j < n; ++j)
        d[j] = p.tasks[j].fixed >= 0 ? p.tasks[j].fixed : p.tasks[j].work;
      break;
    }
  return d;
}

} // namespace haec::dvfs
