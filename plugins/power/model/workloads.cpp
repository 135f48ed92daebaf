#include "workloads.hpp"
#include "json_object.hpp"
#include "input_error.hpp"
#include "text.hpp"
#include "units.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace haec::power {
namespace {

const char* kFix = "see plugins/power/README.md (workload phases) for the file format";

int profile_index(const std::map<std::string, int>& names, const nlohmann::json& v, const std::string& file,
                  const std::string& where)
{
  if (!v.is_string())
    throw InputError(file, where + " is not a profile name", kFix);
  auto it = names.find(v.get<std::string>());
  if (it == names.end())
    throw InputError(file, where + " names unknown profile '" + v.get<std::string>() + "'",
                     "define it under \"profiles\" or fix the name");
  return it->second;
}

int rank_number(const std::string& text, const std::string& file)
{
  std::string t = text::trim(text);
  if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos)
    throw InputError(file, "rank '" + text + "' is not a rank number or range", "write \"3\" or \"4-7\"");
  return std::stoi(t);
}

} // namespace

WorkloadSet WorkloadSet::parse(const std::string& json_text, const std::string& file)
{
  nlohmann::json j = parse_json_object(json_text, file, kFix, {"profiles", "default", "hosts", "ranks", "regions"});

  WorkloadSet set;
  set.file_ = file;
  if (!j.contains("profiles") || !j["profiles"].is_object() || j["profiles"].empty())
    throw InputError(file, "has no \"profiles\" object", kFix);
  std::map<std::string, int> names;
  for (auto const& [name, body] : j["profiles"].items()) {
    const std::string where = "profile '" + name + "'";
    if (!body.is_object())
      throw InputError(file, where + " is not an object", kFix);
    WorkloadProfile p;
    p.name = name;
    for (auto const& [key, value] : body.items()) {
      if (key == "dynamic_scale") {
        if (!value.is_number() || !(value.get<double>() >= 0) || !std::isfinite(value.get<double>()))
          throw InputError(file, where + " dynamic_scale is not a number >= 0", "give e.g. 0.6");
        p.dynamic_scale = value.get<double>();
      } else if (key == "all_cores") {
        if (!value.is_array() || value.empty())
          throw InputError(file, where + " all_cores is not a list of watts", "give one value per pstate");
        for (auto const& w : value) {
          if (!w.is_number() || !(w.get<double>() >= 0) || !std::isfinite(w.get<double>()))
            throw InputError(file, where + " all_cores holds a value that is not watts >= 0", "give numbers >= 0");
          p.all_cores.push_back(w.get<double>());
        }
      } else {
        throw InputError(file, where + " has unknown key '" + key + "'", "use dynamic_scale or all_cores");
      }
    }
    if (body.contains("dynamic_scale") && body.contains("all_cores"))
      throw InputError(file, where + " has both dynamic_scale and all_cores", "give one of them");
    names[name] = static_cast<int>(set.profiles_.size());
    set.profiles_.push_back(std::move(p));
  }
  if (j.contains("default"))
    set.default_ = profile_index(names, j["default"], file, "\"default\"");
  for (const char* section : {"hosts", "regions"}) {
    if (!j.contains(section))
      continue;
    if (!j[section].is_object())
      throw InputError(file, std::string("\"") + section + "\" is not an object", kFix);
    auto& target = std::string(section) == "hosts" ? set.hosts_ : set.regions_;
    for (auto const& [key, value] : j[section].items())
      target[key] = profile_index(names, value, file, std::string(section) + " entry '" + key + "'");
  }
  if (j.contains("ranks")) {
    if (!j["ranks"].is_object())
      throw InputError(file, "\"ranks\" is not an object", kFix);
    for (auto const& [key, value] : j["ranks"].items()) {
      auto parts = text::split(key, '-');
      if (parts.size() > 2)
        throw InputError(file, "rank '" + key + "' is not a rank number or range", "write \"3\" or \"4-7\"");
      int first = rank_number(parts[0], file), last = parts.size() == 2 ? rank_number(parts[1], file) : first;
      if (last < first)
        throw InputError(file, "rank range '" + key + "' ends before it starts", "write first-last, e.g. 4-7");
      for (auto const& [other, unused] : set.rank_ranges_)
        if (first <= other.second && other.first <= last)
          throw InputError(file, "rank '" + key + "' overlaps another ranks entry", "give each rank one profile");
      set.rank_ranges_.push_back({{first, last}, profile_index(names, value, file, "ranks entry '" + key + "'")});
      set.max_rank_ = std::max(set.max_rank_, last);
    }
  }
  return set;
}

int WorkloadSet::choose(const std::string& region, int rank, const std::string& host) const
{
  if (!regions_.empty() && !region.empty()) {
    if (auto it = regions_.find(region); it != regions_.end())
      return it->second;
  }
  if (rank >= 0)
    for (auto const& [range, profile] : rank_ranges_) // ranges do not overlap (parse checks)
      if (rank >= range.first && rank <= range.second)
        return profile;
  if (auto it = hosts_.find(host); it != hosts_.end())
    return it->second;
  return default_;
}

std::vector<double> WorkloadSet::slopes(size_t profile, const HostPowerProfile& base, const std::string& host) const
{
  const WorkloadProfile& p = profiles_.at(profile);
  const auto& pstates      = base.pstates();
  std::vector<double> out;
  if (p.all_cores.empty()) {
    for (auto const& ps : pstates)
      out.push_back(ps.slope * p.dynamic_scale);
    return out;
  }
  const std::string where = "host " + host + ", profile '" + p.name + "'";
  if (p.all_cores.size() != pstates.size())
    throw InputError(file_, where + ": " + std::to_string(p.all_cores.size()) + " all_cores values for " +
                                std::to_string(pstates.size()) + " pstates",
                     "give one value per pstate of the host");
  for (size_t i = 0; i < pstates.size(); ++i) {
    const double steps = (base.sockets() - 1) * pstates[i].socket;
    const double slope = p.all_cores[i] - pstates[i].epsilon - steps;
    if (slope < 0)
      throw InputError(file_, where + ": all_cores " + units::exact(p.all_cores[i]) + " W at pstate " +
                                  std::to_string(i) + " is below the host's static power",
                       "give all_cores >= P_static (" + units::exact(pstates[i].epsilon + steps) + " W)");
    out.push_back(slope);
  }
  return out;
}

} // namespace haec::power
