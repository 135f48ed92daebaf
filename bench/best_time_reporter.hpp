// Console output as usual, plus the fastest CPU time (ns) of every benchmark name over its
// repetitions, for the ratio tables the micro-benchmarks print in Finalize().
#pragma once
#include <benchmark/benchmark.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace haec::bench {

class BestTimeReporter : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run>& runs) override
  {
    for (auto const& r : runs) {
      if (r.run_type != Run::RT_Iteration || r.error_occurred)
        continue;
      const double ns = r.GetAdjustedCPUTime() * benchmark::GetTimeUnitMultiplier(benchmark::kNanosecond) /
                        benchmark::GetTimeUnitMultiplier(r.time_unit);
      const std::string name = r.run_name.function_name;
      auto it                = best_.find(name);
      best_[name]            = it == best_.end() ? ns : std::min(it->second, ns);
    }
    ConsoleReporter::ReportRuns(runs);
  }

protected:
  // Fastest ns of `name`, NaN if it did not run (filtered out).
  double get(const std::string& name) const
  {
    auto it = best_.find(name);
    return it == best_.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
  }

private:
  std::map<std::string, double> best_;
};

} // namespace haec::bench
