#include "snapshots.hpp"
#include "units.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace haec::core {

using units::exact;

uint64_t Snapshots::index(double time) const
{
  return time <= 0 ? 0 : static_cast<uint64_t>(std::floor(time / period_));
}

uint64_t Snapshots::periods(double makespan) const
{
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(makespan / period_)));
}

void Snapshots::add_app_message(int src_rank, int dst_rank, uint64_t bytes, double time)
{
  auto& cell = traffic_[{index(time), src_rank, dst_rank}];
  ++cell.first;
  cell.second += bytes;
}

void Snapshots::add_transfer(const RouteTransfer& t)
{
  const uint64_t last  = index(t.end);
  const uint64_t first = std::min(index(t.bw_begin), last);
  const double length  = t.end - t.bw_begin;
  for (uint32_t id : *t.route) {
    LinkCell& done = links_[{last, id}];
    ++done.transfers;
    done.payload += t.payload;
    for (uint64_t k = first; k <= last; ++k) {
      const double lo      = std::max(t.bw_begin, static_cast<double>(k) * period_);
      const double hi      = std::min(t.end, static_cast<double>(k + 1) * period_);
      const double overlap = std::max(0.0, hi - lo);
      links_[{k, id}].occupied += length > 0 ? t.occupied * (overlap / length) : t.occupied;
    }
  }
}

namespace {

// Period k's bounds, the last one ending at the makespan.
std::string bounds(uint64_t k, double period, uint64_t periods, double makespan)
{
  const double end = k + 1 == periods ? makespan : static_cast<double>(k + 1) * period;
  return exact(static_cast<double>(k) * period) + ',' + exact(end);
}

double length(uint64_t k, double period, uint64_t periods, double makespan)
{
  return (k + 1 == periods ? makespan : static_cast<double>(k + 1) * period) - static_cast<double>(k) * period;
}

std::string ratio(double num, double den)
{
  return den > 0 ? exact(num / den) : std::string();
}

} // namespace

std::string Snapshots::traffic_csv(double makespan) const
{
  const uint64_t n = periods(makespan);
  // Instants at the makespan itself (or beyond, by rounding) belong to the last period.
  std::map<std::tuple<uint64_t, int, int>, std::pair<uint64_t, uint64_t>> folded;
  for (auto const& [key, cell] : traffic_) {
    auto& f = folded[{std::min(std::get<0>(key), n - 1), std::get<1>(key), std::get<2>(key)}];
    f.first += cell.first;
    f.second += cell.second;
  }
  std::ostringstream out;
  out << "period,start_s,end_s,src_rank,dst_rank,messages,bytes\n";
  for (auto const& [key, cell] : folded)
    out << std::get<0>(key) << ',' << bounds(std::get<0>(key), period_, n, makespan) << ',' << std::get<1>(key) << ','
        << std::get<2>(key) << ',' << cell.first << ',' << cell.second << '\n';
  return out.str();
}

std::string Snapshots::links_csv(const LinkUsage& usage, const std::vector<uint32_t>& order, double makespan) const
{
  const uint64_t n = periods(makespan);
  std::map<std::pair<uint64_t, uint32_t>, LinkCell> folded;
  for (auto const& [key, cell] : links_) {
    LinkCell& f = folded[{std::min(key.first, n - 1), key.second}];
    f.transfers += cell.transfers;
    f.payload += cell.payload;
    f.occupied += cell.occupied;
  }
  for (uint32_t id = 0; id < usage.size(); ++id)
    for (auto const& i : usage.use(id).busy.intervals())
      for (uint64_t k = std::min(index(i.begin), n - 1); k <= std::min(index(i.end), n - 1); ++k) {
        const double lo = std::max(i.begin, static_cast<double>(k) * period_);
        const double hi = k + 1 == n ? i.end : std::min(i.end, static_cast<double>(k + 1) * period_);
        if (hi > lo)
          folded[{k, id}].busy += hi - lo;
      }
  std::vector<size_t> rank_of(usage.size()); // position of each link in `order`: rows follow it
  for (size_t p = 0; p < order.size(); ++p)
    rank_of[order[p]] = p;
  std::vector<std::pair<uint64_t, uint32_t>> keys;
  for (auto const& [key, cell] : folded)
    keys.push_back(key);
  std::sort(keys.begin(), keys.end(), [&rank_of](auto const& a, auto const& b) {
    return a.first != b.first ? a.first < b.first : rank_of[a.second] < rank_of[b.second];
  });
  std::ostringstream out;
  out << "period,start_s,end_s,link,transfers,payload_bytes,occupied_bytes,utilisation,busy_s,busy_fraction\n";
  for (auto const& key : keys) {
    const LinkCell& c = folded[key];
    const double len  = length(key.first, period_, n, makespan);
    out << key.first << ',' << bounds(key.first, period_, n, makespan) << ',' << usage.info(key.second).name << ','
        << c.transfers << ',' << c.payload << ',' << units::exact_fixed(c.occupied) << ','
        << ratio(c.occupied, usage.info(key.second).bandwidth * len) << ',' << exact(c.busy) << ','
        << ratio(c.busy, len) << '\n';
  }
  return out.str();
}

} // namespace haec::core
