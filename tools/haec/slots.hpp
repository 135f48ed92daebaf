// Slots: a node holds at most as many ranks as it has cores (`cores=N` of a spec, `core=` of an
// XML host), unless the user opts into oversubscription (--oversubscribe). SimGrid itself would
// run the extra ranks, sharing the node's cores, which silently slows every one of them.
#pragma once
#include "platform_source.hpp"

#include <vector>

namespace haec::cli {

// Throws InputError naming the first node that gets more ranks than cores, the platform's slots,
// the rank count and the fixes. `assignment` maps rank -> node index.
void check_slots(const ResolvedPlatform& platform, const std::vector<int>& assignment);

} // namespace haec::cli
