// Inputs found by the fuzz targets (tests/fuzz) that the link model once mishandled.
#include "dor_pnc_model.hpp"
#include "input_error.hpp"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>

using namespace haec::link;

// fuzz_link_model: --cfg haec/link/packet-size:64e-300 with window-id 0 leaves a payload of
// 6.4e-299 bytes; packets() converted ceil(m / payload) ~ 1e298 to uint64_t (undefined
// behaviour, UBSan: "outside the range of representable values"). It now saturates.
TEST(LinkFuzzRegressions, PacketCountSaturatesInsteadOfOverflowing)
{
  NodeParams p;
  p.packet_size = 64e-300;
  p.window      = 1;
  p.window_id   = 0;
  p.ff_symbol   = 0;
  DorPncModel tiny(Protocol::DOR, p);
  EXPECT_EQ(tiny.packets(0), 1u);
  EXPECT_EQ(tiny.packets(63), UINT64_MAX);
  const Hop hop{1.27e-6, 9.375e9};
  const double t = tiny.transfer_time(63, &hop, 1);
  EXPECT_TRUE(std::isfinite(t));
  EXPECT_GT(t, 1e13); // 2^64 - 1 packets of at least 1.27 us each

  // A 1-byte payload: exact up to 2^53, saturated where m / payload reaches 2^64.
  p.packet_size = 5;
  p.window_id   = 4;
  DorPncModel one(Protocol::DOR, p);
  EXPECT_EQ(one.packets(1ULL << 53), 1ULL << 53);
  EXPECT_EQ(one.packets(UINT64_MAX), UINT64_MAX); // (double)(2^64 - 1) is 2^64
}

// fuzz_link_model: a hop latency of 1e308 s (a finite value the platform accepts) made tt(s_w)
// infinite and T = tt(s_w) * n_w = inf * 0 = NaN for a one-packet message; with d_out = 1e308,
// d_s = 2 * d_out overflowed the same way, and seed-literal windows computed inf - inf. T is now
// +inf: the message never completes.
TEST(LinkFuzzRegressions, OverflowingDelaysGiveInfinityNotNaN)
{
  const Hop hops[] = {{10e-9, 31.25e9}, {1e308, 12.5e9}};
  NodeParams p;
  for (auto partial : {PartialWindow::NoPartial, PartialWindow::SeedLiteral})
    for (auto proto : {Protocol::DOR, Protocol::PNC}) {
      p.partial_window = partial;
      DorPncModel model(proto, p);
      for (uint64_t m : {0ULL, 240ULL, 5 * 284ULL, 1ULL << 20}) {
        EXPECT_EQ(model.transfer_time(m, hops, 2), INFINITY) << m;
        EXPECT_TRUE(std::isfinite(model.transfer_time(m, hops, 1))) << m;
      }
    }
  // The guard leaves finite routes alone: DOR, one 240 B packet over 10 ns / 250 Gbit/s:
  // d_h = 100 + 9.216 + 10 + 100 ns, T = tt(1) + ack = (200 + 219.216 + 200) + (219.216 + 50) ns.
  EXPECT_NEAR(DorPncModel(Protocol::DOR, NodeParams{}).transfer_time(240, hops, 1), 888.432e-9, 1e-18);

  NodeParams slow;
  slow.d_out = 1e308; // 2 * d_out overflows
  DorPncModel model(Protocol::DOR, slow);
  EXPECT_EQ(model.transfer_time(240, hops, 1), INFINITY);
  EXPECT_EQ(model.transfer_time(240, hops, 0), INFINITY);
}
