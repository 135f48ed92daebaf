// DOR and PNC transfer times pinned to values worked out by hand from seed 004 Eq. (1)-(2) and
// Table 2 (MODELS.md §3.1). All hand values are in ns; every one was re-derived in exact rational
// arithmetic (Python fractions) before being pinned.
//
// Table 2: l = 1 us, b = 250 Gbit/s = 31.25e9 B/s, s_p = 288 B, d_out = d_in = 100 ns,
//          d_a = d_i = d_out/2 = 50 ns, d_p = 0.625 ns, s_ff = 1 B, s_wid = 4 B, s_w = 5.
//   serialisation (physical) s_p/b = 288 / 31.25e9 s          = 9.216 ns
//   d_h = d_out + s_p/b + l + d_in = 100 + 9.216 + 1000 + 100  = 1209.216 ns
//   one acknowledgment over h hops: h * (d_h + d_a)            = h * 1259.216 ns
//   DOR: L_p = 288 - 4 = 284 B,       d_s = d_r = 200 ns,                        d_s + d_r = 400
//   PNC: L_p = 288 - 5*1 - 4 = 279 B, d_s = 200 + 5*0.625 = 203.125,
//                                     d_r = 200 + 25*0.625 = 215.625 ns,         d_s + d_r = 418.75
//
//   tt(x) = d_s + (h + x - 1) d_h + (h - 1) d_i + d_r                                          (1)
//   T     = tt(s_w) n_w + tt(n_r) + h (n_w + 1)(d_h + d_a)         if n_r > 0                  (2)
//   T     = tt(s_w) n_w           + h  n_w      (d_h + d_a)         if n_r = 0 (no partial window)
//   n_p = max(1, ceil(m / L_p)), n_w = floor(n_p / 5), n_r = n_p - 5 n_w
//
// n_p per message size:
//   m      :  0  1  284  285  1420  1421  1500  1395  2840  100000
//   DOR n_p:  1  1    1    2     5     6     6     5    10     353  (100000/284 = 352.1: n_w 70, n_r 3)
//   PNC n_p:  1  1    2    2     6     6     6     5    11     359  (100000/279 = 358.4: n_w 71, n_r 4)
#include "dor_pnc_model.hpp"
#include "input_error.hpp"

#include <gtest/gtest.h>

#include <iterator>
#include <vector>

using namespace haec::link;

namespace {
constexpr double ns  = 1e-9;
constexpr double tol = 1e-15; // s, absolute
const Hop table2{1e-6, 31.25e9};
const Hop optical{10e-9, 31.25e9};   // 250 Gbit/s, 10 ns
const Hop wireless{100e-9, 12.5e9};  // 100 Gbit/s, 100 ns

NodeParams literal()
{
  NodeParams p;
  p.partial_window = PartialWindow::SeedLiteral;
  return p;
}

NodeParams byte_slip()
{
  NodeParams p;
  p.units = Units::ByteSlip;
  return p;
}

double T(Protocol p, uint64_t m, int h, NodeParams params = {})
{
  DorPncModel model(p, params);
  std::vector<Hop> hops(static_cast<size_t>(h), table2);
  return model.transfer_time(m, hops.data(), hops.size());
}

struct Case {
  uint64_t m;
  int h;
  double expected_ns;
};
} // namespace

TEST(LinkModel, DerivedParametersOfTable2)
{
  DorPncModel dor(Protocol::DOR, {}), pnc(Protocol::PNC, {});
  EXPECT_DOUBLE_EQ(dor.payload(), 284);
  EXPECT_DOUBLE_EQ(pnc.payload(), 279);
  EXPECT_NEAR(dor.sender_delay(), 200 * ns, 1e-18);
  EXPECT_NEAR(dor.receiver_delay(), 200 * ns, 1e-18);
  EXPECT_NEAR(pnc.sender_delay(), 203.125 * ns, 1e-18);
  EXPECT_NEAR(pnc.receiver_delay(), 215.625 * ns, 1e-18);
  EXPECT_NEAR(dor.ack_delay(), 50 * ns, 1e-18);
  EXPECT_NEAR(pnc.ack_delay(), 50 * ns, 1e-18);
  EXPECT_NEAR(dor.serialisation(table2), 9.216 * ns, 1e-18);
  EXPECT_NEAR(dor.hop_delay(table2), 1209.216 * ns, 1e-18);
  EXPECT_NEAR(dor.hop_delay(optical), 219.216 * ns, 1e-18);   // 100 + 9.216 + 10 + 100
  EXPECT_NEAR(dor.hop_delay(wireless), 323.04 * ns, 1e-18);   // 100 + 288/12.5e9 (23.04) + 100 + 100
}

TEST(LinkModel, PacketCounts)
{
  DorPncModel dor(Protocol::DOR, {}), pnc(Protocol::PNC, {});
  const uint64_t m[]       = {0, 1, 284, 285, 1420, 1421, 1500, 1395, 2840, 100000};
  const uint64_t dor_np[]  = {1, 1, 1, 2, 5, 6, 6, 5, 10, 353};
  const uint64_t pnc_np[]  = {1, 1, 2, 2, 6, 6, 6, 5, 11, 359};
  for (size_t i = 0; i < std::size(m); ++i) {
    EXPECT_EQ(dor.packets(m[i]), dor_np[i]) << "DOR m=" << m[i];
    EXPECT_EQ(pnc.packets(m[i]), pnc_np[i]) << "PNC m=" << m[i];
  }
}

// DOR, Table 2, same links on every hop.
//  h = 1: tt(x) = 400 + x*1209.216;               ack = 1259.216
//         tt(1) = 1609.216, tt(2) = 2818.432, tt(3) = 4027.648, tt(5) = 6446.08
//    n_p=1   : tt(1) + ack                            = 1609.216 + 1259.216             = 2868.432
//    n_p=2   : tt(2) + ack                            = 2818.432 + 1259.216             = 4077.648
//    n_p=5   : tt(5) + 1*ack (n_r = 0)                = 6446.08 + 1259.216              = 7705.296
//    n_p=6   : tt(5) + tt(1) + 2*ack                  = 6446.08 + 1609.216 + 2518.432   = 10573.728
//    n_p=10  : 2*tt(5) + 2*ack                        = 12892.16 + 2518.432             = 15410.592
//    n_p=353 : 70*tt(5) + tt(3) + 71*ack              = 451225.6 + 4027.648 + 89404.336 = 544657.584
//  h = 2: tt(x) = 400 + (x+1)*1209.216 + 50;      ack = 2518.432
//         tt(1) = 2868.432, tt(2) = 4077.648, tt(3) = 5286.864, tt(5) = 7705.296
//    n_p=1   : 2868.432 + 2518.432                                                      = 5386.864
//    n_p=2   : 4077.648 + 2518.432                                                      = 6596.08
//    n_p=5   : 7705.296 + 2518.432                                                      = 10223.728
//    n_p=6   : 7705.296 + 2868.432 + 2*2518.432                                         = 15610.592
//    n_p=10  : 2*7705.296 + 2*2518.432                                                  = 20447.456
//    n_p=353 : 70*7705.296 + 5286.864 + 71*2518.432 = 539370.72 + 5286.864 + 178808.672 = 723466.256
//  h = 6: tt(x) = 400 + (x+5)*1209.216 + 5*50;    ack = 7555.296
//         tt(1) = 7905.296, tt(2) = 9114.512, tt(3) = 10323.728, tt(5) = 12742.16
//    n_p=1   : 7905.296 + 7555.296                                                      = 15460.592
//    n_p=2   : 9114.512 + 7555.296                                                      = 16669.808
//    n_p=5   : 12742.16 + 7555.296                                                      = 20297.456
//    n_p=6   : 12742.16 + 7905.296 + 2*7555.296                                         = 35758.048
//    n_p=10  : 2*12742.16 + 2*7555.296                                                  = 40594.912
//    n_p=353 : 70*12742.16 + 10323.728 + 71*7555.296 = 891951.2 + 10323.728 + 536426.016 = 1438700.944
TEST(LinkModel, DorTable2Grid)
{
  const Case cases[] = {
      {0, 1, 2868.432},      {1, 1, 2868.432},      {284, 1, 2868.432},    {285, 1, 4077.648},
      {1420, 1, 7705.296},   {1421, 1, 10573.728},  {1500, 1, 10573.728},  {2840, 1, 15410.592},
      {100000, 1, 544657.584},
      {0, 2, 5386.864},      {1, 2, 5386.864},      {284, 2, 5386.864},    {285, 2, 6596.08},
      {1420, 2, 10223.728},  {1421, 2, 15610.592},  {1500, 2, 15610.592},  {2840, 2, 20447.456},
      {100000, 2, 723466.256},
      {0, 6, 15460.592},     {1, 6, 15460.592},     {284, 6, 15460.592},   {285, 6, 16669.808},
      {1420, 6, 20297.456},  {1421, 6, 35758.048},  {1500, 6, 35758.048},  {2840, 6, 40594.912},
      {100000, 6, 1438700.944},
  };
  for (auto const& c : cases)
    EXPECT_NEAR(T(Protocol::DOR, c.m, c.h), c.expected_ns * ns, tol) << "DOR m=" << c.m << " h=" << c.h;
}

// PNC, Table 2.
//  h = 1: tt(x) = 418.75 + x*1209.216;            ack = 1259.216
//         tt(1) = 1627.966, tt(2) = 2837.182, tt(4) = 5255.614, tt(5) = 6464.83
//    n_p=1   : 1627.966 + 1259.216                                                      = 2887.182
//    n_p=2   : 2837.182 + 1259.216                                                      = 4096.398
//    n_p=5   : 6464.83 + 1259.216                                                       = 7724.046
//    n_p=6   : 6464.83 + 1627.966 + 2*1259.216                                          = 10611.228
//    n_p=359 : 71*6464.83 + 5255.614 + 72*1259.216 = 459002.93 + 5255.614 + 90663.552   = 554922.096
//  h = 2: tt(x) = 418.75 + (x+1)*1209.216 + 50;   ack = 2518.432
//         tt(1) = 2887.182, tt(2) = 4096.398, tt(4) = 6514.83, tt(5) = 7724.046
//    n_p=1   : 2887.182 + 2518.432                                                      = 5405.614
//    n_p=2   : 4096.398 + 2518.432                                                      = 6614.83
//    n_p=5   : 7724.046 + 2518.432                                                      = 10242.478
//    n_p=6   : 7724.046 + 2887.182 + 2*2518.432                                         = 15648.092
//    n_p=359 : 71*7724.046 + 6514.83 + 72*2518.432 = 548407.266 + 6514.83 + 181327.104  = 736249.2
//  h = 6: tt(x) = 418.75 + (x+5)*1209.216 + 5*50; ack = 7555.296
//         tt(1) = 7924.046, tt(2) = 9133.262, tt(4) = 11551.694, tt(5) = 12760.91
//    n_p=1   : 7924.046 + 7555.296                                                      = 15479.342
//    n_p=2   : 9133.262 + 7555.296                                                      = 16688.558
//    n_p=5   : 12760.91 + 7555.296                                                      = 20316.206
//    n_p=6   : 12760.91 + 7924.046 + 2*7555.296                                         = 35795.548
//    n_p=359 : 71*12760.91 + 11551.694 + 72*7555.296 = 906024.61 + 11551.694 + 543981.312 = 1461557.616
TEST(LinkModel, PncTable2Grid)
{
  const Case cases[] = {
      {0, 1, 2887.182},      {1, 1, 2887.182},      {284, 1, 4096.398},    {285, 1, 4096.398},
      {1395, 1, 7724.046},   {1420, 1, 10611.228},  {1421, 1, 10611.228},  {1500, 1, 10611.228},
      {100000, 1, 554922.096},
      {0, 2, 5405.614},      {1, 2, 5405.614},      {284, 2, 6614.83},     {285, 2, 6614.83},
      {1395, 2, 10242.478},  {1420, 2, 15648.092},  {1421, 2, 15648.092},  {1500, 2, 15648.092},
      {100000, 2, 736249.2},
      {0, 6, 15479.342},     {1, 6, 15479.342},     {284, 6, 16688.558},   {285, 6, 16688.558},
      {1395, 6, 20316.206},  {1420, 6, 35795.548},  {1421, 6, 35795.548},  {1500, 6, 35795.548},
      {100000, 6, 1461557.616},
  };
  for (auto const& c : cases)
    EXPECT_NEAR(T(Protocol::PNC, c.m, c.h), c.expected_ns * ns, tol) << "PNC m=" << c.m << " h=" << c.h;
}

// Same node (h = 0): (d_s + d_r) / 2 for the whole message, whatever its size or the options.
TEST(LinkModel, SameNodeIsHalfTheEndpointDelays)
{
  for (uint64_t m : {0ull, 1ull, 284ull, 285ull, 1420ull, 1421ull, 1500ull, 100000ull, 1ull << 30}) {
    EXPECT_NEAR(T(Protocol::DOR, m, 0), 200 * ns, 1e-18) << m;             // (200 + 200) / 2
    EXPECT_NEAR(T(Protocol::PNC, m, 0), 209.375 * ns, 1e-18) << m;         // (203.125 + 215.625) / 2
    EXPECT_NEAR(T(Protocol::DOR, m, 0, literal()), 200 * ns, 1e-18) << m;
    EXPECT_NEAR(T(Protocol::PNC, m, 0, byte_slip()), 209.375 * ns, 1e-18) << m;
  }
  DorPncModel dor(Protocol::DOR, {});
  EXPECT_EQ(dor.bottleneck_serialisation(100000, nullptr, 0), 0.0);
}

// n_r = 0: our rule drops the partial window and its acknowledgment; Eq. (2) read literally adds
// tt(0) and one more acknowledgment. tt(0) = d_s + (h - 1) d_h + (h - 1) d_i + d_r.
//   DOR h=1, n_p=5 : 6446.08 + tt(0)=400 + 2*1259.216                             = 9364.512
//   DOR h=2, n_p=5 : 7705.296 + tt(0)=450+1209.216=1659.216 + 2*2518.432          = 14401.376
//   DOR h=6, n_p=5 : 12742.16 + tt(0)=650+6046.08=6696.08 + 2*7555.296            = 34548.832
//   DOR h=1, n_p=10: 2*6446.08 + 400 + 3*1259.216                                 = 17069.808
//   PNC h=1, n_p=5 : 6464.83 + tt(0)=418.75 + 2*1259.216                          = 9402.012
//   PNC h=6, n_p=5 : 12760.91 + tt(0)=668.75+6046.08=6714.83 + 2*7555.296         = 34586.332
// When n_r > 0 the two readings agree.
TEST(LinkModel, NoPartialWindowVersusSeedLiteral)
{
  EXPECT_NEAR(T(Protocol::DOR, 1420, 1), 7705.296 * ns, tol);
  EXPECT_NEAR(T(Protocol::DOR, 1420, 1, literal()), 9364.512 * ns, tol);
  EXPECT_NEAR(T(Protocol::DOR, 1420, 2), 10223.728 * ns, tol);
  EXPECT_NEAR(T(Protocol::DOR, 1420, 2, literal()), 14401.376 * ns, tol);
  EXPECT_NEAR(T(Protocol::DOR, 1420, 6), 20297.456 * ns, tol);
  EXPECT_NEAR(T(Protocol::DOR, 1420, 6, literal()), 34548.832 * ns, tol);
  EXPECT_NEAR(T(Protocol::DOR, 2840, 1, literal()), 17069.808 * ns, tol);
  EXPECT_NEAR(T(Protocol::PNC, 1395, 1, literal()), 9402.012 * ns, tol);
  EXPECT_NEAR(T(Protocol::PNC, 1395, 6, literal()), 34586.332 * ns, tol);
  for (uint64_t m : {0ull, 285ull, 1421ull, 1500ull, 100000ull})
    for (int h : {1, 2, 6})
      for (auto p : {Protocol::DOR, Protocol::PNC})
        EXPECT_DOUBLE_EQ(T(p, m, h, literal()), T(p, m, h)) << m << " " << h;
}

// A zero-byte MPI message still sends one packet: it costs exactly what a 1-byte one does.
TEST(LinkModel, ZeroByteMessageIsOnePacket)
{
  for (auto p : {Protocol::DOR, Protocol::PNC}) {
    EXPECT_EQ(DorPncModel(p, {}).packets(0), 1u);
    for (int h : {1, 2, 6})
      EXPECT_DOUBLE_EQ(T(p, 0, h), T(p, 1, h));
  }
  EXPECT_NEAR(T(Protocol::DOR, 0, 1), 2868.432 * ns, tol);
  EXPECT_NEAR(T(Protocol::PNC, 0, 6), 15479.342 * ns, tol);
}

// Byte slip (as the published tables): s_p bytes over b *bits*/s = 288 / 250e9 = 1.152 ns, so
// d_h = 100 + 1.152 + 1000 + 100 = 1201.152 ns and d_h + d_a = 1251.152 ns.
//   DOR h=1 n_p=1: 400 + 1201.152 + 1251.152                                       = 2852.304
//   DOR h=6 n_p=6: tt(x) = 650 + (x+5)*1201.152; tt(5) = 12661.52, tt(1) = 7856.912,
//                  ack = 6*1251.152 = 7506.912; 12661.52 + 7856.912 + 2*7506.912  = 35532.256
// Physical for the same cases: 2868.432 and 35758.048 (grid above); the gap per hop and packet
// is 9.216 - 1.152 = 8.064 ns.
TEST(LinkModel, ByteSlipVersusPhysical)
{
  DorPncModel slip(Protocol::DOR, byte_slip());
  EXPECT_NEAR(slip.serialisation(table2), 1.152 * ns, 1e-18);
  EXPECT_NEAR(slip.hop_delay(table2), 1201.152 * ns, 1e-18);
  EXPECT_NEAR(T(Protocol::DOR, 0, 1, byte_slip()), 2852.304 * ns, tol);
  EXPECT_NEAR(T(Protocol::DOR, 1500, 6, byte_slip()), 35532.256 * ns, tol);
  EXPECT_NEAR(T(Protocol::DOR, 0, 1), 2868.432 * ns, tol);
  EXPECT_NEAR(T(Protocol::DOR, 1500, 6), 35758.048 * ns, tol);
  // Physical minus slip, DOR h=1 n_p=1: d_h appears once in tt(1) and once in the ack: 2*8.064.
  EXPECT_NEAR(T(Protocol::DOR, 0, 1) - T(Protocol::DOR, 0, 1, byte_slip()), 16.128 * ns, tol);
}

// Unequal hops (header formula): the pipeline advances at the slowest hop,
//   tt(x) = d_s + sum_i d_h,i + (x - 1) max_i d_h,i + (h - 1) d_i + d_r,  ack = sum_i (d_h,i + d_a).
// optical d_h = 219.216, wireless d_h = 323.04; sum = 542.256, max = 323.04, ack = 642.256.
//   DOR 1000 B: n_p = ceil(1000/284) = 4, n_w = 0, n_r = 4
//     tt(4) = 200 + 542.256 + 3*323.04 + 50 + 200 = 1961.376;  T = 1961.376 + 642.256 = 2603.632
//   PNC 100000 B: n_p = 359, n_w = 71, n_r = 4; tt(x) = 1011.006 + (x-1)*323.04
//     tt(5) = 2303.166, tt(4) = 1980.126
//     T = 71*2303.166 + 1980.126 + 72*642.256 = 163524.786 + 1980.126 + 46242.432 = 211747.344
//   bottleneck serialisation = n_p * 23.04: DOR 92.16, PNC 8271.36
TEST(LinkModel, UnequalHopsAdvanceAtTheSlowestHop)
{
  DorPncModel dor(Protocol::DOR, {}), pnc(Protocol::PNC, {});
  Hop route[]    = {optical, wireless};
  Hop reversed[] = {wireless, optical};
  EXPECT_NEAR(dor.transfer_time(1000, route, 2), 2603.632 * ns, tol);
  EXPECT_NEAR(pnc.transfer_time(100000, route, 2), 211747.344 * ns, tol);
  EXPECT_DOUBLE_EQ(dor.transfer_time(1000, reversed, 2), dor.transfer_time(1000, route, 2));
  EXPECT_DOUBLE_EQ(pnc.transfer_time(100000, reversed, 2), pnc.transfer_time(100000, route, 2));
  EXPECT_NEAR(dor.bottleneck_serialisation(1000, route, 2), 92.16 * ns, 1e-18);
  EXPECT_NEAR(pnc.bottleneck_serialisation(100000, route, 2), 8271.36 * ns, 1e-17);
  // With equal links the general form is exactly Eq. (1)-(2).
  Hop same[] = {table2, table2, table2};
  EXPECT_DOUBLE_EQ(dor.transfer_time(5000, same, 3), T(Protocol::DOR, 5000, 3));
}

TEST(LinkModel, BottleneckSerialisationNeverExceedsTransferTime)
{
  for (auto units : {Units::Physical, Units::ByteSlip})
    for (auto p : {Protocol::DOR, Protocol::PNC})
      for (uint64_t m : {0ull, 1ull, 279ull, 284ull, 285ull, 1420ull, 1421ull, 99999ull, 4000000ull})
        for (int h = 1; h <= 9; ++h)
          for (int pattern = 0; pattern < 3; ++pattern) {
            NodeParams params;
            params.units = units;
            DorPncModel model(p, params);
            std::vector<Hop> hops;
            for (int i = 0; i < h; ++i)
              hops.push_back(pattern == 0 ? table2 : (i + pattern) % 2 ? wireless : optical);
            double serial = model.bottleneck_serialisation(m, hops.data(), hops.size());
            double total  = model.transfer_time(m, hops.data(), hops.size());
            EXPECT_GT(serial, 0);
            EXPECT_LE(serial, total) << "m=" << m << " h=" << h << " pattern=" << pattern;
          }
}

TEST(LinkModel, BadParametersAreInputErrors)
{
  NodeParams no_window;
  no_window.window = 0;
  EXPECT_THROW(DorPncModel(Protocol::DOR, no_window), haec::InputError);
  EXPECT_THROW(DorPncModel(Protocol::PNC, no_window), haec::InputError);
  no_window.window = -3;
  EXPECT_THROW(DorPncModel(Protocol::DOR, no_window), haec::InputError);

  // DOR headers: the 4 B window id; PNC: 5 one-byte symbols + 4 B = 9 B.
  for (double size : {0.0, 3.0, 4.0}) {
    NodeParams p;
    p.packet_size = size;
    EXPECT_THROW(DorPncModel(Protocol::DOR, p), haec::InputError) << size;
  }
  for (double size : {4.0, 8.0, 9.0}) {
    NodeParams p;
    p.packet_size = size;
    EXPECT_THROW(DorPncModel(Protocol::PNC, p), haec::InputError) << size;
  }
  NodeParams barely;
  barely.packet_size = 10; // PNC: 1 B of payload
  EXPECT_EQ(DorPncModel(Protocol::PNC, barely).packets(7), 7u);
  barely.packet_size = 5; // DOR: 1 B of payload
  EXPECT_EQ(DorPncModel(Protocol::DOR, barely).packets(7), 7u);

  NodeParams negative;
  negative.d_out = -1e-9;
  EXPECT_THROW(DorPncModel(Protocol::DOR, negative), haec::InputError);
  EXPECT_THROW(parse_protocol("dor_x"), haec::InputError);
  EXPECT_EQ(parse_protocol("pnc"), Protocol::PNC);
}
