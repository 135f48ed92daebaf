// Iteration detection on realistic call-site streams: a prologue, then a loop of
// Irecv/Isend/Waitall to 4-6 neighbours, with an extra Allreduce every 10th iteration.
#include "iteration_detector.hpp"

#include <gtest/gtest.h>

#include <vector>

using haec::iterations::IterationDetector;

namespace {

struct Call {
  uint64_t key;
  int iteration; // -1: prologue
};

// Prologue Init, Comm_rank, Comm_size, Bcast x2, Barrier; then `iters` iterations of `body`,
// with `extra` appended after every 10th iteration's body (if non-zero).
std::vector<Call> stream(const std::vector<uint64_t>& body, int iters, uint64_t extra)
{
  std::vector<Call> s;
  for (uint64_t k : {1, 2, 3, 4, 4, 5})
    s.push_back({k, -1});
  for (int i = 0; i < iters; ++i) {
    for (uint64_t k : body)
      s.push_back({k, i});
    if (extra && i % 10 == 9)
      s.push_back({extra, i});
  }
  return s;
}

// Iteration indices (of the generator) at which the detector reported a boundary.
std::vector<int> boundaries(IterationDetector& d, const std::vector<Call>& s)
{
  std::vector<int> b;
  for (auto const& c : s)
    if (d.feed(c.key))
      b.push_back(c.iteration);
  return b;
}

// From the first boundary on: exactly one per iteration, consecutive, none in the prologue.
void expect_one_per_iteration(const std::vector<int>& b, int iters, int lock_by)
{
  ASSERT_FALSE(b.empty());
  EXPECT_GE(b.front(), 0);
  EXPECT_LE(b.front(), lock_by);
  for (size_t i = 1; i < b.size(); ++i)
    ASSERT_EQ(b[i], b[i - 1] + 1) << "boundary " << i;
  EXPECT_EQ(b.back(), iters - 1);
}

} // namespace

TEST(DvfsIterations, LoopOverFourNeighboursWithPeriodicExtraCall)
{
  // Irecv and Isend in a loop over 4 neighbours (one call site each), then Waitall.
  const std::vector<uint64_t> body{10, 10, 10, 10, 11, 11, 11, 11, 12};
  IterationDetector d;
  auto b = boundaries(d, stream(body, 100, 20));
  expect_one_per_iteration(b, 100, 6);
  EXPECT_EQ(d.period(), 9);
  EXPECT_EQ(d.anchor(), IterationDetector::Anchor::Key);
  EXPECT_EQ(d.anchor_key(), 12u); // the only call seen once per iteration: Waitall
}

TEST(DvfsIterations, SixNeighboursUnrolledAndAllreduce)
{
  // Six distinct Irecv and Isend sites, Waitall, an Allreduce of the residual.
  std::vector<uint64_t> body;
  for (uint64_t k = 0; k < 6; ++k)
    body.push_back(100 + k);
  for (uint64_t k = 0; k < 6; ++k)
    body.push_back(200 + k);
  body.push_back(300);
  body.push_back(400);
  IterationDetector d;
  auto b = boundaries(d, stream(body, 60, 500));
  expect_one_per_iteration(b, 60, 4);
  EXPECT_EQ(d.period(), 14);
  EXPECT_EQ(d.anchor_key(), 100u); // the loop's first call, found after the prologue
}

TEST(DvfsIterations, NoUniqueKeyUsesAPair)
{
  // Each site twice per iteration: no key is unique, the pair (11, 10) is.
  IterationDetector d;
  auto b = boundaries(d, stream({10, 10, 11, 11}, 80, 0));
  expect_one_per_iteration(b, 80, 12);
  EXPECT_EQ(d.period(), 4);
  EXPECT_EQ(d.anchor(), IterationDetector::Anchor::Pair);
}

TEST(DvfsIterations, LongRunOfOneSiteIsNotAPeriodOfOne)
{
  std::vector<uint64_t> body(16, 10); // 16 Isends from one site, then a Waitall
  body.push_back(12);
  IterationDetector d;
  auto b = boundaries(d, stream(body, 40, 0));
  expect_one_per_iteration(b, 40, 4);
  EXPECT_EQ(d.period(), 17);
}

TEST(DvfsIterations, ForgetsAFinishedLoopAndFindsTheNext)
{
  IterationDetector d;
  auto s = stream({10, 11, 12}, 40, 0);
  for (int i = 0; i < 50; ++i) // second phase: another loop
    for (uint64_t k : {30, 31, 31, 32, 33})
      s.push_back({k, 1000 + i});
  auto b = boundaries(d, s);
  ASSERT_FALSE(b.empty());
  int second = 0, first_second = -1;
  for (int it : b) {
    second += it >= 1000;
    if (it >= 1000 && first_second < 0)
      first_second = it;
  }
  // Lost after 8 old periods (24 calls, ~5 new iterations), locked again after 32 repeating
  // calls (~7 more): one boundary per iteration from iteration 11 of the new loop on.
  EXPECT_EQ(first_second, 1011);
  EXPECT_EQ(second, 39);
  EXPECT_EQ(d.period(), 5);
  for (size_t i = 1; i < b.size(); ++i)
    if (b[i - 1] >= 1000) {
      EXPECT_EQ(b[i], b[i - 1] + 1);
    }
}

TEST(DvfsIterations, UserModes)
{
  const auto s = stream({10, 10, 11, 12}, 30, 20);
  auto every = IterationDetector::every(12, 3); // every 3rd Waitall
  std::vector<int> b = boundaries(every, s);
  ASSERT_EQ(b.size(), 10u);
  for (size_t i = 0; i < b.size(); ++i)
    EXPECT_EQ(b[i], static_cast<int>(3 * i + 2));
  auto marker = IterationDetector::marker(10); // each call of key 10 (two per iteration here)
  EXPECT_EQ(boundaries(marker, s).size(), 60u);
}
