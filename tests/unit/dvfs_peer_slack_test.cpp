// Peer-aware slack (peer_slack.hpp): lateness against an all-racing run, the wait's attribution,
// the blame and the message float, hand-computed.
#include "dvfs_test_support.hpp"
#include "governor.hpp"
#include "input_error.hpp"
#include "lagrange.hpp"
#include "peer_slack.hpp"

#include <gtest/gtest.h>

using namespace haec::dvfs;

TEST(DvfsPeerSlack, WaitAttributedToTheLatePeer)
{
  // Ready 0.1 s late, waited 0.3 s for a peer 0.25 s late: 0.15 s of the wait is the peer's
  // lateness beyond ours; all racing, we would have started at most 0.25 s earlier.
  AttributedWait a = attribute_wait(0.3, 0.1, 0.25);
  EXPECT_NEAR(a.slack, 0.15, 1e-12);
  EXPECT_NEAR(a.start_lateness, 0.25, 1e-12);
  // A peer less late than us: the whole wait is slack, and we catch up to its lateness.
  a = attribute_wait(0.3, 0.4, 0.1);
  EXPECT_NEAR(a.slack, 0.3, 1e-12);
  EXPECT_NEAR(a.start_lateness, 0.1, 1e-12);
  // A peer later than us by more than the wait: no slack; our lateness grows by the wait.
  a = attribute_wait(0.1, 0.0, 0.5);
  EXPECT_EQ(a.slack, 0.0);
  EXPECT_NEAR(a.start_lateness, 0.1, 1e-12);
  // No wait, or an unknown peer: the lateness carries over.
  a = attribute_wait(0, 0.2, 0.9);
  EXPECT_EQ(a.slack, 0.0);
  EXPECT_EQ(a.start_lateness, 0.2);
  a = attribute_wait(0.3, 0.2, -1);
  EXPECT_EQ(a.slack, 0.3);
  EXPECT_EQ(a.start_lateness, 0.2);
  EXPECT_NEAR(end_lateness(0.2, 1.5, 1.2), 0.5, 1e-12);
  EXPECT_EQ(end_lateness(0.2, 1.0, 1.0), 0.2);
}

namespace {

// Rank 1 computes 1.2 s for 1 s of racing work (0.2 s late), rank 0 races 1 s; rank 1's
// message arrives at 1.25 s.
PeerLedger slowed_neighbour(bool attribute, bool float_cap, double rank0_end)
{
  PeerLedger p(attribute, float_cap);
  p.computation_starts(0, 0, 0);
  p.computation_starts(1, 0, 0);
  p.computation_ended(0, rank0_end, rank0_end, rank0_end); // raced
  p.computation_ended(1, 1.2, 1.2, 1.0);
  p.message(1, 0, 1.2, 1.25);
  return p;
}

} // namespace

TEST(DvfsPeerSlack, RacingRankWaitingForALatePeerBlamesIt)
{
  PeerLedger p = slowed_neighbour(true, false, 1.0);
  EXPECT_NEAR(p.lateness(1), 0.2, 1e-12);
  EXPECT_EQ(p.lateness(0), 0.0);
  // Rank 0 waited 0.2 s beyond its communication (ready at 1.0, 0.05 s to communicate): all of
  // it is rank 1's lateness, so no slack; rank 0 now starts 0.2 s late, and rank 1 is blamed
  // 0.2 s per 1.2 s of the computation that sent the message.
  EXPECT_NEAR(p.computation_starts(0, 1.25, 0.2), 0.0, 1e-12);
  p.computation_ended(0, 2.25, 1.0, 1.0);
  EXPECT_NEAR(p.lateness(0), 0.2, 1e-12);
  const PeerLedger::Share s = p.close_iteration(1);
  EXPECT_NEAR(s.blame, 0.2 / 1.2, 1e-12);
  EXPECT_EQ(s.float_ratio, -1);
  EXPECT_EQ(p.close_iteration(1).blame, 0.0); // forgotten once read
  EXPECT_EQ(p.close_iteration(0).blame, 0.0);
}

TEST(DvfsPeerSlack, FloatOfAMessageAtARacingRank)
{
  // Without attribution the whole wait is slack; the message was needed on arrival: float 0.
  PeerLedger waited = slowed_neighbour(false, true, 1.0);
  EXPECT_NEAR(waited.computation_starts(0, 1.25, 0.2), 0.2, 1e-12);
  EXPECT_EQ(waited.close_iteration(1).float_ratio, 0.0);
  // Rank 0 computed until 1.3 s and started again at 1.35 s: the message had 0.1 s of float,
  // 0.1 / 1.2 per second of its sending computation.
  PeerLedger early = slowed_neighbour(false, true, 1.3);
  EXPECT_EQ(early.computation_starts(0, 1.35, 0), 0.0);
  EXPECT_NEAR(early.close_iteration(1).float_ratio, 0.1 / 1.2, 1e-12);
  // A rank that ran slowed has slack of its own: its messages' senders are not capped.
  PeerLedger slowed(true, true);
  slowed.computation_ended(1, 1.0, 1.0, 1.0);
  slowed.computation_ended(0, 1.3, 1.3, 1.0);
  slowed.message(1, 0, 1.0, 1.35);
  EXPECT_NEAR(slowed.computation_starts(0, 1.35, 0.05), 0.05, 1e-12);
  EXPECT_EQ(slowed.close_iteration(1).float_ratio, -1);
  EXPECT_EQ(slowed.close_iteration(1).blame, 0.0);
}

TEST(DvfsPeerSlack, MessageCarriesTheComputationBeforeItsSend)
{
  PeerLedger p(true, true);
  p.computation_ended(1, 1.2, 1.2, 1.0);  // 0.2 s late
  p.computation_starts(1, 1.25, 0);
  p.computation_ended(1, 2.0, 0.75, 0.5); // 0.45 s late, after the message left at 1.2 s
  p.computation_ended(0, 1.0, 1.0, 1.0);
  p.message(1, 0, 1.2, 2.1);
  // Rank 0 waited 1.0 s: the peer was 0.2 s late when it sent, so 0.8 s are slack; blame
  // 0.2 s per 1.2 s of the sending computation.
  EXPECT_NEAR(p.computation_starts(0, 2.1, 1.0), 0.8, 1e-12);
  EXPECT_NEAR(p.close_iteration(1).blame, 0.2 / 1.2, 1e-12);
}

TEST(DvfsPeerSlack, BlameShrinksLagrangesWindow)
{
  LagrangeGovernor g(PstateTable(dvfs_test::taurus8(), "t"), 10, 0.95, false);
  IterationStats it{0, 2.3e9, 1.0, 1.0, 2.0};
  it.slack_ratio = 0.2;
  EXPECT_NEAR(g.window(it), 1.2, 1e-12);
  it.blame = 0.1; // a racing rank waited 0.1 s per second of our computation
  EXPECT_NEAR(g.window(it), 1.1, 1e-12);
  it.blame = 0.5; // beyond the slack: the window is shorter than the computation (speed up)
  EXPECT_NEAR(g.window(it), 0.7, 1e-12);
}

TEST(DvfsPeerSlack, ParametersParsed)
{
  GovernorParams p;
  EXPECT_FALSE(p.peer_slack);
  EXPECT_FALSE(p.peer_float);
  EXPECT_EQ(p.peer_chain, 0);
  apply_params(p, "peer_slack=1;peer-float=true;peer_chain=0.5", "t");
  EXPECT_TRUE(p.peer_slack);
  EXPECT_TRUE(p.peer_float);
  EXPECT_EQ(p.peer_chain, 0.5);
  p.peer_chain = -1;
  EXPECT_THROW(check_params(p, "t"), haec::InputError);
}

TEST(DvfsPeerSlack, ChainEndsAtACriticalRank)
{
  // Rank 2 (task 3) sends to rank 1 (task 2), which sends to rank 0 (task 1), racing and never
  // waiting: critical. Rank 1 waits 0.1 s, but its message reaches rank 0 just in time.
  PeerLedger p(false, false, false, true);
  for (int r = 0; r < 3; ++r)
    p.computation_starts(r, 0, 0, static_cast<uint64_t>(r + 1));
  p.computation_ended(2, 1.0, 1.0, 1.0, 3);
  p.message(2, 1, 1.0, 1.1);
  p.computation_ended(1, 1.5, 1.5, 1.5, 2);
  p.message(1, 0, 1.5, 1.55);
  p.computation_ended(0, 1.55, 1.55, 1.55, 1);
  p.computation_starts(1, 1.6, 0.1, 2); // rank 2's message waited 0.5 s: chain 0.5 + 0 (task 2 not known yet)
  p.computation_starts(0, 1.55, 0, 1);  // critical: rank 1's message had 0 s of float, and nothing after it
  EXPECT_EQ(p.chain_float(1, 2), -1);   // learnt at the task's next occurrence
  p.computation_ended(1, 3.0, 1.4, 1.5, 2);
  p.computation_ended(2, 2.5, 1.0, 1.0, 3);
  EXPECT_EQ(p.chain_float(1, 2), 0.0); // min(its own wait 0.1, float 0 at the critical rank)
  EXPECT_NEAR(p.chain_float(2, 3), 0.5, 1e-12);
  EXPECT_EQ(p.close_iteration(1).chain_ratio, 0.0);
  EXPECT_NEAR(p.close_iteration(2).chain_ratio, 0.5 / 1.0, 1e-12);
  EXPECT_EQ(p.close_iteration(0).chain_ratio, -1); // its task has not ended a second time
}

TEST(DvfsPeerSlack, ChainFloatAddsAlongTheChainOneHopPerIteration)
{
  // Every 1.5 s: rank 2 (task 12) races 1 s and sends to rank 1, 0.2 s before rank 1 needs it;
  // rank 1 (task 11) runs slowed until 1.2 s, waits 0.3 s, and its message reaches rank 0 0.1 s
  // before rank 0 (task 10, racing 1.4 s, no wait: critical) needs it. Rank 2 waits 0.5 s.
  PeerLedger p(false, false, false, true);
  for (int r = 0; r < 3; ++r)
    p.computation_starts(r, 0, 0, static_cast<uint64_t>(10 + r));
  auto ends = [&](double t) {
    p.computation_ended(2, t + 1.0, 1.0, 1.0, 12);
    p.message(2, 1, t + 1.0, t + 1.3);
    p.computation_ended(1, t + 1.2, 1.2, 1.0, 11);
    p.message(1, 0, t + 1.2, t + 1.4);
    p.computation_ended(0, t + 1.4, 1.4, 1.4, 10);
  };
  auto starts = [&](double t) {
    p.computation_starts(0, t + 1.5, 0, 10);
    p.computation_starts(1, t + 1.5, 0.3, 11);
    p.computation_starts(2, t + 1.5, 0.5, 12);
  };
  ends(0);
  starts(0);
  ends(1.5);
  // Rank 1: min(its wait 0.3, 0.1 of float at the critical rank); rank 2: min(0.5, 0.2 + rank
  // 1's chain, not known yet: 0).
  EXPECT_NEAR(p.chain_float(1, 11), 0.1, 1e-12);
  EXPECT_NEAR(p.chain_float(2, 12), 0.2, 1e-12);
  EXPECT_EQ(p.chain_float(0, 10), 0.0);
  starts(1.5);
  ends(3.0);
  EXPECT_NEAR(p.chain_float(1, 11), 0.1, 1e-12);      // min(0.3 + 0.1, 0.1)
  EXPECT_NEAR(p.chain_float(2, 12), 0.2 + 0.1, 1e-12); // min(0.5 + 0.2, 0.2 + 0.1)
}

TEST(DvfsPeerSlack, FreeFloatOfAPerformanceRun)
{
  // Rank 0 computes 1 s, rank 1 1.2 s; each sends to the other when it ends. Rank 1's message
  // arrives at 1.25 s and rank 0 starts again at 1.3 s; rank 0's arrives at 1.05 s and rank 1
  // starts again at 1.25 s.
  PeerLedger p(false, false, true);
  p.computation_starts(0, 0, 0);
  p.computation_starts(1, 0, 0);
  p.computation_ended(0, 1.0, 1.0, 1.0);
  p.message(0, 1, 1.0, 1.05);
  p.computation_ended(1, 1.2, 1.2, 1.2);
  p.message(1, 0, 1.2, 1.25);
  p.computation_starts(1, 1.25, 0);
  p.computation_starts(0, 1.3, 0.25);
  ASSERT_EQ(p.floats(0).size(), 1u);
  ASSERT_EQ(p.floats(1).size(), 1u);
  EXPECT_NEAR(p.floats(0)[0].t_lib, 0.3, 1e-12);
  EXPECT_NEAR(p.floats(0)[0].message_float, 0.2, 1e-12); // 1.25 - 1.05
  EXPECT_NEAR(p.floats(1)[0].t_lib, 0.05, 1e-12);
  EXPECT_NEAR(p.floats(1)[0].message_float, 0.05, 1e-12); // 1.3 - 1.25
  // Communicating without waiting takes 0.05 s: rank 0 waited 0.25 s, but its message was
  // needed 0.2 s after it arrived, so it may stretch by 0.2 s only; rank 1 not at all.
  const auto w0 = free_float_windows(p.floats(0), 0.05);
  const auto w1 = free_float_windows(p.floats(1), 0.05);
  ASSERT_EQ(w0.size(), 1u);
  EXPECT_NEAR(w0[0].slack, 0.2, 1e-12);
  EXPECT_NEAR(w0[0].duration, 1.3, 1e-12);
  EXPECT_EQ(w0[0].compute_s, 1.0);
  EXPECT_NEAR(w1[0].slack, 0.0, 1e-12);
  // A computation not followed by another (the last) has no window.
  p.computation_ended(0, 2.3, 1.0, 1.0);
  EXPECT_EQ(free_float_windows(p.floats(0), 0.05).size(), 1u);
  // The graph: each rank's computations, rank by rank; each message an edge from the computation
  // that sent it to the one that needed it, its delay the time on the network; every rank's gap
  // the least between two computations of any rank (rank 1's 0.05 s).
  p.computation_ended(1, 2.45, 1.2, 1.2);
  const FloatGraph g = p.graph({0, 1});
  ASSERT_EQ(g.nodes.size(), 4u);
  EXPECT_EQ(g.nodes[1].rank, 0u);
  EXPECT_NEAR(g.nodes[1].start, 1.3, 1e-12);
  EXPECT_EQ(g.nodes[3].rank, 1u);
  EXPECT_NEAR(g.nodes[3].start, 1.25, 1e-12);
  ASSERT_EQ(g.edges.size(), 2u);
  EXPECT_EQ(g.edges[0].from, 0u); // rank 0's first -> rank 1's second
  EXPECT_EQ(g.edges[0].to, 3u);
  EXPECT_NEAR(g.edges[0].delay, 0.05, 1e-12);
  EXPECT_EQ(g.edges[1].from, 2u); // rank 1's first -> rank 0's second
  EXPECT_EQ(g.edges[1].to, 1u);
  EXPECT_NEAR(g.edges[1].delay, 0.05, 1e-12);
  ASSERT_EQ(g.gap.size(), 2u);
  EXPECT_NEAR(g.gap[0], 0.05, 1e-12);
  EXPECT_NEAR(g.gap[1], 0.05, 1e-12);
  // All racing: rank 1's second computation starts at 1.25 s (its own end + 0.05 s), rank 0's
  // at 1.25 s too (rank 1's message: 1.2 + 0.05), so the graph ends at 2.45 s.
  EXPECT_NEAR(racing_makespan(g), 2.45, 1e-12);
  // Without keep_floats nothing is kept.
  PeerLedger q(true, true);
  q.computation_ended(0, 1.0, 1.0, 1.0);
  EXPECT_TRUE(q.floats(0).empty());
}

// The iteration's slack ratio under the peer floats (the adapter's cap, in the model).
TEST(PeerLedgerShare, CapsTheSlackRatioByTheKnownFloats)
{
  haec::dvfs::PeerLedger::Share share;
  EXPECT_DOUBLE_EQ(share.capped(0.4, 1.0), 0.4); // no float known: unchanged
  EXPECT_DOUBLE_EQ(share.capped(-1, 1.0), -1);   // no slack measured stays so
  share.float_ratio = 0.25;
  EXPECT_DOUBLE_EQ(share.capped(0.4, 1.0), 0.25);
  share.chain_ratio = 0.3;
  EXPECT_DOUBLE_EQ(share.capped(0.4, 0.5), 0.15); // 0.5 x 0.3 < 0.25
  EXPECT_DOUBLE_EQ(share.capped(0.1, 0.5), 0.1);
  EXPECT_DOUBLE_EQ(share.capped(-1, 0.5), -1);
}
