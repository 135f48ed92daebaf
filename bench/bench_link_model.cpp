// Cost per message of the HAEC link model (DorPncModel::transfer_time, DOR and PNC) against a
// baseline measured in the same run: a loop that only sums the route's hop latencies, the least
// any route-based model must do. "plugin" adds bottleneck_serialisation, as the link plugin calls
// both per transfer. At the end a table gives every figure as a ratio to its baseline.
//   haec_bench_link_model [--benchmark_repetitions=5] [--benchmark_min_time=0.2]
#include "dor_pnc_model.hpp"

#include "best_time_reporter.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <ostream>
#include <string>
#include <vector>

using namespace haec::link;

namespace {

const uint64_t kSizes[] = {256, 1 << 20};
const int kHops[]       = {1, 6, 48};

// A haec-box-like route: two optical hops for every wireless one.
std::vector<Hop> route(int h)
{
  std::vector<Hop> hops;
  for (int i = 0; i < h; ++i)
    hops.push_back(i % 3 == 2 ? Hop{100e-9, 12.5e9} : Hop{10e-9, 31.25e9});
  return hops;
}

void baseline(benchmark::State& state, uint64_t, int h)
{
  auto hops = route(h);
  for (auto _ : state) {
    benchmark::ClobberMemory(); // the route must be read again every message
    double sum = 0;
    for (auto const& hop : hops)
      sum += hop.latency;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations());
}

void transfer(benchmark::State& state, Protocol p, uint64_t m, int h, bool with_serialisation)
{
  DorPncModel model(p, {});
  auto hops = route(h);
  for (auto _ : state) {
    benchmark::DoNotOptimize(m);
    benchmark::ClobberMemory();
    double t = model.transfer_time(m, hops.data(), hops.size());
    if (with_serialisation)
      t += model.bottleneck_serialisation(m, hops.data(), hops.size());
    benchmark::DoNotOptimize(t);
  }
  state.SetItemsProcessed(state.iterations());
}

std::string key(uint64_t m, int h)
{
  return "m:" + std::to_string(m) + "/h:" + std::to_string(h);
}

// ns/message and the ratio to the baseline of the same (m, h).
class RatioReporter : public haec::bench::BestTimeReporter {
public:
  void Finalize() override
  {
    ConsoleReporter::Finalize();
    auto& out = GetOutputStream();
    out << "\nns per message (CPU, fastest repetition); ratio = model / baseline of the same route\n";
    char line[160];
    std::snprintf(line, sizeof line, "%-16s %10s %10s %7s %10s %7s %12s %7s\n", "message", "baseline", "DOR",
                  "ratio", "PNC", "ratio", "DOR plugin", "ratio");
    out << line;
    for (uint64_t m : kSizes)
      for (int h : kHops) {
        std::string k = key(m, h);
        double b = get("baseline/" + k), d = get("dor/" + k), p = get("pnc/" + k), dp = get("dor+serial/" + k);
        std::snprintf(line, sizeof line, "%-16s %10.2f %10.2f %7.2f %10.2f %7.2f %12.2f %7.2f\n", k.c_str(), b, d,
                      d / b, p, p / b, dp, dp / b);
        out << line;
      }
  }

};

} // namespace

int main(int argc, char** argv)
{
  for (uint64_t m : kSizes)
    for (int h : kHops) {
      std::string k = key(m, h);
      benchmark::RegisterBenchmark(("baseline/" + k).c_str(), baseline, m, h);
      benchmark::RegisterBenchmark(("dor/" + k).c_str(), transfer, Protocol::DOR, m, h, false);
      benchmark::RegisterBenchmark(("pnc/" + k).c_str(), transfer, Protocol::PNC, m, h, false);
      benchmark::RegisterBenchmark(("dor+serial/" + k).c_str(), transfer, Protocol::DOR, m, h, true);
    }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
