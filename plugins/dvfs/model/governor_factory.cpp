// Governor parameters, their validation and the factory.
#include "adagio.hpp"
#include "governor.hpp"
#include "input_error.hpp"
#include "lagrange.hpp"
#include "load_governors.hpp"
#include "mix_governor.hpp"
#include "text.hpp"
#include "units.hpp"

#include <algorithm>
#include <cmath>

namespace haec::dvfs {

Governor::Governor(std::string name, PstateTable table)
    : name_(std::move(name)), table_(std::move(table)), current_(table_.fastest())
{
}

const std::vector<std::string>& governor_names()
{
  static const std::vector<std::string> names{"performance", "powersave", "ondemand", "conservative",
                                              "adagio",      "adagio-improved", "lagrange", "mix"};
  return names;
}

namespace {

std::string joined_names()
{
  std::string s;
  for (auto const& n : governor_names())
    s += (s.empty() ? "" : ", ") + n;
  return s;
}

} // namespace

void check_params(const GovernorParams& p, const std::string& what)
{
  auto fraction = [&](double v, const char* name) {
    if (!(v > 0 && v <= 1))
      throw InputError(what, std::string(name) + " " + units::exact(v) + " is outside (0,1]",
                       "give a load fraction, e.g. 0.8");
  };
  if (!(p.period > 0) || !std::isfinite(p.period))
    throw InputError(what, "sampling period " + units::exact(p.period) + " is not positive",
                     "give a period in seconds, e.g. 0.1");
  fraction(p.up_threshold, "up threshold");
  fraction(p.down_threshold, "down threshold");
  auto non_negative = [&](double v, const char* name, const char* fix) {
    if (!(v >= 0) || !std::isfinite(v))
      throw InputError(what, std::string(name) + " " + units::exact(v) + " is negative", fix);
  };
  non_negative(p.t_copy, "t_copy", "give 0 or the seconds of copies in t_lib");
  non_negative(p.switch_latency, "switch latency", "give 0 or more seconds");
  non_negative(p.switch_energy, "switch energy", "give 0 or more joules");
  non_negative(p.mix_margin, "mix margin", "give a fraction, e.g. 0.03");
  non_negative(p.mix_margin_s, "mix margin seconds", "give seconds, e.g. 1e-4");
  non_negative(p.peer_chain, "peer chain", "give the share of the chain float a rank may take, e.g. 1 (0: off)");
  if (!(p.adagio_factor >= 1) || !std::isfinite(p.adagio_factor))
    throw InputError(what, "adagio factor " + units::exact(p.adagio_factor) + " is below 1",
                     "give a factor >= 1, e.g. 1.1");
  if (p.adagio_step < 0)
    throw InputError(what, "adagio step " + std::to_string(p.adagio_step) + " is negative",
                     "give the levels a task may slow down per occurrence, e.g. 1 (0: no limit)");
  if (p.lagrange_plan < 0)
    throw InputError(what, "lagrange plan " + std::to_string(p.lagrange_plan) + " is negative",
                     "give the iterations the coordinated plan covers, e.g. 2 (0: off)");
  if (p.lagrange_plan_lookahead < 0)
    throw InputError(what, "lagrange plan lookahead " + std::to_string(p.lagrange_plan_lookahead) + " is negative",
                     "give the iterations after the plan's horizon it looks at, e.g. 4 (0: none)");
  if (p.lagrange_plan_scale_ranks < 0)
    throw InputError(what, "lagrange plan scale ranks " + std::to_string(p.lagrange_plan_scale_ranks) + " is negative",
                     "give the ranks from which the plan grows, e.g. 64 (0: never)");
  if (p.lagrange_plan_max < 0)
    throw InputError(what, "lagrange plan max " + std::to_string(p.lagrange_plan_max) + " is negative",
                     "give the most computations one plan may hold, e.g. 4096 (0: no limit)");
  if (!std::isfinite(p.lagrange_plan_cap))
    throw InputError(what, "lagrange plan cap is not a number", "give iterations, e.g. 0.4 (negative: no cap)");
  if (p.lagrange_memory < 1)
    throw InputError(what, "lagrange memory " + std::to_string(p.lagrange_memory) + " is below 1",
                     "give the iterations a wait must last to be slack, e.g. 1 (the last one only)");
  if (!(p.rho > 0) || !std::isfinite(p.rho))
    throw InputError(what, "rho " + units::exact(p.rho) + " is not positive", "give the ADMM penalty, e.g. 10");
  fraction(p.overlay, "overlay");
  fraction(p.mix_step, "mix step");
  if (p.mix_margin >= 1)
    throw InputError(what, "mix margin " + units::exact(p.mix_margin) + " is not below 1", "give e.g. 0.03");
}

void apply_params(GovernorParams& p, const std::string& text, const std::string& what)
{
  const std::string fix = "give key=value,... (the keys: plugins/dvfs/README.md)";
  // ',' or ';' between items: SimGrid's --cfg splits its value at commas, so haec run hands the
  // list over with ';' (cmd_run.cpp)
  std::string items = text;
  std::replace(items.begin(), items.end(), ';', ',');
  for (auto const& item : text::split(items, ',')) {
    const std::string kv = text::trim(item);
    if (kv.empty())
      continue;
    const size_t eq = kv.find('=');
    if (eq == std::string::npos)
      throw InputError(what, "'" + kv + "' is not key=value", fix);
    std::string key = text::trim(kv.substr(0, eq));
    std::replace(key.begin(), key.end(), '-', '_');
    const std::string value = text::trim(kv.substr(eq + 1));
    const std::string w = what + " " + key;
    auto num = [&] { return units::parse_number(value, w); };
    auto integer = [&] {
      const double v = num();
      if (v != std::floor(v) || v < -1 || v > 1e9)
        throw InputError(w, "'" + value + "' is not a pstate index", "give an integer >= 0, or -1");
      return static_cast<int>(v);
    };
    if (key == "period")
      p.period = num();
    else if (key == "up_threshold")
      p.up_threshold = num();
    else if (key == "down_threshold")
      p.down_threshold = num();
    else if (key == "min_pstate")
      p.min_pstate = integer();
    else if (key == "max_pstate")
      p.max_pstate = integer();
    else if (key == "t_copy")
      p.t_copy = num();
    else if (key == "adagio_factor" || key == "factor")
      p.adagio_factor = num();
    else if (key == "rho")
      p.rho = num();
    else if (key == "overlay")
      p.overlay = num();
    else if (key == "lagrange_thesis")
      p.lagrange_thesis = units::parse_bool(value, w);
    else if (key == "lagrange_premise")
      p.lagrange_premise = units::parse_bool(value, w);
    else if (key == "lagrange_growth")
      p.lagrange_growth = units::parse_bool(value, w);
    else if (key == "lagrange_memory")
      p.lagrange_memory = integer();
    else if (key == "lagrange_pipeline")
      p.lagrange_pipeline = units::parse_bool(value, w);
    else if (key == "peer_chain")
      p.peer_chain = num();
    else if (key == "lagrange_plan")
      p.lagrange_plan = integer();
    else if (key == "lagrange_plan_cap")
      p.lagrange_plan_cap = num();
    else if (key == "lagrange_plan_max")
      p.lagrange_plan_max = integer();
    else if (key == "lagrange_plan_lookahead")
      p.lagrange_plan_lookahead = integer();
    else if (key == "lagrange_plan_scale_ranks")
      p.lagrange_plan_scale_ranks = integer();
    else if (key == "lagrange_plan_solver") {
      if (value != "flow" && value != "lp" && value != "fill")
        throw InputError(w, "'" + value + "' is not a solver", "give flow (the default), lp or fill");
      p.lagrange_plan_solver = value;
    }
    else if (key == "peer_slack")
      p.peer_slack = units::parse_bool(value, w);
    else if (key == "peer_float")
      p.peer_float = units::parse_bool(value, w);
    else if (key == "adagio_thesis")
      p.adagio_thesis = units::parse_bool(value, w);
    else if (key == "adagio_step")
      p.adagio_step = integer();
    else if (key == "mix_margin")
      p.mix_margin = num();
    else if (key == "mix_margin_s")
      p.mix_margin_s = num();
    else if (key == "mix_step")
      p.mix_step = num();
    else if (key == "switch_latency")
      p.switch_latency = num();
    else if (key == "switch_energy")
      p.switch_energy = num();
    else
      throw InputError(what, "unknown parameter '" + key + "'", fix);
  }
}

std::unique_ptr<Governor> make_governor(const std::string& name, const GovernorParams& params, const HostModel& host,
                                        const std::string& what)
{
  const auto& names = governor_names();
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw InputError(what, "unknown governor '" + name + "'", "use one of " + joined_names());
  check_params(params, what);
  HostModel h = host;
  if (params.min_pstate >= 0)
    h.min_pstate = params.min_pstate;
  if (params.max_pstate >= 0)
    h.max_pstate = params.max_pstate;
  PstateTable table(h, what);
  if ((name == "lagrange" || name == "mix") && !table.has_power())
    throw InputError(what, "governor " + name + " needs the host's power profile",
                     "give the host wattage_per_state (or haec:wattage_calibration)");
  if (name == "performance")
    return std::make_unique<FixedGovernor>(name, std::move(table), true);
  if (name == "powersave")
    return std::make_unique<FixedGovernor>(name, std::move(table), false);
  if (name == "ondemand")
    return std::make_unique<OndemandGovernor>(std::move(table), params.up_threshold);
  if (name == "conservative")
    return std::make_unique<ConservativeGovernor>(std::move(table), params.up_threshold, params.down_threshold);
  if (name == "adagio")
    return std::make_unique<AdagioGovernor>(std::move(table), params.t_copy);
  if (name == "adagio-improved")
    return std::make_unique<AdagioImprovedGovernor>(std::move(table), params.t_copy, params.adagio_factor,
                                                    params.adagio_thesis, params.adagio_step);
  if (name == "lagrange")
    return std::make_unique<LagrangeGovernor>(std::move(table), params.rho, params.overlay, params.lagrange_thesis,
                                              params.lagrange_premise, params.lagrange_growth,
                                              params.lagrange_memory, params.lagrange_pipeline);
  return std::make_unique<MixGovernor>(std::move(table), params);
}

} // namespace haec::dvfs
