#include "link_usage.hpp"
#include "units.hpp"

#include <algorithm>
#include <sstream>

namespace haec::core {

using units::exact;

namespace {

// A ratio, or empty when its denominator is not positive (a run of zero length): never inf/NaN.
std::string ratio(double num, double den)
{
  return den > 0 ? exact(num / den) : std::string();
}

} // namespace

void BusyIntervals::add(double begin, double end)
{
  // Transfers are added as they complete, so a new interval almost always lies after, or starts
  // inside, the last one: both cases are settled without searching.
  if (merged_.empty() || merged_.back().end < begin) {
    merged_.push_back(Interval{begin, end});
    return;
  }
  if (merged_.back().begin <= begin) { // overlaps the last interval only (they are disjoint, sorted)
    merged_.back().end = std::max(merged_.back().end, end);
    return;
  }
  // The first interval that ends at or after `begin` may overlap; merge every one from there
  // that starts at or before `end`.
  auto first = std::lower_bound(merged_.begin(), merged_.end(), begin,
                                [](const Interval& i, double b) { return i.end < b; });
  auto last  = first;
  while (last != merged_.end() && last->begin <= end) {
    begin = std::min(begin, last->begin);
    end   = std::max(end, last->end);
    ++last;
  }
  if (first == last) {
    merged_.insert(first, Interval{begin, end});
    return;
  }
  *first = Interval{begin, end};
  merged_.erase(first + 1, last);
}

double BusyIntervals::total() const
{
  double sum = closed_;
  for (auto const& i : merged_)
    sum += i.end - i.begin;
  return sum;
}

void BusyIntervals::close_before(double horizon)
{
  // Sorted and disjoint, so their ends are sorted too.
  auto open = std::lower_bound(merged_.begin(), merged_.end(), horizon,
                               [](const Interval& i, double h) { return i.end < h; });
  for (auto it = merged_.begin(); it != open; ++it)
    closed_ += it->end - it->begin;
  merged_.erase(merged_.begin(), open);
}

uint32_t LinkUsage::add_link(LinkInfo info)
{
  infos_.push_back(std::move(info));
  uses_.emplace_back();
  touched_flag_.push_back(0);
  return static_cast<uint32_t>(infos_.size() - 1);
}

void LinkUsage::close_before(double horizon)
{
  for (uint32_t id : touched_) {
    uses_[id].busy.close_before(horizon);
    touched_flag_[id] = 0;
  }
  touched_.clear();
}

void LinkUsage::add_transfer(const RouteTransfer& t)
{
  for (uint32_t id : *t.route) {
    LinkUse& u = uses_[id];
    ++u.transfers;
    u.payload += t.payload;
    u.occupied += t.occupied;
    u.flow_s += t.end - t.bw_begin;
    u.busy.add(t.bw_begin, t.end);
    if (!touched_flag_[id]) {
      touched_flag_[id] = 1;
      touched_.push_back(id);
    }
  }
}

std::string LinkUsage::csv(const std::vector<uint32_t>& order, double makespan) const
{
  std::ostringstream out;
  out << "link,type,bandwidth_Bps,transfers,payload_bytes,occupied_bytes,utilisation,busy_s,busy_fraction,mean_flows\n";
  for (uint32_t id : order) {
    const LinkInfo& l = infos_[id];
    const LinkUse& u  = uses_[id];
    const double busy = u.busy.total();
    out << l.name << ',' << l.type << ',' << exact(l.bandwidth) << ',' << u.transfers << ',' << u.payload << ','
        << units::exact_fixed(u.occupied) << ',' << ratio(u.occupied, l.bandwidth * makespan) << ',' << exact(busy) << ','
        << ratio(busy, makespan) << ',' << ratio(u.flow_s, busy) << '\n';
  }
  return out.str();
}

} // namespace haec::core
