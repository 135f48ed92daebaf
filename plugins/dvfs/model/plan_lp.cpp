#include "plan_lp.hpp"

#include <glpk.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace haec::dvfs {
namespace {

// GLPK's sparse matrix, 1-based as it wants it.
struct Triplets {
  std::vector<int> row{0}, col{0};
  std::vector<double> value{0};
  void add(int r, int c, double v)
  {
    row.push_back(r);
    col.push_back(c);
    value.push_back(v);
  }
};

struct Columns {
  std::vector<int> first_y; // by task: the column of its level 0
  std::vector<int> start;   // by task
};

Columns add_columns(glp_prob* lp, const PlanProblem& p)
{
  Columns c;
  for (auto const& t : p.tasks) {
    const auto& levels = p.levels.at(t.rank);
    const int first = glp_add_cols(lp, static_cast<int>(levels.size()));
    c.first_y.push_back(first);
    for (size_t l = 0; l < levels.size(); ++l) {
      const int col = first + static_cast<int>(l);
      glp_set_obj_coef(lp, col, levels[l].extra_watts);
      glp_set_col_bnds(lp, col, GLP_LO, 0, 0);
    }
  }
  for (auto const& t : p.tasks) {
    const int col = glp_add_cols(lp, 1);
    c.start.push_back(col);
    glp_set_col_bnds(lp, col, GLP_LO, t.earliest, 0);
  }
  return c;
}

// s_k + (its seconds) as coefficients on row r
void add_end(Triplets& m, const PlanProblem& p, const Columns& c, size_t k, int r, double sign)
{
  m.add(r, c.start[k], sign);
  for (size_t l = 0; l < p.levels[p.tasks[k].rank].size(); ++l)
    m.add(r, c.first_y[k] + static_cast<int>(l), sign);
}

void add_rows(glp_prob* lp, const PlanProblem& p, const Columns& c, Triplets& m)
{
  for (size_t k = 0; k < p.tasks.size(); ++k) { // the work
    const int r        = glp_add_rows(lp, 1);
    const auto& levels = p.levels[p.tasks[k].rank];
    glp_set_row_bnds(lp, r, GLP_FX, p.tasks[k].work, p.tasks[k].work);
    for (size_t l = 0; l < levels.size(); ++l)
      m.add(r, c.first_y[k] + static_cast<int>(l), 1.0 / levels[l].seconds_per_work);
    if (p.tasks[k].fixed >= 0) { // its seconds
      const int f = glp_add_rows(lp, 1);
      glp_set_row_bnds(lp, f, GLP_FX, p.tasks[k].fixed, p.tasks[k].fixed);
      for (size_t l = 0; l < levels.size(); ++l)
        m.add(f, c.first_y[k] + static_cast<int>(l), 1.0);
    }
  }
  for (auto const& e : p.edges) { // s_to - end_from >= delay
    const int r = glp_add_rows(lp, 1);
    glp_set_row_bnds(lp, r, GLP_LO, e.delay, 0);
    m.add(r, c.start[e.to], 1.0);
    add_end(m, p, c, e.from, r, -1.0);
  }
  for (size_t k = 0; k < p.tasks.size(); ++k)
    if (std::isfinite(p.tasks[k].due)) { // end_k <= due
      const int r = glp_add_rows(lp, 1);
      glp_set_row_bnds(lp, r, GLP_UP, 0, p.tasks[k].due);
      add_end(m, p, c, k, r, 1.0);
    }
}


// The program in units GLPK's absolute tolerances (1e-7) suit: times from the earliest start, in
// units of the mean computation (microsecond computations 300 s into a run otherwise vanish).
PlanProblem normalised(const PlanProblem& p, double& unit)
{
  double origin = std::numeric_limits<double>::infinity(), work = 0;
  for (auto const& t : p.tasks) {
    origin = std::min(origin, t.earliest);
    work += t.work;
  }
  unit = work > 0 ? work / static_cast<double>(p.tasks.size()) : 1.0;
  PlanProblem n = p;
  for (auto& t : n.tasks) {
    t.work /= unit;
    t.earliest = (t.earliest - origin) / unit;
    if (std::isfinite(t.due))
      t.due = (t.due - origin) / unit;
    if (t.fixed >= 0)
      t.fixed /= unit;
  }
  for (auto& e : n.edges)
    e.delay /= unit;
  return n;
}

std::optional<std::vector<std::vector<double>>> solve_normalised(const PlanProblem& problem);

} // namespace

std::optional<std::vector<std::vector<double>>> solve_plan(const PlanProblem& problem)
{
  if (problem.tasks.empty())
    return std::vector<std::vector<double>>{};
  double unit = 1;
  auto seconds = solve_normalised(normalised(problem, unit));
  // GLPK keeps an environment of its own from its first call to the process's end, which leak
  // checkers report; with the program deleted, nothing uses it any more (it is rebuilt next time).
  glp_free_env();
  if (seconds)
    for (auto& task : *seconds)
      for (auto& s : task)
        s *= unit;
  return seconds;
}

namespace {

std::optional<std::vector<std::vector<double>>> solve_normalised(const PlanProblem& problem)
{
  std::unique_ptr<glp_prob, void (*)(glp_prob*)> lp(glp_create_prob(), glp_delete_prob);
  glp_set_obj_dir(lp.get(), GLP_MIN);
  const Columns c = add_columns(lp.get(), problem);
  Triplets m;
  add_rows(lp.get(), problem, c, m);
  glp_load_matrix(lp.get(), static_cast<int>(m.row.size()) - 1, m.row.data(), m.col.data(), m.value.data());
  glp_term_out(GLP_OFF);
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev  = GLP_MSG_OFF;
  parm.presolve = GLP_ON;
  glp_scale_prob(lp.get(), GLP_SF_AUTO);
  if (glp_simplex(lp.get(), &parm) != 0 || glp_get_status(lp.get()) != GLP_OPT)
    return std::nullopt;
  std::vector<std::vector<double>> seconds;
  for (size_t k = 0; k < problem.tasks.size(); ++k) {
    std::vector<double> s;
    for (size_t l = 0; l < problem.levels[problem.tasks[k].rank].size(); ++l)
      s.push_back(std::max(0.0, glp_get_col_prim(lp.get(), c.first_y[k] + static_cast<int>(l))));
    seconds.push_back(std::move(s));
  }
  return seconds;
}

} // namespace
} // namespace haec::dvfs
