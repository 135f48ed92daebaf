// Cost of evaluating the HAEC link models per message, against a baseline measured in the same
// run: a loop that only sums the route's hop latencies (what any route-based model must touch).
#include "dor_pnc_model.hpp"

#include <benchmark/benchmark.h>

#include <vector>

using namespace haec::link;

static std::vector<Hop> route(int h)
{
  std::vector<Hop> hops;
  for (int i = 0; i < h; ++i)
    hops.push_back(i % 3 == 2 ? Hop{100e-9, 12.5e9} : Hop{10e-9, 31.25e9});
  return hops;
}

static void BM_Baseline_SumLatencies(benchmark::State& state)
{
  auto hops = route(static_cast<int>(state.range(1)));
  for (auto _ : state) {
    double sum = 0;
    for (auto const& h : hops)
      sum += h.latency;
    benchmark::DoNotOptimize(sum);
  }
}

template <Protocol P> static void BM_TransferTime(benchmark::State& state)
{
  DorPncModel model(P, {});
  auto hops    = route(static_cast<int>(state.range(1)));
  uint64_t m   = static_cast<uint64_t>(state.range(0));
  for (auto _ : state) {
    benchmark::DoNotOptimize(m);
    double t = model.transfer_time(m, hops.data(), hops.size()) + model.bottleneck_serialisation(m, hops.data(), hops.size());
    benchmark::DoNotOptimize(t);
  }
}

#define SIZES ->Args({256, 1})->Args({256, 6})->Args({256, 48})->Args({1 << 20, 1})->Args({1 << 20, 6})->Args({1 << 20, 48})
BENCHMARK(BM_Baseline_SumLatencies) SIZES;
BENCHMARK(BM_TransferTime<Protocol::DOR>) SIZES;
BENCHMARK(BM_TransferTime<Protocol::PNC>) SIZES;
BENCHMARK_MAIN();
