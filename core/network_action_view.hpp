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

#include <cstddef>
#include <cstring>
#include <utility>

namespace haec::core::parts {

// The same two members (references are stored as pointers) after the same base: their offsets
// are those of SimGrid's class. Never constructed: only its layout is used, through offsetof, so
// that no object of a type the action is not is ever accessed (UBSan's vptr check).
struct NetworkActionHosts : simgrid::kernel::resource::Action {
  NetworkActionHosts() = delete;
  const simgrid::s4u::Host* src;
  const simgrid::s4u::Host* dst;
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof" // not standard-layout; GCC and clang lay it out as SimGrid
constexpr size_t kActionSrcOffset = offsetof(NetworkActionHosts, src);
constexpr size_t kActionDstOffset = offsetof(NetworkActionHosts, dst);
#pragma GCC diagnostic pop

inline std::pair<const simgrid::s4u::Host*, const simgrid::s4u::Host*>
action_hosts(const simgrid::kernel::resource::Action& network_action)
{
  const auto* bytes = reinterpret_cast<const unsigned char*>(&network_action);
  const simgrid::s4u::Host* src = nullptr;
  const simgrid::s4u::Host* dst = nullptr;
  std::memcpy(&src, bytes + kActionSrcOffset, sizeof src);
  std::memcpy(&dst, bytes + kActionDstOffset, sizeof dst);
  return {src, dst};
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
