// Cost of one governor decision (Google Benchmark), on the taurus-8 host: a load sample for the
// sampling governors, a task end + the next start for the task governors, an iteration for
// Lagrange; plus the iteration detector's cost per MPI call and one offline plan per window.
#include "governor.hpp"
#include "iteration_detector.hpp"
#include "power_profile.hpp"
#include "window_plan.hpp"

#include <benchmark/benchmark.h>

using namespace haec::dvfs;
using haec::iterations::IterationDetector;

namespace {

HostModel taurus8()
{
  const double t[12][3] = {{92.75, 114.62, 174.38}, {92.75, 113.25, 168.62}, {92.88, 112.25, 162.88},
                           {92.88, 110.75, 157.12}, {92.88, 110.38, 151.75}, {92.88, 109.38, 147.25},
                           {92.88, 108.62, 142.75}, {93, 107.38, 138.25},    {93.12, 106.75, 134},
                           {93, 106.5, 130.62},     {93, 105.12, 127},       {93.25, 104.62, 123.62}};
  HostModel h;
  std::vector<haec::power::PstatePower> p;
  for (int i = 0; i < 12; ++i) {
    h.speeds.push_back((23 - i) * 1e8);
    p.push_back(haec::power::from_calibration(t[i][0], t[i][1], t[i][2], 12));
  }
  h.power      = haec::power::HostPowerProfile(p, 10, 12);
  h.busy_cores = 12;
  return h;
}

void BM_Sample(benchmark::State& state, const char* name)
{
  auto g = make_governor(name, {}, taurus8());
  double load = 0;
  for (auto _ : state) {
    load = load > 0.99 ? 0.0 : load + 0.013;
    Plan p = g->on_sample(load);
    benchmark::DoNotOptimize(p);
    if (p.pstate >= 0)
      g->on_pstate_changed(p.pstate);
  }
}

// 16 task keys in turn; the work and wait of each vary.
void BM_Task(benchmark::State& state, const char* name)
{
  auto g = make_governor(name, {}, taurus8());
  uint64_t i = 0;
  for (auto _ : state) {
    const uint64_t key = i % 16;
    const double flops = 1e9 * (1 + 0.001 * static_cast<double>(i % 97));
    Plan p = g->on_task_start(key, flops);
    benchmark::DoNotOptimize(p);
    g->on_task_end({key, flops, flops / 2.0e9, 0.05 + 0.001 * static_cast<double>(i % 13), 0});
    ++i;
  }
}

void BM_Iteration(benchmark::State& state, const char* name)
{
  auto g = make_governor(name, {}, taurus8());
  uint64_t i = 0;
  for (auto _ : state) {
    const double w = 2e9 * (1 + 0.001 * static_cast<double>(i++ % 97));
    Plan p = g->on_iteration({0, w, w / 2.3e9, 0.2, w / 2.3e9 + 0.2});
    benchmark::DoNotOptimize(p);
  }
}

void BM_Detector(benchmark::State& state)
{
  IterationDetector d;
  const uint64_t body[] = {10, 10, 10, 10, 11, 11, 11, 11, 12};
  uint64_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(d.feed(body[i++ % 9]));
}

void BM_WindowPlan(benchmark::State& state)
{
  const PstateTable t(taurus8(), "t");
  double w = 1.0;
  for (auto _ : state) {
    w = w > 1.9 ? 1.0 : w + 0.0137;
    benchmark::DoNotOptimize(cheapest_plan(t, 2.3e9, w));
  }
}

} // namespace

BENCHMARK_CAPTURE(BM_Sample, ondemand, "ondemand");
BENCHMARK_CAPTURE(BM_Sample, conservative, "conservative");
BENCHMARK_CAPTURE(BM_Task, adagio, "adagio");
BENCHMARK_CAPTURE(BM_Task, adagio_improved, "adagio-improved");
BENCHMARK_CAPTURE(BM_Task, mix, "mix");
BENCHMARK_CAPTURE(BM_Iteration, lagrange, "lagrange");
BENCHMARK(BM_Detector);
BENCHMARK(BM_WindowPlan);
BENCHMARK_MAIN();
