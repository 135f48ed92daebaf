// The power plugin's settings (--cfg=haec/power...) and the configuration they make.
// power_config() is the one validation of these values, called by the `haec` CLI before a run and
// by the adapter at platform creation. Pure C++.
#pragma once
#include "counter_model.hpp"
#include "link_energy.hpp"
#include "settings.hpp"
#include "workloads.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace haec::power {

std::vector<settings::Setting> settings_rows();

struct PowerConfig {
  bool enabled = false, series = false;
  std::optional<double> polling;                      // haec/power/polling when given
  std::map<std::string, LinkWattage> link_wattage;    // per haec:type
  std::optional<WorkloadSet> workloads;               // haec/power/workloads when given
  std::optional<CounterCoefficients> counters;        // haec/power/model:counters (its coefficients file)
  std::string counters_file;                          // haec/power/counter-coefficients, for errors
};

// Throws haec::InputError naming the setting (or the workload file) on a bad value.
PowerConfig power_config(const settings::Values& values);

} // namespace haec::power
