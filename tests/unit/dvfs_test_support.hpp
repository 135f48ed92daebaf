// Shared fixtures of the dvfs_*_test.cpp files: the taurus-8 host of docs/MODELS.md §4 (12 pstates,
// 2.3 .. 1.2 GHz, thesis 002 Figure 8.7 calibration, 12 cores).
#pragma once
#include "governor.hpp"
#include "power_profile.hpp"

#include <vector>

namespace dvfs_test {

inline const double kTaurus8[12][3] = {
    {92.75, 114.62, 174.38}, {92.75, 113.25, 168.62}, {92.88, 112.25, 162.88}, {92.88, 110.75, 157.12},
    {92.88, 110.38, 151.75}, {92.88, 109.38, 147.25}, {92.88, 108.62, 142.75}, {93, 107.38, 138.25},
    {93.12, 106.75, 134},    {93, 106.5, 130.62},     {93, 105.12, 127},       {93.25, 104.62, 123.62}};

inline double ghz(int pstate) { return (23 - pstate) * 1e8; } // exact: 2.3e9 .. 1.2e9

// busy_cores: 12 prices a computation at all_cores (the thesis's "as if one core"), 1 at one_core.
inline haec::dvfs::HostModel taurus8(double busy_cores = 12, bool reversed = false)
{
  haec::dvfs::HostModel h;
  std::vector<haec::power::PstatePower> p;
  for (int i = 0; i < 12; ++i) {
    const int k = reversed ? 11 - i : i; // reversed: index 0 is the slowest
    h.speeds.push_back(ghz(k));
    p.push_back(haec::power::from_calibration(kTaurus8[k][0], kTaurus8[k][1], kTaurus8[k][2], 12));
  }
  h.power      = haec::power::HostPowerProfile(p, 10, 12);
  h.busy_cores = busy_cores;
  return h;
}

} // namespace dvfs_test
