// The power plugin's result tables (hosts.csv, links.csv, power.csv) and summary figures.
// Pure C++; numbers are written exactly (the shortest text that reads back to the same double).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace haec::power {

struct HostRow {
  std::string host;
  double energy_j = 0, busy_s = 0, idle_s = 0, off_s = 0;
  std::vector<double> pstate_s; // time on in each pstate
};

struct LinkRow {
  std::string link, type;
  double bytes    = 0; // occupied: the integral of the link's usage (see link_energy.hpp)
  double energy_j = 0;
  double payload  = 0; // MPI payload of the transfers routed through it
  double off_s    = 0; // seconds switched off
};

// host,energy_j,mean_power_w,busy_s,idle_s,idle_pct,off_s,pstate0_s,...: mean power and idle
// percentage over `makespan_s` (0 when the makespan is 0). Rows in the given order; pstate
// columns up to the largest pstate count, empty cells where a host has fewer.
std::string hosts_csv(const std::vector<HostRow>& rows, double makespan_s);
// link,type,bytes,energy_j,payload_bytes
std::string links_csv(const std::vector<LinkRow>& rows);

// Power over time at its change points: each host's watts from `time` on. Points of one host at
// the same instant collapse into the last one; a point equal to the host's previous power is
// dropped.
class PowerSeries {
public:
  explicit PowerSeries(size_t hosts) : points_(hosts) {}
  void record(size_t host, double time, double watts);
  // time,host,watts sorted by time, then by host index.
  std::string csv(const std::vector<std::string>& host_names) const;

private:
  std::vector<std::vector<std::pair<double, double>>> points_;
};

} // namespace haec::power
