// The link plugin's settings (--cfg=haec/link/...) and the configuration they make: which model,
// with which parameters. link_config() is the one validation of these values, called by the `haec`
// CLI before a run and by the adapter at platform creation. Pure C++.
#pragma once
#include "dor_pnc_model.hpp"
#include "resilient_setup.hpp"
#include "settings.hpp"

#include <optional>
#include <string>
#include <vector>

namespace haec::link {

std::vector<settings::Setting> settings_rows();

struct LinkConfig {
  std::string model = "none";              // haec/link/model
  std::optional<DorPncModel> dor_pnc;      // dor, pnc
  std::optional<resilient::Setup> resilient; // dor_r, pnc_r, ncd_r
  std::string units, partial_window;       // as given (summary.json names them)
};

// Throws haec::InputError naming the setting on any bad value or combination.
LinkConfig link_config(const settings::Values& values);

} // namespace haec::link
