// Traffic statistics: busy time as a union of intervals, per-link utilisation and
// flows, the log-spaced size bins, per-pair transfer statistics and the snapshots, on hand-built
// transfers with hand-computed figures.
#include "link_usage.hpp"
#include "snapshots.hpp"
#include "transfer_stats.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <vector>

using namespace haec::core;

TEST(BusyIntervals, MergesOverlapsInAnyOrder)
{
  BusyIntervals b;
  b.add(0, 1);
  b.add(2, 3);
  EXPECT_EQ(b.intervals().size(), 2u);
  b.add(0.5, 2.5); // joins both
  ASSERT_EQ(b.intervals().size(), 1u);
  EXPECT_DOUBLE_EQ(b.total(), 3.0);
  b.add(5, 6);
  b.add(4, 4.5); // ends before the last one: inserted in order
  b.add(4.5, 5); // touches both neighbours: one interval [4, 6]
  ASSERT_EQ(b.intervals().size(), 2u);
  EXPECT_DOUBLE_EQ(b.intervals()[1].begin, 4.0);
  EXPECT_DOUBLE_EQ(b.total(), 5.0);
  b.add(-1, 10); // covers everything
  ASSERT_EQ(b.intervals().size(), 1u);
  EXPECT_DOUBLE_EQ(b.total(), 11.0);
}

// The in-order shortcuts (after the last interval, or starting inside it) against a plain union of
// integer cells, on intervals mostly in time order with some out of order, as transfers complete.
TEST(BusyIntervals, InOrderShortcutsGiveTheUnion)
{
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    BusyIntervals b;
    std::vector<bool> cell(400, false); // [k, k+1) busy
    int clock = 0;
    for (int n = 0; n < 30; ++n) {
      clock += static_cast<int>(rng() % 8);
      const int begin = std::max(0, clock - static_cast<int>(rng() % 12)); // sometimes before the last
      const int end   = begin + 1 + static_cast<int>(rng() % 6);
      b.add(begin, end);
      for (int k = begin; k < end; ++k)
        cell[static_cast<size_t>(k)] = true;
    }
    const double busy = static_cast<double>(std::count(cell.begin(), cell.end(), true));
    EXPECT_DOUBLE_EQ(b.total(), busy) << "round " << round;
    for (size_t i = 1; i < b.intervals().size(); ++i) // sorted, disjoint, touching ones merged
      EXPECT_LT(b.intervals()[i - 1].end, b.intervals()[i].begin) << "round " << round;
  }
}

// Closing the intervals that end before a horizon no later interval starts before: the same
// total, to the last bit, as keeping them all, on transfers completing in time order with
// non-integer times (the horizon: the earliest start among those still to be added).
TEST(BusyIntervals, ClosingBeforeTheHorizonKeepsTheTotalExactly)
{
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int round = 0; round < 100; ++round) {
    struct Flow {
      double begin, end;
    };
    std::vector<Flow> flows; // by end, as they complete
    double clock = 0;
    for (int n = 0; n < 300; ++n) {
      clock += 0.37 * u(rng);
      flows.push_back({clock, clock + 0.05 + 0.6 * u(rng)});
    }
    std::sort(flows.begin(), flows.end(), [](const Flow& a, const Flow& b) { return a.end < b.end; });
    BusyIntervals all, closed;
    size_t peak = 0;
    for (size_t k = 0; k < flows.size(); ++k) {
      all.add(flows[k].begin, flows[k].end);
      closed.add(flows[k].begin, flows[k].end);
      if (k % 16 == 15) { // now and then, as the suite does after each batch
        double horizon = 1e300;
        for (size_t j = k + 1; j < flows.size(); ++j)
          horizon = std::min(horizon, flows[j].begin);
        closed.close_before(horizon);
      }
      peak = std::max(peak, closed.intervals().size());
    }
    EXPECT_EQ(closed.total(), all.total()) << "round " << round; // bit for bit
    EXPECT_LT(peak, all.intervals().size()) << "round " << round;
  }
  BusyIntervals b; // by hand: [0,1] [2,3] [4,6]; closing before 3.5 folds the first two
  b.add(0, 1);
  b.add(2, 3);
  b.add(4, 6);
  b.close_before(3.5);
  ASSERT_EQ(b.intervals().size(), 1u);
  EXPECT_DOUBLE_EQ(b.total(), 4.0);
  b.add(5, 7); // still merges with the open one
  EXPECT_DOUBLE_EQ(b.total(), 5.0);
}

namespace {

// Two links of 100 B/s; A crosses both, bandwidth phase [0, 1]; B crosses link 1, [0.5, 2].
struct TwoLinks {
  LinkUsage usage;
  std::vector<uint32_t> both{0, 1}, second{1};
  RouteTransfer a{&both, 10, 26, 0, 1}, b{&second, 20, 36, 0.5, 2};
  TwoLinks()
  {
    usage.add_link({"l0", "optical", 100});
    usage.add_link({"l1", "wireless", 100});
    usage.add_transfer(a);
    usage.add_transfer(b);
  }
};

} // namespace

TEST(LinkUsage, UtilisationBusyFractionAndFlows)
{
  TwoLinks t;
  // l1: 62 flow bytes over 100 B/s x 4 s = 0.155; busy [0, 2] = 2 s (0.5 of the run); flows
  // (1 + 1.5) / 2 = 1.25. l0: 26 / 400 = 0.065, busy 1 s, one flow.
  EXPECT_EQ(t.usage.csv({1, 0}, 4.0),
            "link,type,bandwidth_Bps,transfers,payload_bytes,occupied_bytes,utilisation,busy_s,busy_fraction,mean_flows\n"
            "l1,wireless,100,2,30,62,0.155,2,0.5,1.25\n"
            "l0,optical,100,1,10,26,0.065,1,0.25,1\n");
  // A run of zero length gives empty ratios, never inf or NaN.
  LinkUsage idle;
  idle.add_link({"l", "", 100});
  EXPECT_EQ(idle.csv({0}, 0.0).substr(idle.csv({0}, 0.0).find('\n') + 1), "l,,100,0,0,0,,0,,\n");
}

// Closing the links crossed since the last close: the same table; a link crossed before the last
// close keeps its open intervals until crossed again.
TEST(LinkUsage, ClosingBeforeAHorizonKeepsTheTable)
{
  TwoLinks kept, closed;
  closed.usage.close_before(1.5); // l0 [0, 1] closed; l1 [0, 2] stays open (ends after 1.5)
  EXPECT_TRUE(closed.usage.use(0).busy.intervals().empty());
  EXPECT_EQ(closed.usage.use(1).busy.intervals().size(), 1u);
  std::vector<uint32_t> second{1};
  const RouteTransfer late{&second, 5, 10, 3, 3.5};
  kept.usage.add_transfer(late);
  closed.usage.add_transfer(late);
  closed.usage.close_before(3); // only l1 was crossed since: [0, 2] closed, [3, 3.5] open
  EXPECT_EQ(closed.usage.use(1).busy.intervals().size(), 1u);
  EXPECT_EQ(closed.usage.csv({0, 1}, 4.0), kept.usage.csv({0, 1}, 4.0));
}

TEST(SizeBins, PowersOfTwo)
{
  EXPECT_EQ(size_bin(0), 0);
  EXPECT_EQ(size_bin(1), 1);
  EXPECT_EQ(size_bin(2), 2);
  EXPECT_EQ(size_bin(3), 2);
  EXPECT_EQ(size_bin(4), 3);
  EXPECT_EQ(size_bin(1023), 10);
  EXPECT_EQ(size_bin(1024), 11);
  EXPECT_EQ(bin_lower(0), 0u);
  EXPECT_EQ(bin_max(0), 0u);
  EXPECT_EQ(bin_lower(11), 1024u);
  EXPECT_EQ(bin_max(11), 2047u);
  EXPECT_EQ(size_bin(UINT64_MAX), 64);
  EXPECT_EQ(bin_max(64), UINT64_MAX);
}

namespace {

Transfer transfer(int src, int dst, uint64_t bytes, double start, double end)
{
  Transfer t;
  t.src_rank = src;
  t.dst_rank = dst;
  t.src_node = static_cast<uint32_t>(src < 0 ? 0 : src);
  t.dst_node = static_cast<uint32_t>(dst < 0 ? 0 : dst);
  t.bytes    = bytes;
  t.start    = start;
  t.end      = end;
  return t;
}

} // namespace

TEST(SizeHistogram, AppMessagesAndTransfersPerBin)
{
  SizeHistogram h;
  h.add_app_message(3);
  h.add_app_message(2);
  h.add_transfer(transfer(0, 1, 5, 0, 1));
  h.add_transfer(transfer(0, 1, 6, 1, 4));
  EXPECT_EQ(h.csv(true), "min_bytes,max_bytes,app_messages,app_bytes,transfers,transfer_bytes,mean_transfer_s\n"
                         "0,0,0,0,0,0,\n"
                         "1,1,0,0,0,0,\n"
                         "2,3,2,5,0,0,\n"
                         "4,7,0,0,2,11,2\n");
  // Not observed: the application's columns are empty, not zero.
  EXPECT_NE(h.csv(false).find("\n2,3,,,0,0,\n"), std::string::npos);
}

TEST(PairStats, CountsBytesAndTimesPerPair)
{
  PairStats p;
  p.add(transfer(1, 0, 100, 0, 1));
  p.add(transfer(0, 1, 10, 0, 2));
  p.add(transfer(0, 1, 30, 1, 5));
  EXPECT_EQ(p.csv({"n0", "n1"}),
            "src_rank,dst_rank,src_node,dst_node,transfers,bytes,mean_transfer_s,min_transfer_s,max_transfer_s\n"
            "0,1,n0,n1,2,40,3,2,4\n"
            "1,0,n1,n0,1,100,1,1,1\n");
}

TEST(Snapshots, PeriodsAddUpToTheRun)
{
  TwoLinks t;
  Snapshots s(1.0);
  EXPECT_EQ(s.periods(4.0), 4u);
  EXPECT_EQ(s.periods(3.5), 4u);
  EXPECT_EQ(s.periods(0.0), 1u);
  s.add_transfer(t.a);
  s.add_transfer(t.b);
  s.add_app_message(0, 1, 8, 0.2);
  s.add_app_message(1, 0, 4, 3.9);
  s.add_app_message(0, 1, 2, 4.0); // at the makespan: the last period
  EXPECT_EQ(s.traffic_csv(4.0), "period,start_s,end_s,src_rank,dst_rank,messages,bytes\n"
                                "0,0,1,0,1,1,8\n"
                                "3,3,4,0,1,1,2\n"
                                "3,3,4,1,0,1,4\n");
  // A ends at 1: counted in period 1, its flow (26) all in period 0. B's 36 flow bytes over
  // [0.5, 2]: 12 in period 0, 24 in period 1; it ends at 2, so it counts in period 2.
  EXPECT_EQ(s.links_csv(t.usage, {0, 1}, 4.0),
            "period,start_s,end_s,link,transfers,payload_bytes,occupied_bytes,utilisation,busy_s,busy_fraction\n"
            "0,0,1,l0,0,0,26,0.26,1,1\n"
            "0,0,1,l1,0,0,38,0.38,1,1\n"
            "1,1,2,l0,1,10,0,0,0,0\n"
            "1,1,2,l1,1,10,24,0.24,1,1\n"
            "2,2,3,l1,1,20,0,0,0,0\n");
}
