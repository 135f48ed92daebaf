// Computations: SimGrid's Exec::on_start and Activity::on_completion, connected only when a
// subscriber wants them, published as ComputationStarted / ComputationEnded. The core keeps the
// executions it announced, so a completion costs one lookup however many plugins listen
// (Activity::on_completion fires for every activity, transfers included).
#include "core_parts.hpp"
#include "run.hpp"
#include "simgrid_compat.hpp"

#include <simgrid/s4u.hpp>

#include <optional>

namespace sg4 = simgrid::s4u;

namespace haec::core::parts {
namespace {

// The executions announced are marked in an extension slot of the activity itself (no deleter:
// the mark is not owned), so a completion, which fires for every activity, costs one array read
// instead of a hash lookup.
const size_t started_mark = sg4::Activity::extension_create(nullptr);
int marked; // what the slot points to

bool started(const sg4::Activity& a)
{
  return a.extension(started_mark) != nullptr;
}

void mark_started(const sg4::Activity& a, bool on)
{
  const_cast<sg4::Activity&>(a).extension_set(started_mark, on ? &marked : nullptr, false);
}

void on_start(const sg4::Exec& exec)
{
  const long pid = parts::self_pid();
  mark_started(exec, true);
  // A burst's counters go to the rank's next computation; SMPI's MPI_Iprobe spins (named "iprobe")
  // are not bursts of the program.
  const std::string& name = exec.get_name();
  const bool polling = name.size() == 6 && name == "iprobe"; // the size first: most names differ there
  std::optional<std::vector<double>> counts;
  if (pid >= 0 && !polling) {
    counts = parts::take_pending_counters(pid);
    // Inside an MPI call the PMPI layer does not count: what SMPI charges there (the few
    // instructions around SimGrid's function, pmpi/own_work.hpp) is no burst of the program.
    if (!counts && !counter_events().empty() && parts::inside_call(pid))
      counts = std::vector<double>(counter_events().size(), 0.0);
  }
  const sg4::Host* host = exec.get_host_number() == 1 ? exec.get_host() : nullptr;
  bus().computation_started.publish(ComputationStarted{exec, pid, sg4::Engine::get_clock(), counts ? &*counts : nullptr,
                                                       polling, host, current_region(pid)});
}

void on_completion(const sg4::Activity& activity)
{
  if (!started(activity))
    return;
  mark_started(activity, false);
  // The signal comes when the actor sees the end (wait/test): right away under SMPI; the kernel's
  // finish time is exact when it is known.
  const double end = activity.get_finish_time() >= 0 ? activity.get_finish_time() : sg4::Engine::get_clock();
  bus().computation_ended.publish(ComputationEnded{activity, end});
}

} // namespace

void connect_computations()
{
  if (bus().computation_started.empty() && bus().computation_ended.empty())
    return;
  sg4::Exec::on_start_cb(on_start);
  haec::simgrid_compat::on_exec_completion(on_completion);
}

} // namespace haec::core::parts
