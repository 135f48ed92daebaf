#include "dvfs_settings.hpp"
#include "input_error.hpp"
#include "units.hpp"

#include <algorithm>

namespace haec::dvfs {
namespace {

using settings::Need;
using settings::Setting;

// A function, not a global: the suite builds the table from a static initialiser of another file.
Need needs_governor() { return Need{"haec/dvfs/governor", {}}; }

void check_governor(const std::string& value, const std::string& what)
{
  const auto& names = governor_names();
  if (std::find(names.begin(), names.end(), value) == names.end())
    throw InputError(what, "unknown governor '" + value + "'", "use one of " + settings::joined(names, ", "));
}

// A value checked by the governors' own parameter check, the other parameters at their defaults.
template <double GovernorParams::*Field>
void check_field(const std::string& value, const std::string& what)
{
  GovernorParams p;
  p.*Field = units::parse_number(value, what);
  check_params(p, what);
}

void check_params_text(const std::string& value, const std::string& what)
{
  GovernorParams p;
  apply_params(p, value, what);
  check_params(p, what);
}

void check_pstate(const std::string& value, const std::string& what)
{
  if (units::parse_integer(value, what) > 1000000)
    throw InputError(what, "is not a pstate index", "give the index of one of the host's pstates (0: fastest)");
}

Setting governed(const char* key, const char* description, const char* fallback,
                 void (*check)(const std::string&, const std::string&))
{
  return Setting{key, description, fallback, check, {needs_governor()}};
}

} // namespace

std::vector<Setting> settings_rows()
{
  Setting governor{"haec/dvfs/governor",
                   "DVFS governor of every host (a host's haec:governor property overrides it; empty: off)", "",
                   check_governor};
  governor.option        = "--governor";
  governor.reserved      = true;
  governor.host_property = "haec:governor";
  return {
      governor,
      governed("haec/dvfs/period", "Sampling period of the load-based governors (s)", "0.01",
               check_field<&GovernorParams::period>),
      governed("haec/dvfs/up-threshold", "Load above which ondemand/conservative speed up", "0.8",
               check_field<&GovernorParams::up_threshold>),
      governed("haec/dvfs/down-threshold", "Load below which conservative slows down", "0.2",
               check_field<&GovernorParams::down_threshold>),
      governed("haec/dvfs/min-pstate", "Fastest pstate a governor may use (index; empty: the host's fastest)", "",
               check_pstate),
      governed("haec/dvfs/max-pstate", "Slowest pstate a governor may use (index; empty: the host's slowest)", "",
               check_pstate),
      governed("haec/dvfs/switch-latency",
               "Seconds between a governor's decision and the new frequency (old one meanwhile)", "0",
               check_field<&GovernorParams::switch_latency>),
      governed("haec/dvfs/switch-energy", "Joules charged per pstate switch", "0",
               check_field<&GovernorParams::switch_energy>),
      governed("haec/dvfs/params", "Governor parameters as key=value,... (see plugins/dvfs/README.md)", "",
               check_params_text),
  };
}

DvfsConfig dvfs_config(const settings::Values& v)
{
  DvfsConfig c;
  c.governor              = v.text("haec/dvfs/governor");
  GovernorParams& p       = c.params;
  p.period                = v.number("haec/dvfs/period");
  p.up_threshold          = v.number("haec/dvfs/up-threshold");
  p.down_threshold        = v.number("haec/dvfs/down-threshold");
  p.switch_latency        = v.number("haec/dvfs/switch-latency");
  p.switch_energy         = v.number("haec/dvfs/switch-energy");
  p.min_pstate            = v.given("haec/dvfs/min-pstate") ? static_cast<int>(v.integer("haec/dvfs/min-pstate")) : -1;
  p.max_pstate            = v.given("haec/dvfs/max-pstate") ? static_cast<int>(v.integer("haec/dvfs/max-pstate")) : -1;
  apply_params(p, v.text("haec/dvfs/params"), v.what("haec/dvfs/params"));
  check_params(p, v.what("haec/dvfs/governor"));
  return c;
}

} // namespace haec::dvfs
