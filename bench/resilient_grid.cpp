// Verification grid of the resilient link models: the fast model (expected mode) against the
// packet-level reference simulator, over protocols x s_w x loss p x hops h x message sizes, on
// Gemini-like links (physical preset, the same p for data packets and acknowledgments).
//
//   haec_resilient_grid [--full] [--out FILE.csv] [--rel-ci R] [--work W] [--seed S] [--threads N]
//
// Default grid: h in {1,2,3,4,6,8,12,16,24,32,40,48}, sizes 1 B .. 4 MiB in steps of x8 plus 4 MiB;
// --full: every h in 1..48 and every power of two from 1 B to 4 MiB (about ten times longer).
// Each cell repeats the reference until its 95 % confidence half-width is at most R x mean
// (default 5e-4) or it has simulated W packet-hops (default 2e7; deterministic, not timed), after
// enough repetitions to see about 200 loss events (at least 200 repetitions).
// Writes protocol,s_w,p,h,bytes,fast,ref_mean,ref_ci95,reps,rel_err and prints, per protocol and
// overall: mean and max relative error over the cells the reference can judge (CI <= 0.1 %), how
// many it cannot, and how many cells disagree beyond 4 standard errors (a real discrepancy).
#include "input_error.hpp"
#include "resilient_model.hpp"
#include "resilient_reference.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace haec::link::resilient;

namespace {

struct Cell {
  Protocol protocol;
  int window;
  double p;
  int h;
  uint64_t bytes;
  double fast = 0, mean = 0, ci = 0, rel = 0;
  uint64_t reps = 0;
};

[[noreturn]] void usage(const std::string& problem)
{
  std::cerr << "haec_resilient_grid: " << problem
            << "; usage: haec_resilient_grid [--full] [--out FILE.csv] [--rel-ci R] [--work W] [--seed S] [--threads N]\n";
  std::exit(2);
}

double number(const char* text, const std::string& flag)
{
  char* end      = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(v > 0))
    usage(flag + " " + text + ": not a positive number");
  return v;
}

void evaluate(Cell& c, double rel_ci, double work, uint64_t seed)
{
  Params params = preset("physical");
  params.window = c.window;
  std::vector<Hop> hops(c.h, Hop{1.27e-6, 9.375e9, c.p, c.p});
  Model fast(c.protocol, params);
  Reference ref(c.protocol, params);
  c.fast = fast.expected_time(c.bytes, hops.data(), hops.size());
  // Losses are rare events at small p: a short run can see none and report a tiny, wrong CI. So
  // every cell first runs enough repetitions to see about 200 of them (data or ack drops), within
  // the work budget (packet-hops simulated), then stops at the CI target.
  const double packets  = static_cast<double>(fast.packets(c.bytes));
  const double q        = std::pow(1 - c.p, c.h);
  const double p_event  = -std::expm1(2 * packets * std::log(q)); // some packet or ack dropped
  const double per_rep  = packets * c.h / std::max(1e-9, q * q);
  const double cap      = std::clamp(work / per_rep, 200.0, 2e6);
  const double min_reps = std::min(cap, std::max(200.0, 200 / std::max(p_event, 1e-12)));
  Reference::Estimate e = ref.estimate(c.bytes, hops.data(), hops.size(), seed, rel_ci,
                                       c.p == 0 ? 1 : static_cast<uint64_t>(min_reps),
                                       c.p == 0 ? 1 : static_cast<uint64_t>(cap));
  c.mean = e.mean;
  c.ci   = e.ci95_half;
  c.reps = e.reps;
  c.rel  = std::abs(c.fast - c.mean) / c.mean;
}

} // namespace

int main(int argc, char** argv)
{
  bool full = false;
  std::string out;
  double rel_ci = 5e-4, work = 2e7;
  uint64_t seed = 2024;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value     = [&]() -> const char* {
      if (i + 1 >= argc)
        usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--full")
      full = true;
    else if (a == "--out")
      out = value();
    else if (a == "--rel-ci")
      rel_ci = number(value(), a);
    else if (a == "--work")
      work = number(value(), a);
    else if (a == "--seed")
      seed = static_cast<uint64_t>(number(value(), a));
    else if (a == "--threads")
      threads = static_cast<unsigned>(number(value(), a));
    else
      usage("unknown argument " + a);
  }

  std::vector<int> hs;
  std::vector<uint64_t> sizes;
  if (full) {
    for (int h = 1; h <= 48; ++h)
      hs.push_back(h);
    for (uint64_t b = 1; b <= (4u << 20); b *= 2)
      sizes.push_back(b);
  } else {
    hs = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 40, 48};
    for (uint64_t b = 1; b <= (4u << 20); b *= 8)
      sizes.push_back(b);
    sizes.push_back(4u << 20);
  }
  std::vector<Cell> cells;
  for (Protocol proto : {Protocol::DOR_r, Protocol::PNC_r, Protocol::NCD_r})
    for (int w : {1, 5, 16})
      for (double p : {0.0, 1e-4, 1e-3, 1e-2, 5e-2})
        for (int h : hs)
          for (uint64_t b : sizes)
            cells.push_back(Cell{proto, w, p, h, b});

  const auto start = std::chrono::steady_clock::now();
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (size_t i; (i = next++) < cells.size();)
        evaluate(cells[i], rel_ci, work, seed + 7919 * i); // a seed per cell: independent of threads
    });
  for (auto& t : pool)
    t.join();
  // Rare, costly timeouts give heavy tails: a first estimate's CI can be too narrow. A cell that
  // disagrees beyond 4 standard errors is estimated again with a fresh seed and 50 times the
  // repetitions (1e5 .. 3e6); only a disagreement that survives counts.
  auto significant = [](const Cell& c) { return c.ci > 0 && std::abs(c.fast - c.mean) > 4 * c.ci / 1.96; };
  size_t flagged = 0;
  for (size_t i = 0; i < cells.size(); ++i) {
    Cell& c = cells[i];
    if (!significant(c))
      continue;
    ++flagged;
    Params params = preset("physical");
    params.window = c.window;
    std::vector<Hop> hops(c.h, Hop{1.27e-6, 9.375e9, c.p, c.p});
    const auto reps = static_cast<uint64_t>(std::clamp(50.0 * static_cast<double>(c.reps), 1e5, 3e6));
    auto e = Reference(c.protocol, params).estimate(c.bytes, hops.data(), hops.size(), seed + 1000003 * (i + 1), 0, reps, reps);
    c.mean = e.mean;
    c.ci   = e.ci95_half;
    c.reps = e.reps;
    c.rel  = std::abs(c.fast - c.mean) / c.mean;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::ostringstream csv;
  csv << "protocol,s_w,p,h,bytes,fast,ref_mean,ref_ci95,reps,rel_err\n";
  csv.precision(17);
  for (const Cell& c : cells)
    csv << protocol_name(c.protocol) << ',' << c.window << ',' << c.p << ',' << c.h << ',' << c.bytes << ',' << c.fast
        << ',' << c.mean << ',' << c.ci << ',' << c.reps << ',' << c.rel << '\n';
  if (!out.empty()) {
    std::ofstream f(out + ".tmp");
    f << csv.str();
    f.close();
    if (!f || std::rename((out + ".tmp").c_str(), out.c_str()) != 0) {
      std::cerr << "haec_resilient_grid: --out " << out << ": cannot be written; give a writable path\n";
      return 2;
    }
  }

  std::printf("%zu cells (%s grid: %zu hop counts x %zu sizes x 5 loss x 3 s_w x 3 protocols), %.0f s on %u threads\n",
              cells.size(), full ? "full" : "default", hs.size(), sizes.size(), seconds, threads);
  std::printf("%zu cells disagreed beyond 4 standard errors at first and were estimated again\n", flagged);
  std::printf("%-6s %8s %12s %12s %10s %10s %12s\n", "model", "judged", "mean rel err", "max rel err", "CI>0.1%",
              "CI>1%", "|z|>4");
  int bad = 0;
  for (int which = 0; which < 4; ++which) {
    size_t judged = 0, wide = 0, very_wide = 0, significant_cells = 0;
    double sum = 0, worst = 0;
    for (const Cell& c : cells) {
      if (which < 3 && static_cast<int>(c.protocol) != which)
        continue;
      const double rel_ci_cell = c.ci / c.mean;
      if (significant(c))
        significant_cells++;
      if (c.p == 0 && c.rel > 1e-12)
        significant_cells++; // the deterministic case must agree exactly
      if (rel_ci_cell > 1e-2)
        very_wide++;
      if (rel_ci_cell > 1e-3) {
        wide++;
        continue;
      }
      judged++;
      sum += c.rel;
      worst = std::max(worst, c.rel);
    }
    const char* name = which == 0 ? "dor_r" : which == 1 ? "pnc_r" : which == 2 ? "ncd_r" : "all";
    std::printf("%-6s %8zu %11.4f%% %11.4f%% %10zu %10zu %12zu\n", name, judged, 100 * sum / std::max<size_t>(1, judged),
                100 * worst, wide, very_wide, significant_cells);
    if (which == 3)
      bad = (sum / std::max<size_t>(1, judged) > 1e-3 || worst > 1e-2 || significant_cells > 0) ? 1 : 0;
  }
  std::printf("targets: mean <= 0.1 %%, max <= 1 %% over judged cells, no significant disagreement: %s\n",
              bad ? "NOT MET" : "met");
  return bad;
}
