// The progress line of a run at a terminal (core/progress.cpp draws it): what the simulation has
// done so far, as one line of text. Pure C++: the figures come in, the text goes out.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace haec::core {

struct ProgressFigures {
  double simulated_s = 0;     // the simulated clock
  double wall_s      = 0;     // wall-clock seconds since the simulation started
  bool transfers_known = false; // the run observes its network transfers
  uint64_t transfers   = 0;     // completed so far
  bool replay        = false; // a trace replay: the share and the time left are known
  double replayed    = 0;     // share of the trace's bytes the replay has consumed, in [0, 1]
  double replay_wall_s = 0;   // wall-clock seconds since the replay's first action
};

// "simulated 1.234 ms | 12,345 transfers, 3.1k/s | 42% replayed, ~1 min 05 s left", at most
// `width` - 1 characters when `width` > 0 (a terminal's last column would wrap the line).
std::string progress_line(const ProgressFigures& f, size_t width);

// The parts, for their tests.
std::string progress_count(uint64_t n);      // 12,345
std::string progress_rate(double per_second); // 950/s, 3.1k/s, 1.25M/s
std::string progress_duration(double s);     // 12 s, 3 min 05 s, 1 h 02 min
std::string progress_sim_time(double s);      // 1.234 s, 12.346 ms, 3.500 us
// The replay's time left: the wall time so far over the share done, times the share to go; a
// negative value while too little is done to tell (under 0.5 % or 1 s).
double progress_time_left(double replayed, double replay_wall_s);

} // namespace haec::core
