// The two hosts of a SimGrid network transfer, read from its action at completion.
//
// Why: without a link model the suite only has to observe transfers, and the factor callbacks it
// used for that cost SimGrid 3.32 about 1,000 instructions per transfer (it builds an s4u route
// and a set of netzones for any callback; callgrind, bench/overhead.py) on top of the suite's own
// matching of announcements to completions. The completion alone carries the start, the size and
// the end; the hosts are in the action.
//
// SimGrid 3.32's NetworkAction (src/kernel/resource/NetworkModel.hpp, not installed) is an Action
// followed by references to its source and destination hosts. This view declares the same two
// members after the same installed base, so the compiler lays them out as SimGrid's build did.
// transfers.cpp checks the layout at the first transfer: both pointers must be hosts of the platform
// (and, with the factor callbacks, that each transfer's action has that transfer's hosts).
#pragma once
#include <simgrid/forward.h>
#include <simgrid/kernel/resource/Action.hpp>

#include <utility>

namespace haec::core::parts {

struct NetworkActionHosts : simgrid::kernel::resource::Action {
  NetworkActionHosts() = delete; // a view: never constructed
  simgrid::s4u::Host& src;
  simgrid::s4u::Host& dst;
};

inline std::pair<const simgrid::s4u::Host*, const simgrid::s4u::Host*>
action_hosts(const simgrid::kernel::resource::Action& network_action)
{
  const auto& view = static_cast<const NetworkActionHosts&>(network_action);
  return {&view.src, &view.dst};
}

// The action's user-data field ("for your convenience", unused by SimGrid 3.32's network models;
// deprecated for 3.34, which this suite does not load): transfers.cpp attaches a transfer's
// announcement to it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
inline void* action_data(const simgrid::kernel::resource::Action& action)
{
  return action.get_data();
}
inline void set_action_data(simgrid::kernel::resource::Action& action, void* data)
{
  action.set_data(data);
}
#pragma GCC diagnostic pop

} // namespace haec::core::parts
