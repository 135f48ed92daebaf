// The cpufreq-like governors (002 §9.1.2, Listings 2 and 3): static performance / powersave and
// the load-sampling ondemand / conservative.
#pragma once
#include "governor.hpp"

namespace haec::dvfs {

class FixedGovernor : public Governor { // performance (fastest) or powersave (slowest)
public:
  FixedGovernor(std::string name, PstateTable table, bool fastest);
  int initial_pstate() const override { return pstate_; }

private:
  int pstate_;
};

// load > up: fastest; else the slowest pstate at or above s_min + load * (s_max - s_min), as the
// kernel's "freq_next = min_f + load * (max_f - min_f)" (CPUFREQ_RELATION_L), in real
// arithmetic: SimGrid 3.32 casts the load to an integer first, so below 100 % it always picks
// the slowest pstate.
class OndemandGovernor : public Governor {
public:
  OndemandGovernor(PstateTable table, double up_threshold);
  bool samples_load() const override { return true; }
  Plan on_sample(double load) override;
  int target(double load) const; // the pstate for a load, without side effect

private:
  double up_;
};

// load > up: one pstate faster; load < down: one slower; else keep.
class ConservativeGovernor : public Governor {
public:
  ConservativeGovernor(PstateTable table, double up_threshold, double down_threshold);
  bool samples_load() const override { return true; }
  Plan on_sample(double load) override;

private:
  double up_, down_;
};

} // namespace haec::dvfs
