#include "power_settings.hpp"
#include "atomic_file.hpp"
#include "input_error.hpp"
#include "units.hpp"

namespace haec::power {
namespace {

using settings::Need;
using settings::Setting;

// A function, not a global: the suite builds the table from a static initialiser of another file.
Need needs_power() { return Need{"haec/power", {}}; }

void check_share(const std::string& value, const std::string& what)
{
  const double v = units::parse_number(value, what);
  if (!(v >= 0 && v <= 1))
    throw InputError(what, "must be in [0,1]", "give the share of a core a polling loop uses, e.g. 0.5");
}

void check_wattage(const std::string& value, const std::string& what)
{
  parse_link_wattage_table(value, what);
}

// The counter model needs its coefficients, prices every computation alone (a workload profile
// would have no meaning) and the annotations of traces, which SimGrid's reader drops.
void configure_counters(const settings::Values& v, PowerConfig& c)
{
  const std::string what = v.what("haec/power/model");
  const std::string& file = v.text("haec/power/counter-coefficients");
  if (file.empty())
    throw InputError(what, "needs the model's coefficients",
                     "give --counter-coefficients FILE (haec calibrate power --counters writes it)");
  if (c.workloads)
    throw InputError(what, "cannot be combined with workload phases (--workloads)",
                     "the counters price each computation; drop one of them");
  c.counters      = CounterCoefficients::parse(read_file(file, v.what("haec/power/counter-coefficients")), file);
  c.counters_file = file;
}

} // namespace

std::vector<Setting> settings_rows()
{
  Setting power{"haec/power", "Compute host and link energy (hosts.csv, links.csv, summary)", "no",
                settings::check_bool};
  power.option = "--power";
  Setting series{"haec/power/series", "Also write power.csv: each host's watts at every change point", "no",
                 settings::check_bool, {needs_power()}};
  series.option = "--power-series";
  Setting wattage{"haec/power/link-wattage",
                  "Link power per haec:type as type:idle_W:busy_W,... (busy = at full bandwidth; a link's "
                  "wattage_range property overrides it)",
                  "optical:2.1:24.3,wireless:0:2.124", check_wattage, {needs_power()}};
  wattage.value_in_errors = false; // the parser quotes the bad entry
  Setting workloads{"haec/power/workloads",
                    "Workload phases: a JSON file of power profiles chosen per code region, rank or host "
                    "(plugins/power/README.md)",
                    "", nullptr, {needs_power()}};
  workloads.option   = "--workloads";
  workloads.reserved = true;
  Setting model{"haec/power/model",
                "Host power model: linear (busy cores, MODELS.md §4) or counters (hardware counter rates of "
                "each computation, MODELS.md §9; needs haec/power/counter-coefficients)",
                "linear", settings::one_of({"linear", "counters"}, "power model"), {needs_power()}};
  model.option = "--power-model";
  Setting coefficients{"haec/power/counter-coefficients",
                       "Coefficients of the counter model: JSON of P_static and c_k per pstate (haec calibrate "
                       "power --counters writes it)",
                       "", nullptr, {Need{"haec/power/model", {"counters"}}}};
  coefficients.option   = "--counter-coefficients";
  coefficients.reserved = true;
  return {power, series,
          Setting{"haec/power/polling",
                  "Share of a core charged while polling: SMPI's MPI_Iprobe computations and (with our PMPI layer) "
                  "the time in MPI_Test*; default: smpi/iprobe-cpu-usage",
                  "1", check_share, {needs_power()}},
          wattage, workloads, model, coefficients};
}

PowerConfig power_config(const settings::Values& v)
{
  PowerConfig c;
  c.enabled = v.boolean("haec/power");
  c.series  = v.boolean("haec/power/series");
  if (v.given("haec/power/polling"))
    c.polling = v.number("haec/power/polling");
  c.link_wattage = parse_link_wattage_table(v.text("haec/power/link-wattage"), v.what("haec/power/link-wattage"));
  if (const std::string& file = v.text("haec/power/workloads"); !file.empty())
    c.workloads = WorkloadSet::parse(read_file(file, v.what("haec/power/workloads")), file);
  if (v.text("haec/power/model") == "counters")
    configure_counters(v, c);
  return c;
}

} // namespace haec::power
