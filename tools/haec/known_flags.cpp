#include "known_flags.hpp"
#include "input_error.hpp"

#include <algorithm>
#include <numeric>

namespace haec::cli {

const std::vector<std::string>& known_haec_flags()
{
  static const std::vector<std::string> keys = {
      "haec/out",           "haec/messages",       "haec/events",       "haec/platform",     "haec/link/model",
      "haec/link/packet-size", "haec/link/d-out",  "haec/link/d-in",    "haec/link/d-p",
      "haec/link/window",   "haec/link/window-id", "haec/link/ff-symbol", "haec/link/units",
      "haec/link/partial-window", "haec/link/smpi-envelope",
      // resilient link models (plugins/link/resilient_routes.cpp)
      "haec/link/preset", "haec/link/loss", "haec/link/mode", "haec/link/seed", "haec/link/d-mpi",
      "haec/link/rto-margin", "haec/link/ncd-target", "haec/link/d-sign", "haec/link/d-verify",
      // power plugin (plugins/power)
      "haec/power", "haec/power/series", "haec/power/polling", "haec/power/link-wattage",
      "haec/power/workloads",
      // DVFS governors (plugins/dvfs) and load balancing (plugins/balance)
      "haec/iterations", "haec/dvfs/governor", "haec/dvfs/period", "haec/dvfs/up-threshold",
      "haec/dvfs/down-threshold", "haec/dvfs/min-pstate", "haec/dvfs/max-pstate", "haec/dvfs/switch-latency",
      "haec/dvfs/switch-energy", "haec/dvfs/params", "haec/balance/strategy", "haec/balance/every",
      "haec/balance/tolerance", "haec/balance/footprint", "haec/balance/pinned",
      // trace replay (core/replay_runner.cpp)
      "haec/replay/reader"};
  return keys;
}

static size_t edit_distance(const std::string& a, const std::string& b)
{
  std::vector<size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0]      = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j]    = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag      = up;
    }
  }
  return row[b.size()];
}

void check_haec_key(const std::string& key)
{
  const auto& keys = known_haec_flags();
  if (std::find(keys.begin(), keys.end(), key) != keys.end())
    return;
  auto best = std::min_element(keys.begin(), keys.end(), [&](const std::string& a, const std::string& b) {
    return edit_distance(key, a) < edit_distance(key, b);
  });
  throw InputError("--cfg " + key, "unknown haec option", "did you mean " + *best + "?");
}

} // namespace haec::cli
