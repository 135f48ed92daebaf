#include "power_fit.hpp"

#include "input_error.hpp"
#include "measurement_table.hpp"
#include "smpi_costs.hpp" // number_text
#include "text.hpp"
#include "units.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace haec::calibration {

PowerLog parse_power_log(const std::string& text, const std::string& file)
{
  PowerLog log;
  const TableFormat format{"time,watts", "give a wattmeter log", "the log looks truncated"};
  for_each_measurement(text, file, format, "give a wattmeter log (time,watts)",
                       [&](const std::vector<std::string>& f, const std::string& where, size_t) {
                         const double t = units::parse_number(f[0], where + ": time");
                         const double w = units::parse_number(f[1], where + ": watts");
                         if (!log.time.empty() && t <= log.time.back())
                           throw InputError(where, "time " + f[0] + " is not after the previous sample's",
                                            "times must increase");
                         if (w < 0)
                           throw InputError(where, "negative power " + f[1], "watts are >= 0");
                         log.time.push_back(t);
                         log.watts.push_back(w);
                       });
  if (log.time.size() < 2)
    throw InputError(file, "has " + std::to_string(log.time.size()) + " sample(s), at least 2 are needed",
                     "log the whole run");
  return log;
}

double steady_power(const PowerLog& log, const std::string& file, double trim)
{
  const double t0 = log.time.front(), t1 = log.time.back();
  const double a = t0 + trim * (t1 - t0), b = t1 - trim * (t1 - t0);
  // Each sample holds its value until the next one (a wattmeter reports the last period).
  double energy = 0;
  for (size_t i = 0; i + 1 < log.time.size(); ++i) {
    const double lo = std::max(a, log.time[i]), hi = std::min(b, log.time[i + 1]);
    if (hi > lo)
      energy += log.watts[i] * (hi - lo);
  }
  if (b <= a)
    throw InputError(file, "run has no duration", "log the whole run");
  return energy / (b - a);
}

std::vector<ManifestEntry> parse_manifest(const std::string& text, const std::string& file)
{
  std::vector<ManifestEntry> out;
  std::set<std::pair<int, std::string>> seen;
  const TableFormat format{"pstate,load,file", "see calibration/README.md", "the manifest looks truncated"};
  for_each_measurement(text, file, format, "one line per pstate and load (idle, one, all)",
                       [&](const std::vector<std::string>& f, const std::string& where, size_t line) {
                         ManifestEntry e{static_cast<int>(units::parse_integer(f[0], where + ": pstate")), f[1], f[2],
                                         static_cast<int>(line)};
                         if (e.load != "idle" && e.load != "one" && e.load != "all")
                           throw InputError(where, "load '" + e.load + "'", "use idle, one or all");
                         if (!seen.insert({e.pstate, e.load}).second)
                           throw InputError(where, "pstate " + std::to_string(e.pstate) + " " + e.load + " given twice",
                                            "keep one");
                         out.push_back(e);
                       });
  if (out.empty())
    throw InputError(file, "lists no measurement", "one line per pstate and load (idle, one, all)");
  int pstates = 0;
  for (const auto& e : out)
    pstates = std::max(pstates, e.pstate + 1);
  for (int p = 0; p < pstates; ++p)
    for (const char* load : {"idle", "one", "all"})
      if (!seen.count({p, load}))
        throw InputError(file, "pstate " + std::to_string(p) + " has no '" + load + "' measurement",
                         "pstates are numbered 0.. without gaps, each with idle, one and all");
  return out;
}

PowerCalibration power_profile(const std::vector<PstateLevels>& levels, int cores, const std::string& what)
{
  if (cores < 2)
    throw InputError(what, "--cores " + std::to_string(cores) + ": a one-core and an all-core run need 2+ cores",
                     "give the host's core count");
  PowerCalibration out{levels, "", ""};
  for (size_t p = 0; p < levels.size(); ++p) {
    const auto& l        = levels[p];
    const std::string ps = "pstate " + std::to_string(p);
    if (l.one_core < l.idle)
      throw InputError(what, ps + ": one-core power " + number_text(l.one_core) + " W below idle " +
                                 number_text(l.idle) + " W", "check the logs");
    if (l.all_cores < l.one_core)
      throw InputError(what, ps + ": all-core power " + number_text(l.all_cores) + " W below one-core " +
                                 number_text(l.one_core) + " W", "check the logs");
    const double dynamic = (l.all_cores - l.one_core) * cores / (cores - 1);
    const double epsilon = l.all_cores - dynamic;
    if (epsilon < 0)
      throw InputError(what, ps + ": implies a negative static power " + number_text(epsilon) + " W",
                       "the one-core run draws too little for this core count");
    const std::string sep = p ? "," : "";
    out.wattage_calibration += sep + number_text(l.idle) + ":" + number_text(l.one_core) + ":" + number_text(l.all_cores);
    out.wattage_per_state += sep + number_text(l.idle) + ":" + number_text(epsilon) + ":" + number_text(l.all_cores);
  }
  return out;
}

} // namespace haec::calibration
