#include "core_settings.hpp"
#include "input_error.hpp"
#include "run_options.hpp"

namespace haec::cli {
namespace {

std::pair<std::string, std::string> key_value(const std::string& kv)
{
  auto colon = kv.find(':');
  if (colon == std::string::npos || colon == 0)
    throw InputError("--cfg " + kv, "not of the form KEY:VALUE", "write e.g. --cfg haec/link/window:5");
  return {kv.substr(0, colon), kv.substr(colon + 1)};
}

// What the options say, as settings given by those options.
void give_options(const RunOptions& o, settings::Values& v)
{
  v.give("haec/out", o.out, "--out");
  v.give("haec/link/model", o.link, "--link");
  if (o.routing != "static")
    v.give("haec/routing", o.routing, "--routing");
  if (!o.routing_seed.empty())
    v.give("haec/routing/seed", o.routing_seed, "--routing-seed");
  if (o.messages)
    v.give("haec/messages", "yes", "--messages");
  if (o.events)
    v.give("haec/events", "yes", "--events");
  if (o.snapshot_given) // an empty value is an error, not "no snapshots"
    v.give("haec/snapshot-period", o.snapshot_period, "--snapshot-period");
  if (o.power || o.power_series || !o.workloads.empty() || !o.governor.empty() || !o.power_model.empty())
    v.give("haec/power", "yes", "--power");
  if (!o.power_model.empty())
    v.give("haec/power/model", o.power_model, "--power-model");
  if (!o.counter_coefficients.empty())
    v.give("haec/power/counter-coefficients", o.counter_coefficients, "--counter-coefficients");
  if (o.power_series)
    v.give("haec/power/series", "yes", "--power-series");
  if (!o.workloads.empty())
    v.give("haec/power/workloads", o.workloads, "--workloads");
  if (!o.governor.empty())
    v.give("haec/dvfs/governor", o.governor, "--governor");
  if (o.iterations_given)
    v.give("haec/iterations", o.iterations, "--iterations");
  if (!o.balance.empty())
    v.give("haec/balance/strategy", o.balance, "--balance");
  if (o.every_given)
    v.give("haec/balance/every", o.every, "--every");
}

} // namespace

settings::Values run_settings(const RunOptions& o, const std::set<std::string>& host_properties)
{
  const settings::Table& table = core::settings_table();
  settings::Values v(table, settings::Source::Cli);
  give_options(o, v);
  for (auto const& kv : o.cfg) {
    auto [key, value] = key_value(kv);
    if (key.rfind("haec/", 0) != 0)
      continue;
    table.check_key(key, "--cfg " + key);
    const settings::Setting& s = table.at(key);
    if (s.reserved)
      throw InputError("--cfg " + key, "is set by haec run itself",
                       s.option.empty() ? "haec run writes it" : "use " + s.option + " instead");
    v.give(key, value);
  }
  for (auto const& s : table.rows())
    if (!s.host_property.empty() && host_properties.count(s.host_property))
      v.assume_active(s.key);
  core::validate_settings(v);
  return v;
}

std::vector<std::string> simgrid_settings(const RunOptions& o)
{
  std::vector<std::string> out;
  for (auto const& kv : o.cfg)
    if (key_value(kv).first.rfind("haec/", 0) != 0)
      out.push_back(kv);
  return out;
}

} // namespace haec::cli
