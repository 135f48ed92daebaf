// auto: never more hop-bytes than its starts, link types break ties (time: optical; energy:
// wireless), and the link-model cost it uses against the DOR model itself.
#include "dispatch.hpp"
#include "dor_pnc_model.hpp"
#include "input_error.hpp"
#include "link_cost.hpp"
#include "mapping_metrics.hpp"
#include "mapping_target_support.hpp"
#include "mapping_test_support.hpp"

#include <gtest/gtest.h>

using namespace haec::mapping;
using namespace haec::mapping::test;

namespace {

std::vector<int> run(Strategy s, const CommMatrix& m, const Target& t, AutoObjective o = AutoObjective::Time)
{
  Request req;
  req.strategy  = s;
  req.ranks     = m.ranks;
  req.matrix    = &m;
  req.objective = o;
  return map_strategy(req, t);
}

// CG-like (n / 4 a power of two): ranks on a 4 x (n/4) grid exchange with row partners at distance 1, 2 (recursive
// doubling) and with their transpose-like partner.
CommMatrix cg_like(int n)
{
  CommMatrix m   = matrix(n);
  const int cols = n / 4;
  for (int r = 0; r < n; ++r) {
    for (int bit = 1; bit < cols; bit <<= 1)
      set(m, r, (r / cols) * cols + ((r % cols) ^ bit), 3, 3000 / bit);
    set(m, r, (r * 5 + 1) % n, 1, 4000);
  }
  return m;
}

} // namespace

TEST(MappingAuto, NeverMoreHopBytesThanAnyOtherStrategy)
{
  for (const char* spec : {"mesh:3x3x3", "haec-box:3x3x3"}) {
    auto mc            = machine(spec);
    const CommMatrix m = cg_like(32);
    const auto mine    = *compute_mapping_metrics(m, run(Strategy::Auto, m, mc.target), mc.target).hop_bytes;
    for (Strategy s : all_strategies()) {
      if (s == Strategy::Auto)
        continue;
      const auto other = *compute_mapping_metrics(m, run(s, m, mc.target), mc.target).hop_bytes;
      EXPECT_LE(mine, other) << spec << " " << strategy_name(s);
    }
  }
}

TEST(MappingAuto, LinkTypesBreakTies)
{
  // Two ranks, one big message each way, on a 2x2x2 HAEC box: any neighbour is one hop (equal
  // hop-bytes). Time: optical (250 Gbit/s, 10 ns) beats wireless (100 Gbit/s, 100 ns). Energy:
  // wireless (2.124 W busy, 0 idle, at 100 Gbit/s: 21 pJ/bit) beats optical (22.2 W over 250
  // Gbit/s: 89 pJ/bit) with the default link wattage.
  auto mc      = machine("haec-box:2x2x2");
  CommMatrix m = matrix(2);
  both(m, 0, 1, 1, 1 << 20);
  auto z_of = [&](const std::vector<int>& a) {
    return std::make_pair(mc.target.nodes[a[0]].coords[2], mc.target.nodes[a[1]].coords[2]);
  };
  const auto fast = run(Strategy::Auto, m, mc.target, AutoObjective::Time);
  EXPECT_EQ(mc.target.hops(fast[0], fast[1]), 1);
  EXPECT_EQ(z_of(fast).first, z_of(fast).second) << "time: same board (optical)";
  const auto frugal = run(Strategy::Auto, m, mc.target, AutoObjective::Energy);
  EXPECT_EQ(mc.target.hops(frugal[0], frugal[1]), 1);
  EXPECT_NE(z_of(frugal).first, z_of(frugal).second) << "energy: across boards (wireless)";
}

TEST(MappingAuto, DeterministicForASeed)
{
  auto mc            = machine("torus:3x3x3");
  const CommMatrix m = cg_like(64);
  EXPECT_EQ(run(Strategy::Auto, m, mc.target), run(Strategy::Auto, m, mc.target));
}

TEST(MappingAuto, LinkCostIsTheDorModel)
{
  auto mc = machine("haec-box:2x2x2");
  const LinkCost cost(mc.target);
  haec::link::DorPncModel dor(haec::link::Protocol::DOR, haec::link::NodeParams{});
  const auto& o = mc.target.link_classes[0];
  const auto& w = mc.target.link_classes[1];
  // Loss on a hop: 1 - (1 - BER)^(8 x 288) of its bandwidth (optical 1e-12, wireless 1e-8).
  const haec::link::Hop hops[2] = {{o.latency, o.bandwidth * std::pow(1 - o.ber, 8 * 288)},
                                   {w.latency, w.bandwidth * std::pow(1 - w.ber, 8 * 288)}};
  RouteProfile p;
  p.hops = {1, 1, 0, 0};
  EXPECT_NEAR(cost.time(3, 3 * 5000, p), 3 * dor.transfer_time(5000, hops, 2), 1e-18);
  EXPECT_NEAR(cost.energy(1000, p), 8000 * (22.2 / 250e9 + 2.124 / 100e9), 1e-15);
  EXPECT_DOUBLE_EQ(cost.time(0, 0, p), 0.0);
  // Same node: the model's (d_s + d_r) / 2 per message.
  EXPECT_NEAR(cost.time(2, 100, RouteProfile{}), 2 * dor.transfer_time(100, hops, 0), 1e-18);
}

TEST(MappingAuto, XmlPlatformsUseHopBytesOnly)
{
  auto mc        = machine("mesh:3x3x1");
  const Target t = target_from_nodes(mc.target.nodes, mc.target.hops);
  EXPECT_THROW(LinkCost{t}, haec::InputError);
  const CommMatrix m = cg_like(8);
  const auto a       = run(Strategy::Auto, m, t);
  EXPECT_LE(*compute_mapping_metrics(m, a, t).hop_bytes,
            *compute_mapping_metrics(m, run(Strategy::Xyz, m, t), t).hop_bytes);
}
