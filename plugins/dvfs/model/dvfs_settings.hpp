// The DVFS plugin's settings (--cfg=haec/dvfs/...) and the governor parameters they make.
// dvfs_config() is the one validation of these values, called by the `haec` CLI before a run and by
// the adapter at platform creation; what depends on a host (its pstates, its power profile) is
// checked by make_governor there. Pure C++.
#pragma once
#include "governor.hpp"
#include "settings.hpp"

#include <string>
#include <vector>

namespace haec::dvfs {

std::vector<settings::Setting> settings_rows();

struct DvfsConfig {
  std::string governor; // haec/dvfs/governor ("" : none unless a host names one)
  GovernorParams params;
};

// Throws haec::InputError naming the setting on a bad value.
DvfsConfig dvfs_config(const settings::Values& values);

} // namespace haec::dvfs
