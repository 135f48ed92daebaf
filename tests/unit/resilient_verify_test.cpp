// The fast resilient model against the independent packet-level reference simulator on a reduced
// grid (the full grid is bench/resilient_grid.cpp): every cell must agree within 0.1 % or, where
// the reference's own 95 % confidence interval is wider, within 4 standard errors. Loss-free
// cells are deterministic and must agree to 1e-12 relative for every h up to 48.
#include "resilient_model.hpp"
#include "resilient_reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace haec::link::resilient;

namespace {

std::vector<Hop> route(int h, double p) { return std::vector<Hop>(h, Hop{1.27e-6, 9.375e9, p, p}); }

} // namespace

TEST(ResilientVerify, LossFreeAgreesExactlyForEveryHopCount)
{
  for (Protocol proto : {Protocol::DOR_r, Protocol::PNC_r, Protocol::NCD_r})
    for (int w : {1, 5, 16}) {
      Params params = preset("physical");
      params.window = w;
      Model fast(proto, params);
      Reference ref(proto, params);
      std::mt19937_64 rng(3);
      for (int h = 1; h <= 48; h += 47 / 8)
        for (uint64_t m : {1ull, 1459ull, 20000ull, 1ull << 20}) {
          auto hops       = route(h, 0);
          const double f  = fast.expected_time(m, hops.data(), h);
          const double r  = ref.simulate_once(m, hops.data(), h, rng);
          EXPECT_NEAR(f, r, 1e-12 * r) << protocol_name(proto) << " s_w " << w << " h " << h << " m " << m;
        }
    }
}

TEST(ResilientVerify, ReducedGridUnderLoss)
{
  int cells = 0;
  for (Protocol proto : {Protocol::DOR_r, Protocol::PNC_r, Protocol::NCD_r})
    for (int w : {1, 5, 16})
      for (double p : {1e-2, 5e-2})
        for (int h : {1, 6})
          for (uint64_t m : {3000ull, 60000ull}) {
            Params params = preset("physical");
            params.window = w;
            Model fast(proto, params);
            Reference ref(proto, params);
            auto hops = route(h, p);
            const double f = fast.expected_time(m, hops.data(), h);
            auto e         = ref.estimate(m, hops.data(), h, 1000 + cells, 1e-3, 400, 20000);
            const double allowed = std::max(1e-3 * e.mean, 4 * e.ci95_half / 1.96);
            EXPECT_LE(std::abs(f - e.mean), allowed)
                << protocol_name(proto) << " s_w " << w << " p " << p << " h " << h << " m " << m << ": fast " << f
                << " reference " << e.mean << " +- " << e.ci95_half << " (" << e.reps << " reps)";
            ++cells;
          }
  EXPECT_EQ(cells, 72);
}

TEST(ResilientVerify, TheCheckCanFail)
{
  // A model that forgot the acknowledgments' losses (q_ack = 1) is caught by the same test.
  Params params = preset("physical");
  Model fast(Protocol::DOR_r, params);
  Reference ref(Protocol::DOR_r, params);
  auto hops = route(6, 5e-2);
  auto e    = ref.estimate(60000, hops.data(), 6, 5, 1e-3, 400, 20000);
  std::vector<Hop> no_ack_loss = hops;
  for (auto& hop : no_ack_loss)
    hop.loss_ack = 0;
  const double wrong = fast.expected_time(60000, no_ack_loss.data(), 6);
  EXPECT_GT(std::abs(wrong - e.mean), std::max(1e-3 * e.mean, 4 * e.ci95_half / 1.96));
}

TEST(ResilientVerify, HeterogeneousRoute)
{
  // Optical, optical, a 2.5x slower wireless hop, optical (a HAEC box route), p = 0.01.
  // DOR_r and PNC_r agree with the reference as on equal links. NCD_r's extra combinations are
  // dropped before the slow hop in the reference and free it for the later ones, which the fast
  // model's fixed pipeline does not see: it is slower by a measured 0.55 % here (RESILIENT.md).
  std::vector<Hop> hops = {{10e-9, 31.25e9, 0.01, 0.01}, {10e-9, 31.25e9, 0.01, 0.01},
                           {100e-9, 12.5e9, 0.01, 0.01}, {10e-9, 31.25e9, 0.01, 0.01}};
  for (Protocol proto : {Protocol::DOR_r, Protocol::PNC_r, Protocol::NCD_r}) {
    Model fast(proto, preset("physical"));
    Reference ref(proto, preset("physical"));
    const double f = fast.expected_time(20000, hops.data(), hops.size());
    auto e         = ref.estimate(20000, hops.data(), hops.size(), 77, 1e-3, 2000, 40000);
    const double allowed = proto == Protocol::NCD_r ? 0.01 * e.mean : std::max(1e-3 * e.mean, 4 * e.ci95_half / 1.96);
    EXPECT_LE(std::abs(f - e.mean), allowed) << protocol_name(proto) << ": fast " << f << " reference " << e.mean
                                             << " +- " << e.ci95_half;
    if (proto == Protocol::NCD_r) {
      EXPECT_GT(f, e.mean) << "the known deviation is an overestimate";
    }
  }
}
