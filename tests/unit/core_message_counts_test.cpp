// SMPI's message numbers per (communicator, source, destination, tag), as SMPI 3.32 counts them
// (smpi_comm.cpp: a count per envelope and direction, 0 before the first message, reset for a new
// communicator).
#include "message_counts.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <tuple>

using haec::core::MessageCounts;

namespace {
int world_object, split_object; // two communicators' addresses
const void* const world = &world_object;
const void* const split = &split_object;
} // namespace

TEST(MessageCounts, NumbersEachEnvelopeFromZero)
{
  MessageCounts counts;
  EXPECT_EQ(counts.sent(world, 0, 1, 7), 0u);
  counts.count_sent(world, 0, 1, 7);
  counts.count_sent(world, 0, 1, 7);
  counts.count_sent(world, 0, 1, 8);
  EXPECT_EQ(counts.sent(world, 0, 1, 7), 2u);
  EXPECT_EQ(counts.sent(world, 0, 1, 8), 1u);
  EXPECT_EQ(counts.sent(world, 1, 0, 7), 0u) << "source and destination are not interchangeable";
  EXPECT_EQ(counts.received(world, 0, 1, 7), 0u) << "sent and received are counted apart";
  counts.count_received(world, 0, 1, 7);
  EXPECT_EQ(counts.received(world, 0, 1, 7), 1u);
  EXPECT_EQ(counts.envelopes(), 3u);
}

TEST(MessageCounts, NegativeTagsAndLargeRanksAreTheirOwnEnvelopes)
{
  MessageCounts counts;
  counts.count_sent(world, 4095, 0, -12); // SMPI's collectives use negative tags
  counts.count_sent(world, 0, 4095, -12);
  counts.count_sent(world, 4095, 0, 12);
  EXPECT_EQ(counts.sent(world, 4095, 0, -12), 1u);
  EXPECT_EQ(counts.sent(world, 0, 4095, -12), 1u);
  EXPECT_EQ(counts.sent(world, 4095, 0, 12), 1u);
  EXPECT_EQ(counts.sent(world, -12, 0, 4095), 0u);
}

TEST(MessageCounts, CommunicatorsAreCountedApartAndANewOneStartsFromZero)
{
  MessageCounts counts;
  counts.count_sent(world, 0, 1, 0);
  counts.count_sent(split, 0, 1, 0);
  counts.count_sent(split, 0, 1, 0);
  EXPECT_EQ(counts.sent(world, 0, 1, 0), 1u);
  EXPECT_EQ(counts.sent(split, 0, 1, 0), 2u);
  counts.forget(split); // a new communicator built where the freed one was
  EXPECT_EQ(counts.sent(split, 0, 1, 0), 0u);
  EXPECT_EQ(counts.sent(world, 0, 1, 0), 1u);
  counts.count_sent(split, 0, 1, 0);
  EXPECT_EQ(counts.sent(split, 0, 1, 0), 1u);
  counts.forget(world); // the last communicator used is forgotten too
  EXPECT_EQ(counts.sent(world, 0, 1, 0), 0u);
}

TEST(MessageCounts, ReadingDoesNotCreateEnvelopes)
{
  MessageCounts counts;
  for (int r = 0; r < 100; ++r)
    EXPECT_EQ(counts.received(world, r, 0, 0), 0u);
  EXPECT_EQ(counts.envelopes(), 0u);
}

// The table against an ordered map (an independent implementation): many envelopes, so that the
// table grows several times, in a pseudo-random order with repeats, negative tags and large ranks.
TEST(MessageCounts, AgreesWithAnOrderedMapThroughGrowth)
{
  MessageCounts counts;
  std::map<std::tuple<int, int, int>, unsigned> reference;
  uint64_t state = 12345;
  auto next = [&state](int bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((state >> 33) % static_cast<uint64_t>(bound));
  };
  for (int i = 0; i < 60000; ++i) {
    const int src = next(4096), dst = next(64), tag = next(40) - 20;
    counts.count_sent(world, src, dst, tag);
    ++reference[{src, dst, tag}];
  }
  EXPECT_EQ(counts.envelopes(), reference.size());
  for (auto const& [key, n] : reference)
    ASSERT_EQ(counts.sent(world, std::get<0>(key), std::get<1>(key), std::get<2>(key)), n);
  EXPECT_EQ(counts.sent(world, 4096, 0, 0), 0u);
  EXPECT_EQ(counts.received(world, std::get<0>(reference.begin()->first), std::get<1>(reference.begin()->first),
                            std::get<2>(reference.begin()->first)),
            0u);
}

// SMPI's own pattern (read an envelope's count, then count it) mixed with counts that follow
// another read, counts without a read and reads of absent envelopes, through growth: the slot kept
// from a read must only ever serve the envelope it was read for, and never outlive an insertion.
TEST(MessageCounts, ReadThenCountAgreesWithAnOrderedMap)
{
  MessageCounts counts;
  std::map<std::tuple<const void*, int, int, int>, unsigned> reference;
  uint64_t state = 777;
  auto next = [&state](int bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((state >> 33) % static_cast<uint64_t>(bound));
  };
  for (int i = 0; i < 50000; ++i) {
    const void* comm = next(4) == 0 ? split : world;
    const int src = next(512), dst = next(8), tag = next(6) - 3;
    const unsigned expected = reference[{comm, src, dst, tag}];
    switch (next(4)) {
      case 0: // SMPI: read, then count the same envelope
        ASSERT_EQ(counts.sent(comm, src, dst, tag), expected);
        counts.count_sent(comm, src, dst, tag);
        break;
      case 1: // read one envelope, count its neighbour (same source and destination, next tag)
        ASSERT_EQ(counts.sent(comm, src, dst, tag), expected);
        counts.count_sent(comm, src, dst, tag + 1);
        ++reference[{comm, src, dst, tag + 1}];
        --reference[{comm, src, dst, tag}]; // undone below: this envelope was not counted
        break;
      case 2: // count without reading first
        counts.count_sent(comm, src, dst, tag);
        break;
      default: // read only
        ASSERT_EQ(counts.sent(comm, src, dst, tag), expected);
        --reference[{comm, src, dst, tag}];
        break;
    }
    ++reference[{comm, src, dst, tag}];
  }
  for (auto const& [key, n] : reference)
    ASSERT_EQ(counts.sent(std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key)), n);
}
