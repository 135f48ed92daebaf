#include "power_tables.hpp"
#include "units.hpp"

#include <algorithm>
#include <sstream>
#include <tuple>

namespace haec::power {
using units::exact;

std::string hosts_csv(const std::vector<HostRow>& rows, double makespan_s)
{
  size_t pstates = 0;
  for (auto const& r : rows)
    pstates = std::max(pstates, r.pstate_s.size());
  std::ostringstream out;
  out << "host,energy_j,mean_power_w,busy_s,idle_s,idle_pct,off_s";
  for (size_t p = 0; p < pstates; ++p)
    out << ",pstate" << p << "_s";
  out << '\n';
  for (auto const& r : rows) {
    const double mean = makespan_s > 0 ? r.energy_j / makespan_s : 0.0;
    const double pct  = makespan_s > 0 ? 100.0 * r.idle_s / makespan_s : 0.0;
    out << r.host << ',' << exact(r.energy_j) << ',' << exact(mean) << ',' << exact(r.busy_s) << ','
        << exact(r.idle_s) << ',' << exact(pct) << ',' << exact(r.off_s);
    for (size_t p = 0; p < pstates; ++p)
      out << ',' << (p < r.pstate_s.size() ? exact(r.pstate_s[p]) : "");
    out << '\n';
  }
  return out.str();
}

std::string links_csv(const std::vector<LinkRow>& rows)
{
  std::ostringstream out;
  out << "link,type,bytes,energy_j,payload_bytes,off_s\n";
  for (auto const& r : rows)
    out << r.link << ',' << r.type << ',' << units::exact_fixed(r.bytes) << ',' << exact(r.energy_j) << ',' << units::exact_fixed(r.payload)
        << ',' << exact(r.off_s) << '\n';
  return out.str();
}

void PowerSeries::record(size_t host, double time, double watts)
{
  auto& pts = points_.at(host);
  if (!pts.empty() && pts.back().first == time)
    pts.pop_back(); // the last change at an instant is the one that holds
  if (!pts.empty() && pts.back().second == watts)
    return;
  pts.emplace_back(time, watts);
}

std::string PowerSeries::csv(const std::vector<std::string>& host_names) const
{
  std::vector<std::tuple<double, size_t, double>> all;
  for (size_t h = 0; h < points_.size(); ++h)
    for (auto const& [t, w] : points_[h])
      all.emplace_back(t, h, w);
  std::sort(all.begin(), all.end(), [](auto const& a, auto const& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
  });
  std::ostringstream out;
  out << "time,host,watts\n";
  for (auto const& [t, h, w] : all)
    out << exact(t) << ',' << host_names.at(h) << ',' << exact(w) << '\n';
  return out.str();
}

} // namespace haec::power
