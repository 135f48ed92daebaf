#include "counter_model.hpp"
#include "json_object.hpp"
#include "input_error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace haec::power {
namespace {

const char* kFix = "see plugins/power/README.md (counter-based power) for the file format";

double non_negative(const nlohmann::json& v, const std::string& file, const std::string& where)
{
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
    throw InputError(file, where + " is not a finite number >= 0", kFix);
  return v.get<double>();
}

std::vector<std::string> parse_events(const nlohmann::json& j, const std::string& file)
{
  if (!j.contains("events") || !j["events"].is_array() || j["events"].empty())
    throw InputError(file, "has no \"events\" list", kFix);
  std::vector<std::string> events;
  std::set<std::string> seen;
  for (auto const& e : j["events"]) {
    if (!e.is_string() || e.get<std::string>().empty())
      throw InputError(file, "\"events\" holds something that is not an event name", kFix);
    if (!seen.insert(e.get<std::string>()).second)
      throw InputError(file, "event " + e.get<std::string>() + " is listed twice", "list each event once");
    events.push_back(e.get<std::string>());
  }
  return events;
}

CounterPstate parse_pstate(const nlohmann::json& p, size_t index, size_t events, const std::string& file)
{
  const std::string where = "pstate " + std::to_string(index);
  if (!p.is_object())
    throw InputError(file, where + " is not an object", kFix);
  for (auto const& [key, value] : p.items())
    if (key != "p_static" && key != "coefficients")
      throw InputError(file, where + ": unknown key '" + key + "'", "use p_static and coefficients");
  if (!p.contains("p_static") || !p.contains("coefficients") || !p["coefficients"].is_array())
    throw InputError(file, where + " needs p_static and a coefficients list", kFix);
  if (p["coefficients"].size() != events)
    throw InputError(file,
                     where + " has " + std::to_string(p["coefficients"].size()) + " coefficients for " +
                         std::to_string(events) + " events",
                     "give one coefficient per event, in the order of \"events\"");
  CounterPstate s;
  s.p_static = non_negative(p["p_static"], file, where + " p_static");
  for (size_t k = 0; k < events; ++k)
    s.coefficients.push_back(non_negative(p["coefficients"][k], file, where + " coefficient " + std::to_string(k)));
  return s;
}

} // namespace

CounterCoefficients::CounterCoefficients(std::vector<std::string> events, std::vector<CounterPstate> pstates)
    : events_(std::move(events)), pstates_(std::move(pstates))
{
}

CounterCoefficients CounterCoefficients::parse(const std::string& json_text, const std::string& file)
{
  nlohmann::json j = parse_json_object(json_text, file, kFix, {"events", "pstates", "fit"});
  std::vector<std::string> events = parse_events(j, file);
  if (!j.contains("pstates") || !j["pstates"].is_array() || j["pstates"].empty())
    throw InputError(file, "has no \"pstates\" list", kFix);
  std::vector<CounterPstate> pstates;
  for (size_t i = 0; i < j["pstates"].size(); ++i)
    pstates.push_back(parse_pstate(j["pstates"][i], i, events.size(), file));
  return CounterCoefficients(std::move(events), std::move(pstates));
}

std::string CounterCoefficients::to_json(const std::string& fit_json) const
{
  nlohmann::ordered_json j;
  j["events"] = events_;
  j["pstates"] = nlohmann::ordered_json::array();
  for (auto const& p : pstates_)
    j["pstates"].push_back({{"p_static", p.p_static}, {"coefficients", p.coefficients}});
  if (!fit_json.empty())
    j["fit"] = nlohmann::ordered_json::parse(fit_json);
  return j.dump(2) + "\n";
}

int CounterCoefficients::index_of(const std::string& event) const
{
  auto it = std::find(events_.begin(), events_.end(), event);
  return it == events_.end() ? -1 : static_cast<int>(it - events_.begin());
}

double CounterCoefficients::watts(size_t pstate, const std::vector<double>& rates) const
{
  const CounterPstate& p = pstates_.at(pstate);
  double watts = p.p_static;
  for (size_t k = 0; k < p.coefficients.size(); ++k)
    watts += p.coefficients[k] * rates.at(k);
  return watts;
}

std::vector<size_t> match_events(const CounterCoefficients& coefficients, const std::vector<std::string>& run_events,
                                 const std::string& file)
{
  std::vector<size_t> index;
  for (auto const& e : run_events) {
    const int k = coefficients.index_of(e);
    if (k < 0)
      throw InputError(file, "has no coefficient for event " + e + ", which the computations count",
                       "fit coefficients for every recorded event (haec calibrate power --counters)");
    index.push_back(static_cast<size_t>(k));
  }
  for (auto const& e : coefficients.events())
    if (std::find(run_events.begin(), run_events.end(), e) == run_events.end())
      throw InputError(file, "prices event " + e + ", which the computations do not count",
                       "record that event too, or fit coefficients for the recorded events only");
  return index;
}

CounterNodePower::CounterNodePower(CounterCoefficients coefficients, std::vector<double> speed_per_pstate, int cores)
    : coefficients_(std::move(coefficients)), speed_(std::move(speed_per_pstate)), cores_(cores)
{
}

void CounterNodePower::start(uint64_t id, std::vector<double> counts_per_flop)
{
  running_[id] = std::move(counts_per_flop);
}

void CounterNodePower::end(uint64_t id)
{
  running_.erase(id);
}

std::vector<double> CounterNodePower::rates(size_t pstate) const
{
  std::vector<double> rates(coefficients_.events().size(), 0.0);
  if (running_.empty())
    return rates;
  // Each computation runs at the core's speed, or at its share of the cores when they are fewer.
  const double n     = static_cast<double>(running_.size());
  const double speed = speed_.at(pstate) * std::min(1.0, static_cast<double>(cores_) / n);
  for (auto const& [id, per_flop] : running_)
    for (size_t k = 0; k < rates.size(); ++k)
      rates[k] += per_flop[k] * speed;
  return rates;
}

double CounterNodePower::watts(size_t pstate) const
{
  return coefficients_.watts(pstate, rates(pstate));
}

} // namespace haec::power
