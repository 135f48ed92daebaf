// `haec calibrate power --counters POWER_LOG COUNTER_SAMPLES --out FILE`: the counter power
// model's coefficients (calibration/model/counter_fit.hpp) into the file `haec run --power-model
// counters --counter-coefficients FILE` reads (plugins/power/model/counter_model.hpp).
#pragma once
#include <string>

namespace haec::cli {

// `out` empty: refused (the file is the result). Prints one line per pstate: the coefficients,
// R^2 and the held-out error. Writes nothing when the fit is refused.
void run_counter_fit(const std::string& power_log, const std::string& samples, const std::string& out);

} // namespace haec::cli
