#include "energy_meter.hpp"

namespace haec::power {

HostEnergyMeter::HostEnergyMeter(HostPowerProfile profile, size_t pstate_count, double start_time)
    : profile_(std::move(profile)), last_(start_time), pstate_s_(pstate_count, 0.0)
{
}

double HostEnergyMeter::busy_cores() const
{
  double sum = 0;
  for (auto const& [share, count] : running_)
    sum += share * static_cast<double>(count);
  return sum;
}

double HostEnergyMeter::watts() const
{
  return on_ ? profile_.watts(pstate_, busy_cores()) : profile_.off_watts();
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

void HostEnergyMeter::start_computation(double share, double now)
{
  advance(now);
  ++running_[share];
}

void HostEnergyMeter::end_computation(double share, double now)
{
  advance(now);
  auto it = running_.find(share);
  if (it != running_.end() && --it->second == 0)
    running_.erase(it);
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
