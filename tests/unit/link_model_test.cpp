// DOR and PNC transfer times pinned to values worked out by hand from seed 004 Eq. (1)-(2) and
// Table 2 (MODELS.md §3.1). Table 2: l = 1 us, b = 250 Gbit/s = 31.25e9 B/s, s_p = 288 B,
// d_out = d_in = 100 ns, d_a = d_i = 50 ns, s_w = 5.
//   physical serialisation s_p/b = 288 / 31.25e9 = 9.216 ns, so d_h = 100 + 9.216 + 1000 + 100 = 1209.216 ns
//   DOR: L_p = 284, d_s = d_r = 200 ns.  PNC: L_p = 288 - 5 - 4 = 279, d_s = 203.125, d_r = 215.625 ns.
#include "dor_pnc_model.hpp"
#include "input_error.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace haec::link;

namespace {
constexpr double ns = 1e-9;
const Hop table2{1e-6, 31.25e9};

double T(Protocol p, uint64_t m, int h, NodeParams params = {})
{
  DorPncModel model(p, params);
  std::vector<Hop> hops(static_cast<size_t>(h), table2);
  return model.transfer_time(m, hops.data(), hops.size());
}
} // namespace

TEST(LinkModel, DerivedParametersOfTable2)
{
  DorPncModel dor(Protocol::DOR, {}), pnc(Protocol::PNC, {});
  EXPECT_DOUBLE_EQ(dor.payload(), 284);
  EXPECT_DOUBLE_EQ(pnc.payload(), 279);
  EXPECT_NEAR(dor.sender_delay(), 200 * ns, 1e-18);
  EXPECT_NEAR(pnc.sender_delay(), 203.125 * ns, 1e-18);
  EXPECT_NEAR(pnc.receiver_delay(), 215.625 * ns, 1e-18);
  EXPECT_NEAR(dor.ack_delay(), 50 * ns, 1e-18);
  EXPECT_NEAR(dor.hop_delay(table2), 1209.216 * ns, 1e-18);
}

TEST(LinkModel, DorOnePacketOneHop)
{
  // n_p = 1, n_w = 0, n_r = 1: tt(1) = 200 + 1209.216 + 200 = 1609.216; one ack 1259.216 -> 2868.432 ns
  EXPECT_NEAR(T(Protocol::DOR, 0, 1), 2868.432 * ns, 1e-15);   // a zero-byte message still sends a packet
  EXPECT_NEAR(T(Protocol::DOR, 1, 1), 2868.432 * ns, 1e-15);
  EXPECT_NEAR(T(Protocol::DOR, 284, 1), 2868.432 * ns, 1e-15);
  // 285 B: n_p = 2: tt(2) = 1609.216 + 1209.216 = 2818.432; + 1259.216 = 4077.648 ns
  EXPECT_NEAR(T(Protocol::DOR, 285, 1), 4077.648 * ns, 1e-15);
}

TEST(LinkModel, FullWindowHasNoPartialWindow)
{
  // 1420 B = 5 packets = one full window, h = 2: sum d_h = 2418.432,
  // tt(5) = 200 + 2418.432 + 4*1209.216 + 50 + 200 = 7705.296; ack = 2*(1209.216 + 50) = 2518.432
  EXPECT_NEAR(T(Protocol::DOR, 1420, 2), 10223.728 * ns, 1e-15);
  // Eq. (2) as printed adds tt(0) = 1659.216 and a second ack: 7705.296 + 1659.216 + 2*2518.432
  NodeParams literal;
  literal.partial_window = PartialWindow::SeedLiteral;
  EXPECT_NEAR(T(Protocol::DOR, 1420, 2, literal), 14401.376 * ns, 1e-15);
  // 1421 B: 6 packets: tt(5) + tt(1) + 2 acks = 7705.296 + 2868.432 + 5036.864
  EXPECT_NEAR(T(Protocol::DOR, 1421, 2), 15610.592 * ns, 1e-15);
}

TEST(LinkModel, PncLargeMessageSixHops)
{
  // 100000 B: n_p = ceil(100000/279) = 359, n_w = 71, n_r = 4; h = 6:
  // tt(x) = 203.125 + 6*1209.216 + (x-1)*1209.216 + 5*50 + 215.625 = 7924.046 + (x-1)*1209.216
  // tt(5) = 12760.91, tt(4) = 11551.694, ack = 6*1259.216 = 7555.296
  // T = 71*12760.91 + 11551.694 + 72*7555.296 = 1461557.616 ns
  EXPECT_NEAR(T(Protocol::PNC, 100000, 6), 1461557.616 * ns, 1e-14);
  EXPECT_EQ(DorPncModel(Protocol::PNC, {}).packets(100000), 359u);
}

TEST(LinkModel, SameNode)
{
  EXPECT_NEAR(T(Protocol::DOR, 1 << 20, 0), 200 * ns, 1e-18);     // (d_s + d_r) / 2
  EXPECT_NEAR(T(Protocol::PNC, 12345, 0), 209.375 * ns, 1e-18);   // (203.125 + 215.625) / 2
}

TEST(LinkModel, ByteSlipReproducesThePublishedUnits)
{
  // s_p bytes over b *bits*/s: 288 / 250e9 = 1.152 ns; d_h = 1201.152; T = 400 + 1201.152 + 1251.152
  NodeParams slip;
  slip.units = Units::ByteSlip;
  EXPECT_NEAR(T(Protocol::DOR, 0, 1, slip), 2852.304 * ns, 1e-15);
}

TEST(LinkModel, UnequalHopsAdvanceAtTheSlowestHop)
{
  // optical 10 ns / 31.25e9 B/s then wireless 100 ns / 12.5e9 B/s; DOR, 1000 B -> n_p = 4, n_r = 4
  // d_h1 = 100 + 9.216 + 10 + 100 = 219.216; d_h2 = 100 + 23.04 + 100 + 100 = 323.04
  // tt(4) = 200 + 542.256 + 3*323.04 + 50 + 200 = 1961.376; ack = 269.216 + 373.04 = 642.256
  DorPncModel dor(Protocol::DOR, {});
  Hop route[] = {{10e-9, 31.25e9}, {100e-9, 12.5e9}};
  EXPECT_NEAR(dor.transfer_time(1000, route, 2), 2603.632 * ns, 1e-15);
  EXPECT_NEAR(dor.bottleneck_serialisation(1000, route, 2), 92.16 * ns, 1e-18); // 4 packets * 23.04 ns
  // With equal links the general form is exactly Eq. (1)-(2).
  Hop same[] = {table2, table2, table2};
  EXPECT_DOUBLE_EQ(dor.transfer_time(5000, same, 3), T(Protocol::DOR, 5000, 3));
}

TEST(LinkModel, SerialisationNeverExceedsTransferTime)
{
  for (auto p : {Protocol::DOR, Protocol::PNC})
    for (uint64_t m : {0ull, 1ull, 279ull, 1420ull, 99999ull, 4000000ull})
      for (int h = 1; h <= 8; ++h) {
        DorPncModel model(p, {});
        std::vector<Hop> hops;
        for (int i = 0; i < h; ++i)
          hops.push_back(i % 2 ? Hop{100e-9, 12.5e9} : Hop{10e-9, 31.25e9});
        EXPECT_LE(model.bottleneck_serialisation(m, hops.data(), hops.size()),
                  model.transfer_time(m, hops.data(), hops.size()));
      }
}

TEST(LinkModel, BadParametersAreInputErrors)
{
  NodeParams no_window;
  no_window.window = 0;
  EXPECT_THROW(DorPncModel(Protocol::DOR, no_window), haec::InputError);
  NodeParams tiny;
  tiny.packet_size = 9; // PNC headers: 5 symbols + 4 B window id = 9 B: no payload left
  EXPECT_THROW(DorPncModel(Protocol::PNC, tiny), haec::InputError);
  EXPECT_NO_THROW(DorPncModel(Protocol::DOR, tiny)); // DOR carries only the 4 B window id
  NodeParams negative;
  negative.d_out = -1e-9;
  EXPECT_THROW(DorPncModel(Protocol::DOR, negative), haec::InputError);
  EXPECT_THROW(parse_protocol("dor_x"), haec::InputError);
}
