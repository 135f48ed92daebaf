// Cost per message of the resilient link models (DOR_r, PNC_r, NCD_r) in expected and sampled
// mode, against a baseline measured in the same run (a loop summing the route's hop latencies, as
// in bench_link_model), and the start-up cost of solving the round chains for every route class
// of a 16x16x16 torus (hop counts 1..24, s_w = 5 full and the four partial fills, p = 0.01).
// The table at the end gives ns per message and the ratio to the baseline of the same route.
//   haec_bench_resilient [--benchmark_repetitions=3] [--benchmark_min_time=0.2]
#include "resilient_model.hpp"

#include "best_time_reporter.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <cmath>
#include <map>
#include <ostream>
#include <string>
#include <vector>

using namespace haec::link::resilient;

namespace {

const uint64_t kSizes[] = {256, 204800};
const int kHops[]       = {1, 6, 48};
const Protocol kProtocols[] = {Protocol::DOR_r, Protocol::PNC_r, Protocol::NCD_r};

std::vector<Hop> route(int h)
{
  return std::vector<Hop>(h, Hop{1.27e-6, 9.375e9, 0.01, 0.01});
}

void baseline(benchmark::State& state, int h)
{
  auto hops = route(h);
  for (auto _ : state) {
    benchmark::ClobberMemory();
    double sum = 0;
    for (auto const& hop : hops)
      sum += hop.latency;
    benchmark::DoNotOptimize(sum);
  }
}

void expected(benchmark::State& state, Protocol p, uint64_t m, int h)
{
  Model model(p, preset("physical"));
  auto hops = route(h);
  model.expected_time(m, hops.data(), hops.size()); // warm the route class's table
  for (auto _ : state) {
    benchmark::DoNotOptimize(m);
    benchmark::ClobberMemory();
    double t = model.expected_time(m, hops.data(), hops.size());
    benchmark::DoNotOptimize(t);
  }
}

// As the link plugin calls it: the route reduced once per host pair, then one call per message.
void summarised(benchmark::State& state, Protocol p, uint64_t m, int h)
{
  Model model(p, preset("physical"));
  auto hops  = route(h);
  auto route = model.summarize(hops.data(), hops.size());
  model.expected_time(m, route);
  for (auto _ : state) {
    benchmark::DoNotOptimize(m);
    benchmark::ClobberMemory();
    double t = model.expected_time(m, route) + model.bottleneck_serialisation(m, route);
    benchmark::DoNotOptimize(t);
  }
}

void sampled(benchmark::State& state, Protocol p, uint64_t m, int h)
{
  Model model(p, preset("physical"));
  auto hops = route(h);
  std::mt19937_64 rng(1);
  model.sampled_time(m, hops.data(), hops.size(), rng);
  for (auto _ : state) {
    double t = model.sampled_time(m, hops.data(), hops.size(), rng);
    benchmark::DoNotOptimize(t);
  }
}

// Every route class of a 16x16x16 torus with one loss probability: h = 1..24, each with the full
// window and the partial fills 1..s_w-1.
void torus_startup(benchmark::State& state, Protocol p)
{
  for (auto _ : state) {
    Model model(p, preset("physical"));
    for (int h = 1; h <= 24; ++h) {
      const double q = std::pow(0.99, h);
      for (int g = 1; g <= model.params().window; ++g)
        benchmark::DoNotOptimize(model.window_stats(g, q, q));
    }
    state.counters["classes"] = static_cast<double>(model.cached_classes());
  }
}

std::string key(uint64_t m, int h) { return "m:" + std::to_string(m) + "/h:" + std::to_string(h); }

class RatioReporter : public haec::bench::BestTimeReporter {
public:
  void Finalize() override
  {
    ConsoleReporter::Finalize();
    auto& out = GetOutputStream();
    char line[260];
    out << "\nns per message (CPU, fastest repetition), p = 0.01 per link; ratio = model / baseline of the route\n";
    out << "exp: expected_time walking the route; plugin: route summarised once per host pair, then\n"
           "expected_time + bottleneck_serialisation per message (what the link plugin does); samp: sampled_time\n";
    std::snprintf(line, sizeof line, "%-16s %9s | %-30s | %-30s | %-30s\n", "message", "baseline",
                  "dor_r exp/plugin/samp", "pnc_r exp/plugin/samp", "ncd_r exp/plugin/samp");
    out << line;
    for (uint64_t m : kSizes)
      for (int h : kHops) {
        const std::string k = key(m, h);
        const double b      = get("baseline/h:" + std::to_string(h));
        std::string row;
        for (Protocol p : kProtocols) {
          const double e = get(protocol_name(p) + "/expected/" + k), s = get(protocol_name(p) + "/sampled/" + k),
                       pl = get(protocol_name(p) + "/plugin/" + k);
          char cell[80];
          std::snprintf(cell, sizeof cell, " | %6.1f (x%4.1f) %6.1f %8.0f", e, e / b, pl, s);
          row += cell;
        }
        std::snprintf(line, sizeof line, "%-16s %9.2f%s\n", k.c_str(), b, row.c_str());
        out << line;
      }
    for (Protocol p : kProtocols)
      out << "start-up, every route class of a 16x16x16 torus (" << protocol_name(p)
          << "): " << get("startup/" + protocol_name(p)) / 1e6 << " ms\n";
  }

};

} // namespace

int main(int argc, char** argv)
{
  for (int h : kHops)
    benchmark::RegisterBenchmark(("baseline/h:" + std::to_string(h)).c_str(), baseline, h);
  for (Protocol p : kProtocols) {
    for (uint64_t m : kSizes)
      for (int h : kHops) {
        benchmark::RegisterBenchmark((protocol_name(p) + "/expected/" + key(m, h)).c_str(), expected, p, m, h);
        benchmark::RegisterBenchmark((protocol_name(p) + "/sampled/" + key(m, h)).c_str(), sampled, p, m, h);
        benchmark::RegisterBenchmark((protocol_name(p) + "/plugin/" + key(m, h)).c_str(), summarised, p, m, h);
      }
    benchmark::RegisterBenchmark(("startup/" + protocol_name(p)).c_str(), torus_startup, p)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
