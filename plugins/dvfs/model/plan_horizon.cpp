#include "plan_horizon.hpp"

#include "plan_fill.hpp"
#include "plan_flow.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace haec::dvfs {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

} // namespace

HorizonPlanner::HorizonPlanner(int horizon, double cap, size_t max_tasks, Solver solver, size_t lookahead,
                               size_t scale_ranks)
    : given_horizon_(horizon), horizon_(horizon), cap_(cap), max_tasks_(max_tasks), solver_(solver), lookahead_(lookahead), scale_ranks_(scale_ranks)
{
  if (horizon_ < 1)
    throw std::invalid_argument("plan horizon must be at least one iteration");
}

int HorizonPlanner::scaled_horizon(int horizon, size_t scale_ranks, size_t ranks)
{
  return scale_ranks > 0 && ranks >= scale_ranks ? horizon + 1 : horizon;
}

double HorizonPlanner::scaled_cap(double cap, size_t scale_ranks, size_t ranks)
{
  if (cap < 0 || scale_ranks == 0)
    return cap;
  return cap * std::max(1.0, static_cast<double>(ranks) / static_cast<double>(scale_ranks));
}

HorizonPlanner::Solver HorizonPlanner::solver(const std::string& name)
{
  if (name == "lp")
    return Solver::lp;
  if (name == "fill")
    return Solver::fill;
  if (name == "flow")
    return Solver::flow;
  throw std::invalid_argument("plan solver '" + name + "' is not flow, lp or fill");
}

void HorizonPlanner::rank_levels(size_t rank, std::vector<PlanLevel> levels)
{
  if (rank >= levels_.size()) {
    levels_.resize(rank + 1);
    ranks_.resize(rank + 1);
    pending_.resize(rank + 1);
  }
  levels_[rank] = std::move(levels);
}

void HorizonPlanner::message(size_t from_rank, size_t from_index, size_t to_rank, size_t to_index, double delay)
{
  if (from_rank >= ranks_.size() || to_rank >= ranks_.size() || from_index >= ranks_[from_rank].size())
    return; // a rank not planned, or a message sent before its first computation
  pending_[to_rank].push_back({to_index, Pred{from_rank, from_index, delay}});
}

void HorizonPlanner::computation(size_t rank, size_t iteration, size_t position, double start, double end,
                                 double race)
{
  if (rank >= ranks_.size() || levels_[rank].empty())
    throw std::invalid_argument("plan: a computation of a rank without levels");
  auto& mine = ranks_[rank];
  Computation c{iteration, position, start, end, race, 0, {}};
  auto& inbox = pending_[rank];
  for (auto it = inbox.begin(); it != inbox.end();)
    if (it->first == mine.size()) {
      c.preds.push_back(it->second);
      it = inbox.erase(it);
    } else {
      ++it;
    }
  // Racing: it starts when its messages and its rank's previous computation allow.
  double race_start = start;
  if (!mine.empty()) {
    gap_       = std::min(gap_, std::max(0.0, start - mine.back().end));
    race_start = mine.back().race_end + gap_;
  }
  for (auto const& p : c.preds)
    race_start = std::max(race_start, ranks_[p.rank][p.index].race_end + p.delay);
  if (!mine.empty() || !c.preds.empty())
    c.race_end = race_start + race;
  else
    c.race_end = start + race;
  mine.push_back(std::move(c));
}

const HorizonPlanner::Computation* HorizonPlanner::find(size_t rank, size_t iteration, size_t position) const
{
  for (auto it = ranks_[rank].rbegin(); it != ranks_[rank].rend(); ++it) {
    if (it->iteration == iteration && it->position == position)
      return &*it;
    if (it->iteration < iteration)
      break;
  }
  return nullptr;
}

double HorizonPlanner::stretch(size_t rank, size_t iteration, size_t position, double work) const
{
  auto it = stretch_.find(iteration);
  if (it == stretch_.end() || rank + 1 >= it->second.first.size())
    return -1;
  const IterationPlan& plan = it->second;
  const size_t at           = plan.first[rank] + position;
  if (at >= plan.first[rank + 1])
    return -1;
  const Planned& p = plan.planned[at];
  if (p.stretch < 0)
    return -1;
  return work > p.work ? std::max(1.0, p.stretch * p.work / work) : p.stretch;
}

// The template: iteration j's computations of every rank, in the order they started (a
// topological order of its messages); period: racing seconds per iteration, the most any rank's
// iteration j took racing. Empty when a rank has no computation in j or j - 1.
HorizonPlanner::Pattern HorizonPlanner::pattern(size_t j, double& period) const
{
  Pattern out;
  period = 0;
  for (size_t r = 0; r < ranks_.size(); ++r) {
    if (levels_[r].empty())
      continue; // not a rank of the run
    const Computation *last = nullptr, *before = nullptr;
    std::vector<const Computation*> in_j; // newest first: only the last iterations are read
    for (auto it = ranks_[r].rbegin(); it != ranks_[r].rend() && it->iteration + 1 >= j; ++it) {
      if (it->iteration == j) {
        in_j.push_back(&*it);
        if (last == nullptr)
          last = &*it;
      } else if (j > 0 && it->iteration == j - 1 && before == nullptr) {
        before = &*it;
      }
    }
    for (auto c = in_j.rbegin(); c != in_j.rend(); ++c)
      out.push_back({r, *c});
    if (last == nullptr || before == nullptr)
      return {};
    period = std::max(period, last->race_end - before->race_end);
  }
  std::stable_sort(out.begin(), out.end(), [](auto const& a, auto const& b) { return a.second->start < b.second->start; });
  return out;
}

HorizonPlanner::Horizon HorizonPlanner::build(size_t j, const Pattern& pattern) const
{
  Horizon h;
  h.problem.levels  = levels_;
  const size_t size = pattern.size();
  std::vector<std::vector<size_t>> entry(ranks_.size()); // by rank and position: its pattern entry
  std::vector<size_t> last_position(ranks_.size(), 0);
  for (size_t e = 0; e < size; ++e) {
    auto const& [rank, c] = pattern[e];
    if (c->position >= entry[rank].size())
      entry[rank].resize(c->position + 1, kNone);
    entry[rank][c->position] = e;
    last_position[rank]      = c->position;
  }
  // The iteration under way, the horizon, and the lookahead: its racing schedule bounds the
  // horizon's last computations (set_dues), then it is dropped.
  const size_t first = j + 1, planned = static_cast<size_t>(horizon_) + 1 + lookahead_;
  h.problem.tasks.reserve(size * planned);
  h.anchored.reserve(size * planned);
  h.from_state.reserve(size * planned);
  for (size_t i = 0; i < planned; ++i)
    for (size_t e = 0; e < size; ++e) {
      auto const& [rank, c] = pattern[e];
      const size_t t = first + i, k = h.problem.tasks.size();
      PlanTask task;
      task.rank  = rank;
      task.work  = c->race;
      task.stage = static_cast<int>(i); // the first planned iteration takes its float first
      if (t == first) { // under way with the plan it got
        const double s = stretch(rank, t, c->position);
        task.fixed     = c->race * (s > 0 ? s : 1.0);
      }
      double race_start = 0, state_start = 0;
      auto need = [&](size_t from_rank, size_t from_iteration, size_t from_position, double delay) {
        const auto& mine = entry[from_rank];
        if (from_iteration >= first && from_iteration < first + planned && from_position < mine.size() &&
            mine[from_position] != kNone) {
          const size_t in = (from_iteration - first) * size + mine[from_position];
          if (in < k) { // planned before this one (the tasks stay in topological order)
            h.problem.edges.push_back(PlanEdge{in, k, delay});
            race_start  = std::max(race_start, h.anchored[in] + delay);
            state_start = std::max(state_start, h.from_state[in] + delay);
            return;
          }
        }
        if (const Computation* seen = find(from_rank, from_iteration, from_position)) {
          task.earliest = std::max(task.earliest, seen->end + delay);
          race_start    = std::max(race_start, seen->race_end + delay);
          state_start   = std::max(state_start, seen->end + delay);
        }
      };
      for (auto const& p : c->preds) { // the same messages, shifted by as many iterations
        const Computation& from = ranks_[p.rank][p.index];
        need(p.rank, t - (j - from.iteration), from.position, p.delay);
      }
      if (c->position > 0) // its rank's previous computation
        need(rank, t, c->position - 1, gap_);
      else
        need(rank, t - 1, last_position[rank], gap_);
      h.anchored.push_back(race_start + task.work);
      h.from_state.push_back(state_start + (task.fixed >= 0 ? task.fixed : task.work));
      h.problem.tasks.push_back(task);
    }
  return h;
}

// A rank's last planned computation ends by its racing end or, with a lookahead, by its latest
// end in the racing schedule of the lookahead's iterations (each rank's last one due by its racing
// end): its total float there. The others end by their racing end plus cap iterations; none
// earlier than racing from the measured state allows. The iteration under way (the pattern's first
// copy) is fixed. The lookahead's copies are dropped here.
void HorizonPlanner::set_dues(Horizon& h, const Pattern& pattern, double period, double cap) const
{
  auto& tasks       = h.problem.tasks;
  auto& edges       = h.problem.edges;
  const size_t size = pattern.size(), kept = size * static_cast<size_t>(horizon_ + 1), n = tasks.size();
  // Latest ends, backwards: the edges come in the order of their `to` (build), so every edge
  // out of a task is relaxed before the edges into it.
  std::vector<double> latest(n, std::numeric_limits<double>::infinity());
  for (size_t k = n - size; k < n && n > kept; ++k)
    latest[k] = h.anchored[k];
  for (auto e = edges.rbegin(); e != edges.rend() && e->to >= kept; ++e)
    latest[e->from] = std::min(latest[e->from], latest[e->to] - tasks[e->to].work - e->delay);
  tasks.resize(kept);
  h.anchored.resize(kept);
  h.from_state.resize(kept);
  edges.erase(std::remove_if(edges.begin(), edges.end(), [&](const PlanEdge& e) { return e.to >= kept; }), edges.end());
  std::vector<size_t> last_of_rank(ranks_.size(), 0);
  for (size_t k = 0; k < kept; ++k)
    last_of_rank[tasks[k].rank] = k;
  for (size_t k = size; k < kept; ++k) {
    if (last_of_rank[tasks[k].rank] == k) {
      const double end = std::isfinite(latest[k]) ? std::max(h.anchored[k], latest[k]) : h.anchored[k];
      tasks[k].due     = std::max(end, h.from_state[k]);
    }
    else if (cap >= 0)
      tasks[k].due = std::max(h.anchored[k] + cap * period, h.from_state[k]);
  }
}

// How much later than racing the last computation of iteration j ended.
double HorizonPlanner::run_lag(size_t j) const
{
  double end = 0, race_end = 0;
  for (auto const& mine : ranks_)
    for (auto it = mine.rbegin(); it != mine.rend() && it->iteration >= j; ++it)
      if (it->iteration == j) {
        end      = std::max(end, it->end);
        race_end = std::max(race_end, it->race_end);
      }
  return end - race_end;
}

// Up to iteration j, the last end and the last racing end agree (every computation raced so far).
bool HorizonPlanner::explains(size_t j) const
{
  double end = 0, race_end = 0;
  for (auto const& mine : ranks_)
    for (auto const& c : mine)
      if (c.iteration <= j) {
        end      = std::max(end, c.end);
        race_end = std::max(race_end, c.race_end);
      }
  return end > 0 && std::abs(race_end / end - 1) <= 1e-4;
}

std::optional<std::vector<double>> HorizonPlanner::solve(const PlanProblem& problem) const
{
  if (solver_ == Solver::flow)
    return flow_plan(problem);
  if (solver_ == Solver::fill)
    return fill_plan(problem);
  const auto levels = solve_plan(problem);
  if (!levels)
    return std::nullopt;
  std::vector<double> seconds;
  seconds.reserve(levels->size());
  for (auto const& s : *levels)
    seconds.push_back(std::accumulate(s.begin(), s.end(), 0.0));
  return seconds;
}

bool HorizonPlanner::plan_after(size_t j)
{
  if (refused_)
    return false;
  if (!checked_ && j >= 1) {
    checked_ = true;
    refused_ = !explains(j);
    if (refused_)
      return false;
  }
  const size_t ranks = static_cast<size_t>(
      std::count_if(levels_.begin(), levels_.end(), [](auto const& l) { return !l.empty(); }));
  if (plans_ == 0) // every rank has reported its levels by now
    horizon_ = scaled_horizon(given_horizon_, scale_ranks_, ranks);
  double period = 0;
  const Pattern template_ = pattern(j, period);
  if (template_.empty())
    return false;
  if (template_.size() * static_cast<size_t>(horizon_ + 1) > max_tasks_) {
    too_large_ = refused_ = true;
    return false;
  }
  // The run's lag behind racing grew since the last plan: the prediction failed somewhere (work
  // that moved); plan this time without lateness inside the horizon.
  const double lag = run_lag(j);
  const bool grew  = last_lag_ >= 0 && lag > last_lag_ + 1e-3 * period;
  last_lag_        = lag;
  Horizon h = build(j, template_);
  set_dues(h, template_, period, grew ? 0.0 : scaled_cap(cap_, scale_ranks_, ranks));
  const auto seconds = solve(h.problem);
  if (!seconds)
    return false;
  stretch_.erase(stretch_.begin(), stretch_.upper_bound(j)); // over (j + 1 is under way)
  IterationPlan shape; // every planned iteration has the template's computations
  shape.first.assign(ranks_.size() + 1, 0);
  for (auto const& [rank, c] : template_)
    shape.first[rank + 1] = std::max(shape.first[rank + 1], c->position + 1);
  for (size_t r = 0; r < ranks_.size(); ++r)
    shape.first[r + 1] += shape.first[r];
  shape.planned.assign(shape.first.back(), Planned{-1, 0});
  const size_t size = template_.size();
  for (size_t i = 1; i <= static_cast<size_t>(horizon_); ++i) {
    IterationPlan& plan = stretch_[j + 1 + i] = shape;
    for (size_t e = 0; e < size; ++e) {
      const size_t k    = i * size + e;
      const double work = h.problem.tasks[k].work;
      plan.planned[plan.first[template_[e].first] + template_[e].second->position] =
          Planned{work > 0 ? std::max(1.0, (*seconds)[k] / work) : 1.0, work};
    }
  }
  ++plans_;
  return true;
}

} // namespace haec::dvfs
