#include "energy_meter.hpp"

namespace haec::power {

HostEnergyMeter::HostEnergyMeter(HostPowerProfile profile, size_t pstate_count, double start_time)
    : profile_(std::move(profile)), last_(start_time), pstate_s_(pstate_count, 0.0)
{
}

int HostEnergyMeter::add_workload(std::vector<double> slope_per_pstate)
{
  workload_slopes_.push_back(std::move(slope_per_pstate));
  return static_cast<int>(workload_slopes_.size());
}

double HostEnergyMeter::busy_cores() const
{
  double sum = 0;
  for (auto const& [key, count] : running_)
    sum += key.second * static_cast<double>(count);
  return sum;
}

double HostEnergyMeter::slope_now() const
{
  auto slope_of = [this](int workload) {
    return workload == 0 ? profile_.pstates().at(static_cast<size_t>(pstate_)).slope
                         : workload_slopes_.at(static_cast<size_t>(workload - 1)).at(static_cast<size_t>(pstate_));
  };
  const int first = running_.begin()->first.first;
  if (running_.rbegin()->first.first == first) // one workload (the map is ordered by workload)
    return slope_of(first);
  double weighted = 0, busy = 0; // several: P_dynamic is the share-weighted mean
  for (auto const& [key, count] : running_) {
    weighted += key.second * static_cast<double>(count) * slope_of(key.first);
    busy += key.second * static_cast<double>(count);
  }
  return busy > 0 ? weighted / busy : slope_of(first);
}

double HostEnergyMeter::watts() const
{
  if (!on_)
    return profile_.off_watts();
  if (counters_)
    return counters_->watts(static_cast<size_t>(pstate_));
  if (running_.empty() || !profile_.has_profile())
    return profile_.watts(pstate_, 0.0);
  return profile_.watts(pstate_, busy_cores(), slope_now());
}

void HostEnergyMeter::advance(double now)
{
  if (!(now > last_)) // same instant (or a late signal): nothing elapsed
    return;
  const double dt = now - last_;
  energy_ += watts() * dt;
  if (!on_)
    off_ += dt;
  else {
    (busy_cores() > 0 ? busy_ : idle_) += dt;
    pstate_s_.at(static_cast<size_t>(pstate_)) += dt;
  }
  last_ = now;
}

void HostEnergyMeter::start_computation(double share, double now, int workload)
{
  advance(now);
  ++running_[{workload, share}];
}

void HostEnergyMeter::end_computation(double share, double now, int workload)
{
  advance(now);
  auto it = running_.find({workload, share});
  if (it != running_.end() && --it->second == 0)
    running_.erase(it);
}

void HostEnergyMeter::start_counted(uint64_t id, std::vector<double> counts_per_flop, double now)
{
  start_computation(1.0, now);
  counters_->start(id, std::move(counts_per_flop));
}

void HostEnergyMeter::end_counted(uint64_t id, double now)
{
  end_computation(1.0, now);
  counters_->end(id);
}

void HostEnergyMeter::set_pstate(int pstate, double now)
{
  advance(now);
  pstate_ = pstate;
}

void HostEnergyMeter::set_on(bool on, double now)
{
  advance(now);
  on_ = on;
}

} // namespace haec::power
