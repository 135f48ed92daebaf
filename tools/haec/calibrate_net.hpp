// `haec calibrate net`: SMPI network settings from calibration-net samples (calibration/README.md).
#pragma once
#include <string>

namespace haec::cli {

struct NetArgs {
  std::string samples, intra, out = "calibration-net";
  double bandwidth = 0, latency = 0;
  bool no_plot = false, no_crosstraffic = false;
  bool accept_poor_fit = false; // write settings the checks do not trust, with `# warning:` lines
};

// Fits, checks (refusing an untrusted fit unless accept_poor_fit), prints the settings and
// writes DIR whole or not at all.
void run_net(const NetArgs& a);

} // namespace haec::cli
