// The core's own settings (where results go, what to record, the platform to build, the run
// description, iteration boundaries, SMPI's envelope) and the table of every haec setting: the
// core's rows then each plugin's, in plugin order. The suite declares its SimGrid flags from
// settings_table() and the `haec` CLI validates its options with it. Pure C++.
#pragma once
#include "settings.hpp"

#include <vector>

namespace haec::core {

std::vector<settings::Setting> core_settings_rows();
// Every haec setting: core, link, power, dvfs, balance.
const settings::Table& settings_table();
// Table::validate, then each plugin's own configuration check (link_config, power_config, ...):
// what the CLI runs before smpirun and the core before any plugin starts. Throws InputError.
void validate_settings(const settings::Values& values);

} // namespace haec::core
