// Where a replaying rank is in its trace, for the one line a bad action ends the replay with
// (replay_fields.hpp): each rank counts the actions it has run (every one but compute and sleep,
// counted by replay_actions.cpp's wrapper), which names the line without SimGrid's reader telling.
// The message is the one `haec trace check` gives for the trace when it finds a problem (the check
// every replay runs first can have been skipped by a cached result of an edited trace), else the
// action's own problem at its line. Either ends the run like a refused setting: exit 2, no results.
#include "input_error.hpp"
#include "replay_fields.hpp"
#include "run.hpp"
#include "ti_check.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <xbt/config.hpp>

#include <cstdlib>
#include <vector>

namespace haec::core::parts {
namespace {

std::vector<uint64_t>& counts() // by actor pid
{
  static std::vector<uint64_t> c;
  return c;
}

} // namespace

void count_replayed_action()
{
  const auto pid = static_cast<size_t>(simgrid::s4u::this_actor::get_pid());
  if (pid >= counts().size())
    counts().resize(pid + 1, 0);
  ++counts()[pid];
}

std::string fail_message(const Action& a, const std::string& problem)
{
  const std::string list = simgrid::config::get_value<std::string>("smpi/replay");
  try {
    trace::check_ti_trace(list, world_size());
  } catch (const std::exception& e) { // InputError or DeadlockError: the check's own line
    return e.what();
  }
  std::string where = list;
  try {
    const auto pid = static_cast<size_t>(simgrid::s4u::this_actor::get_pid());
    where = trace::ti_action_location(list, std::atoi(a[0].c_str()), pid < counts().size() ? counts()[pid] : 0);
  } catch (const std::exception&) { // the trace cannot be read any more: name the list
  }
  std::string text;
  for (auto const& f : a)
    text += (text.empty() ? "" : " ") + f;
  return where + ": " + problem + " (in '" + text + "'); the trace is corrupt: check it with haec trace check, or "
                                                     "record it again";
}

[[noreturn]] void reject_trace_action(const std::string& message)
{
  reject_setting(message);
}

} // namespace haec::core::parts
