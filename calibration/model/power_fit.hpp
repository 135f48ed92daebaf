// Host power profiles from wattmeter logs: per pstate one idle, one single-core and one all-core
// run, each a `time,watts` CSV. The steady level of a run is its time-weighted mean power with
// the first and last tenth of the run cut off (ramp-up, ramp-down). Emits the host properties of
// the energy plugin (plugins/power/README.md): `haec:wattage_calibration` (idle:one_core:all_cores
// per pstate) and SimGrid's `wattage_per_state` (idle:epsilon:all_cores), converted exactly:
// P_dynamic = (PN - P1) n / (n - 1), epsilon = PN - P_dynamic.
#pragma once
#include <string>
#include <vector>

namespace haec::calibration {

struct PowerLog {
  std::vector<double> time, watts;
};

// `file` names the log in errors. Header `time,watts`; times strictly increasing; watts >= 0.
PowerLog parse_power_log(const std::string& text, const std::string& file);

// Time-weighted mean over the middle of the run (trim: share cut at each end). Needs 2+ samples.
double steady_power(const PowerLog& log, const std::string& file, double trim = 0.1);

struct PstateLevels {
  double idle = 0, one_core = 0, all_cores = 0;
};

// Manifest `pstate,load,file` (load: idle, one or all; files relative to base_dir), pstates
// numbered 0..k-1 without gaps, every load present once per pstate.
struct ManifestEntry {
  int pstate;
  std::string load, file;
  int line;
};
std::vector<ManifestEntry> parse_manifest(const std::string& text, const std::string& file);

struct PowerCalibration {
  std::vector<PstateLevels> levels;
  std::string wattage_calibration; // idle:one:all,...
  std::string wattage_per_state;   // idle:epsilon:all,...
};
// cores > 1. Throws haec::InputError naming `what` when the levels are not a valid profile
// (all below one, one below idle, negative epsilon).
PowerCalibration power_profile(const std::vector<PstateLevels>& levels, int cores, const std::string& what);

} // namespace haec::calibration
