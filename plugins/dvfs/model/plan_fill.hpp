// The coordinated plan's program (plan_lp.hpp) solved by progressive filling of the stretch, in time
// linear in the plan's computations and messages (lagrange_solver=fill, the default). Pure C++.
//
// Every free computation starts at stretch 1 (racing) and all of them slow down together; a
// computation stops as soon as one of the paths through it would miss a due (a message chain
// reaching a computation with a due), or at the stretch beyond which slowing costs more energy
// (the least energy per second of work on its rank's levels). The rest go on. The result is the
// max-min fair stretch: along a chain of computations sharing a float, all get the same stretch,
// which is the least-energy split when the ranks' levels are alike (the energy per second of work
// is convex in the stretch), and every path meets its due by construction.
//
// The stretch rises in steps (kSteps over the useful range); each step is one forward pass (earliest
// ends) and one backward pass (latest ends) over the computations in topological order. A
// computation whose total float turns negative at the step's end stops where the chord of its float
// crosses 0: the float along any path is linear in a common stretch, so its least over the paths
// through a computation is concave, and the chord's root is never beyond the true one.
#pragma once
#include "plan_lp.hpp"

#include <optional>
#include <vector>

namespace haec::dvfs {

// Seconds every task takes (its `fixed` seconds when fixed), or nothing when a due cannot be met
// even with every computation racing.
std::optional<std::vector<double>> fill_plan(const PlanProblem& problem);

// The stretch beyond which slowing costs more (the least energy per second of work on the convex
// hull of the levels); 1 when no slower level is cheaper. Levels fastest first.
double cheapest_stretch(const std::vector<PlanLevel>& levels);

// The energy beyond idle of a task of `work` seconds run for `seconds` (a mix of the two levels
// around it on the convex hull, as the program prices it).
double plan_energy(const std::vector<PlanLevel>& levels, double work, double seconds);

} // namespace haec::dvfs
