#include "progress_line.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace haec::core {

std::string progress_count(uint64_t n)
{
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return out;
}

std::string progress_rate(double per_second)
{
  char text[32];
  if (!(per_second >= 0) || !std::isfinite(per_second))
    per_second = 0;
  if (per_second < 1e3)
    std::snprintf(text, sizeof text, "%.0f/s", per_second);
  else if (per_second < 1e6)
    std::snprintf(text, sizeof text, "%.1fk/s", per_second / 1e3);
  else
    std::snprintf(text, sizeof text, "%.2fM/s", per_second / 1e6);
  return text;
}

std::string progress_duration(double s)
{
  char text[48];
  const auto whole = static_cast<long long>(std::llround(std::max(0.0, s)));
  if (whole < 1)
    return "<1 s";
  if (whole < 60)
    std::snprintf(text, sizeof text, "%lld s", whole);
  else if (whole < 3600)
    std::snprintf(text, sizeof text, "%lld min %02lld s", whole / 60, whole % 60);
  else
    std::snprintf(text, sizeof text, "%lld h %02lld min", whole / 3600, whole / 60 % 60);
  return text;
}

std::string progress_sim_time(double s)
{
  char text[48];
  if (s >= 1 || s == 0)
    std::snprintf(text, sizeof text, "%.3f s", s);
  else if (s >= 1e-3)
    std::snprintf(text, sizeof text, "%.3f ms", s * 1e3);
  else
    std::snprintf(text, sizeof text, "%.3f us", s * 1e6);
  return text;
}

double progress_time_left(double replayed, double replay_wall_s)
{
  if (!(replayed >= 0.005) || !(replay_wall_s >= 1))
    return -1;
  return replay_wall_s * (1 - std::min(replayed, 1.0)) / std::min(replayed, 1.0);
}

std::string progress_line(const ProgressFigures& f, size_t width)
{
  std::string line = "simulated " + progress_sim_time(f.simulated_s);
  if (f.transfers_known)
    line += " | " + progress_count(f.transfers) + " transfers, " +
            progress_rate(f.wall_s > 0 ? static_cast<double>(f.transfers) / f.wall_s : 0);
  if (f.replay) {
    const double share = std::clamp(f.replayed, 0.0, 1.0);
    char percent[16];
    std::snprintf(percent, sizeof percent, "%.0f%%", std::floor(share * 100));
    const double left = progress_time_left(share, f.replay_wall_s);
    line += std::string(" | ") + percent + " replayed, " +
            (left < 0 ? std::string("estimating time left")
                      : left < 0.5 ? std::string("<1 s left")
                                   : "~" + progress_duration(left) + " left");
  }
  if (width > 0 && line.size() > width - 1)
    line.resize(width - 1);
  return line;
}

} // namespace haec::core
