#include "rank_capacity.hpp"
#include "input_error.hpp"

#include <fstream>
#include <string>

namespace haec::cli {
namespace {

constexpr long kMapsPerReplayRank    = 2;    // stack + guard page
constexpr long kMapsPerEmulationRank = 8;    // + the program's private copy (7 measured)
constexpr long kMapsOfTheSimulator   = 2000; // libraries, heap, platform (a few hundred measured)

long max_map_count()
{
  std::ifstream in("/proc/sys/vm/max_map_count");
  long v = 0;
  return in >> v && v > 0 ? v : 65530; // Linux's default
}

} // namespace

void check_rank_capacity(int ranks, bool emulation)
{
  const long limit = max_map_count();
  const long per   = emulation ? kMapsPerEmulationRank : kMapsPerReplayRank;
  const long most  = (limit - kMapsOfTheSimulator) / per;
  if (ranks > most)
    throw InputError("-np " + std::to_string(ranks),
                     "more ranks than this machine's simulator can create (each takes about " + std::to_string(per) +
                         " memory mappings; vm.max_map_count is " + std::to_string(limit) + ")",
                     "use at most " + std::to_string(most) + " ranks, or raise vm.max_map_count (sysctl)");
}

} // namespace haec::cli
