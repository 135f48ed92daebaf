// SMPI's piecewise bandwidth/latency factor tables ("threshold:value;threshold:value;..."), looked
// up with the rule of SimGrid 3.32's NetworkSmpiModel: the value of the last threshold strictly
// below the size, 1.0 below the first threshold. Used when the suite must install factor
// callbacks yet leave SMPI's timing unchanged (recording routes without a HAEC link model).
#pragma once
#include <string>
#include <vector>

namespace haec::core {

class SmpiFactorTable {
public:
  // Throws haec::InputError naming `what` on a malformed table.
  SmpiFactorTable(const std::string& text, const std::string& what);
  double lookup(double size) const;

private:
  struct Step {
    long long threshold;
    double value;
  };
  std::vector<Step> steps_; // sorted by threshold
};

} // namespace haec::core
