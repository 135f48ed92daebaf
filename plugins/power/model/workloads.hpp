// Workload phases (MODELS.md §4, a gap of the thesis model we close): a computation's P_dynamic
// depends on what it runs (compute-bound EP draws more than a memory-bound phase). A workload
// file names profiles and says which computations run which, by code region (the PMPI layer's
// region key, see regions.csv), by rank, or by host; everything else keeps the host's own model.
// Pure C++: no SimGrid include.
//
//   {
//     "profiles": {
//       "memory":  {"dynamic_scale": 0.6},                 P_dynamic x 0.6 at every pstate
//       "stencil": {"all_cores": [170.1, 165.0, ...]}      watts on all cores, one per pstate
//     },
//     "default": "memory",                                 optional: else the host's own model
//     "hosts":   {"node-3": "stencil"},
//     "ranks":   {"0": "stencil", "4-7": "memory"},
//     "regions": {"MPI_Irecv@app+0x11c9>MPI_Waitall@app+0x1302": "stencil",
//                 "MPI_Waitall@app+0x1302>*": "memory"}   ">*": computations the app starts itself
//   }
// Precedence: region, then rank, then host, then default. A profile keeps the host's idle and
// static power and its socket steps; only the dynamic part changes. A file with one profile of
// scale 1 as default reproduces the plain model bit for bit.
#pragma once
#include "power_profile.hpp"

#include <map>
#include <string>
#include <vector>

namespace haec::power {

struct WorkloadProfile {
  std::string name;
  double dynamic_scale = 1;       // used when all_cores is empty
  std::vector<double> all_cores;  // watts with every core busy, per pstate (fastest first)
};

class WorkloadSet {
public:
  // Throws haec::InputError naming `file` for malformed JSON, unknown keys, unknown profile
  // names, negative scales or watts, bad rank ranges.
  static WorkloadSet parse(const std::string& json_text, const std::string& file);

  const std::vector<WorkloadProfile>& profiles() const { return profiles_; }
  // Profile index (0-based) chosen for a computation, or -1: the host's own model.
  int choose(const std::string& region, int rank, const std::string& host) const;
  const std::map<std::string, int>& regions() const { return regions_; }
  const std::map<std::string, int>& hosts() const { return hosts_; }
  // Highest rank named in "ranks" (-1: none), to check against the run's rank count.
  int max_rank() const { return max_rank_; }
  const std::string& file() const { return file_; }

  // The linear slope per pstate of `profile` on a host with `base` (its own model), for
  // HostEnergyMeter::add_workload. Throws InputError naming file, host and profile when
  // all_cores has another length than the host's pstates or lies below static power plus the
  // socket steps.
  std::vector<double> slopes(size_t profile, const HostPowerProfile& base, const std::string& host) const;

private:
  std::string file_;
  std::vector<WorkloadProfile> profiles_;
  int default_ = -1;
  std::map<std::string, int> hosts_, regions_;
  std::vector<std::pair<std::pair<int, int>, int>> rank_ranges_; // [first, last] -> profile
  int max_rank_ = -1;
};

} // namespace haec::power
