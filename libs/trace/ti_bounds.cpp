#include "ti_bounds.hpp"
#include "input_error.hpp"

#include <climits>
#include <cmath>
#include <cstdlib>

namespace haec::trace {
namespace {

// Field index (in "<rank> <action> args...") of the operation cost SimGrid reads as a double.
int amount_field(const std::string& action, int ranks)
{
  if (action == "compute" || action == "sleep")
    return 2;
  if (action == "reduce" || action == "allreduce" || action == "scan" || action == "exscan")
    return 3;
  if (action == "reducescatter")
    return ranks > 0 ? 2 + ranks : -1;
  return -1;
}

bool one_sided(const std::string& action)
{
  for (const char* prefix : {"haec_win_", "haec_put", "haec_get", "haec_accumulate", "haec_compare", "haec_barrier"})
    if (action.rfind(prefix, 0) == 0)
      return true;
  return false;
}

} // namespace

void check_number_bounds(const std::vector<std::string>& f, const std::string& at, int ranks)
{
  const std::string& action = f[1];
  if (action == "init" || action == "location" || one_sided(action))
    return;
  const int amount = amount_field(action, ranks);
  for (size_t i = 2; i < f.size(); ++i) {
    if (static_cast<int>(i) == amount)
      continue; // a double: any finite number (checked already)
    const double v = std::strtod(f[i].c_str(), nullptr);
    const std::string arg = "argument " + std::to_string(i - 1) + " of " + action + " (" + f[i] + ")";
    if (std::fabs(v) > static_cast<double>(INT_MAX))
      throw InputError(at, arg + " is beyond what SimGrid's replay takes (an MPI int, at most " +
                               std::to_string(INT_MAX) + ")",
                       "the trace is corrupt");
    if (v != std::trunc(v))
      throw InputError(at, arg + " is not a whole number", "counts, sizes, peers and tags are integers; the trace is corrupt");
  }
}

} // namespace haec::trace
