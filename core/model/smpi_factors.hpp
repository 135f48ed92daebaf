// SMPI's piecewise bandwidth/latency factor tables ("threshold:value;threshold:value;..."), looked
// up with the rule of SimGrid's SMPI network model (3.32's NetworkSmpiModel, 4.1's FactorSet): the
// value of the last threshold strictly below the size, 1.0 below the first threshold. SimGrid 3.34
// and later also take a single value ("0.97"), the factor of every size. Used when the suite must install factor
// callbacks yet leave SMPI's timing unchanged (recording routes without a HAEC link model).
#pragma once
#include <string>
#include <vector>

namespace haec::core {

class SmpiFactorTable {
public:
  // Throws haec::InputError naming `what` on a malformed table (or on a single value, unless
  // `single_value` allows it).
  SmpiFactorTable(const std::string& text, const std::string& what, bool single_value = false);
  double lookup(double size) const;

private:
  struct Step {
    long long threshold;
    double value;
  };
  std::vector<Step> steps_; // sorted by threshold
  double below_first_ = 1.0; // the factor below the first threshold (every size's, for a single value)
};

} // namespace haec::core
