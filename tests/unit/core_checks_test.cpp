// The invariants every run verifies (core/model/checks.hpp) and the run description of haec run
// (core/model/run_description.hpp): each check passes on consistent figures and fails, naming the
// figures, on inconsistent ones.
#include "checks.hpp"
#include "input_error.hpp"
#include "run_description.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace haec::core;

TEST(CoreChecks, PairsMatchNamesTheFirstMismatch)
{
  PairCounts sent{{{0, 1}, {3, 300}}, {{1, 0}, {1, 8}}};
  PairCounts done = sent;
  EXPECT_EQ(pairs_match("n", sent, done, "network transfer").result, Check::Result::Passed);
  done[{0, 1}] = {2, 200};
  Check c = pairs_match("n", sent, done, "network transfer");
  EXPECT_EQ(c.result, Check::Result::Failed);
  EXPECT_EQ(c.figures, "network transfer 0->1: 3 messages, 300 bytes started, 2 messages, 200 bytes completed");
}

TEST(CoreChecks, ReceivesMayPostLargerBuffersButNotFewerMessages)
{
  PairCounts sent{{{0, 1}, {2, 100}}};
  EXPECT_EQ(receives_match_sends(sent, {{{0, 1}, {2, 160}}}).result, Check::Result::Passed);
  EXPECT_EQ(receives_match_sends(sent, {{{0, 1}, {2, 99}}}).result, Check::Result::Failed);
  EXPECT_EQ(receives_match_sends(sent, {{{0, 1}, {1, 100}}}).result, Check::Result::Failed);
  EXPECT_EQ(receives_match_sends(sent, {}).result, Check::Result::Failed);
}

TEST(CoreChecks, TrafficMatrixTotal)
{
  const std::string csv = "src_rank,dst_rank,messages,bytes\n0,1,3,30\n1,0,2,20\n";
  EXPECT_EQ(traffic_matrix_total(csv, 5).result, Check::Result::Passed);
  Check c = traffic_matrix_total(csv, 6);
  EXPECT_EQ(c.result, Check::Result::Failed);
  EXPECT_EQ(c.figures, "traffic_matrix.csv holds 5 messages, app_messages is 6");
  EXPECT_EQ(traffic_matrix_total("src_rank,dst_rank,messages,bytes\n", 0).result, Check::Result::Passed);
}

TEST(CoreChecks, ColumnSum)
{
  const std::string csv = "host,energy_j\na,0.1\nb,0.2\n";
  EXPECT_EQ(column_sum("e", csv, "energy_j", 0.1 + 0.2, "total").result, Check::Result::Passed);
  EXPECT_EQ(column_sum("e", csv, "energy_j", 0.31, "total").result, Check::Result::Failed);
  EXPECT_EQ(column_sum("e", csv, "watts", 0.3, "total").result, Check::Result::Failed); // no such column
}

TEST(CoreChecks, AllRanksFinalized)
{
  EXPECT_EQ(all_ranks_finalized({0, 1, 2}, 3).result, Check::Result::Passed);
  Check c = all_ranks_finalized({0, 2}, 3);
  EXPECT_EQ(c.result, Check::Result::Failed);
  EXPECT_EQ(c.figures, "rank 1 never called MPI_Finalize (2 of 3 ranks did)");
}

TEST(RunDescription, RoundTripsAndComputesMetrics)
{
  RunDescription d;
  d.platform  = "torus:2x1x1";
  d.ranks     = 3;
  d.mode      = "emulation";
  d.program   = "./app";
  d.strategy  = "random";
  d.seed      = 7;
  d.placement = {0, 1, 1};
  d.coords    = {{0, {0, 0, 0}}, {1, {1, 0, 0}}};
  d.hosts     = {{0, "node-0"}, {1, "node-1"}};
  const auto path = std::filesystem::temp_directory_path() / ("haec_run_" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << to_json_text(d);
  RunDescription back = read_run_description(path.string());
  std::filesystem::remove(path);
  EXPECT_EQ(back.platform, d.platform);
  EXPECT_EQ(back.placement, d.placement);
  EXPECT_EQ(*back.seed, 7u);
  EXPECT_EQ(back.coords.at(1)[0], 1);
  EXPECT_EQ(back.hosts, d.hosts);

  RunRecord r(false);
  r.add_logical_message(0, 1, 10); // inter-node, 1 hop
  r.add_logical_message(1, 2, 10); // same node
  r.add_logical_message(2, 0, 10); // inter-node
  auto m = run_metrics(back, r, true, [](int, int) { return 1; }); // a 1-link route between the nodes
  ASSERT_TRUE(m);
  EXPECT_EQ(m->ieplc, 3u);
  EXPECT_EQ(m->ianlc, 1u);
  EXPECT_EQ(m->ienlc, 2u);
  EXPECT_EQ(m->message_hops, 2u);
  // Without route lengths the figure is absent, never guessed from coordinates.
  auto unknown = run_metrics(back, r, true, nullptr);
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->ienlc, 2u);
  EXPECT_FALSE(unknown->message_hops);
  EXPECT_FALSE(run_metrics(back, r, false, nullptr)); // messages not observed, no --traffic
}

TEST(RunDescription, RejectsAFileThatIsNotOne)
{
  const auto path = std::filesystem::temp_directory_path() / ("haec_run_bad_" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << "{\"platform\": 1}";
  EXPECT_THROW(read_run_description(path.string()), haec::InputError);
  std::filesystem::remove(path);
}
