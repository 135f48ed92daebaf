// Task keys (plugins/dvfs/model/dvfs_observer.hpp): the k-th computation of a region in an
// iteration is task (region << 20) ^ k, counted afresh each iteration, whatever the regions' ids.
#include "dvfs_observer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>

using haec::dvfs::TaskKeys;

TEST(TaskKeys, CountsEachRegionsOccurrencesWithinAnIteration)
{
  TaskKeys keys;
  EXPECT_EQ(keys.key(3), (uint64_t{3} << 20) ^ 0);
  EXPECT_EQ(keys.key(3), (uint64_t{3} << 20) ^ 1);
  EXPECT_EQ(keys.key(0), uint64_t{0});
  EXPECT_EQ(keys.key(3), (uint64_t{3} << 20) ^ 2);
  keys.new_iteration();
  EXPECT_EQ(keys.key(3), (uint64_t{3} << 20) ^ 0);
  EXPECT_EQ(keys.key(0), uint64_t{0});
}

// Against an ordered map, through many regions (the table grows) and many iterations (cleared).
TEST(TaskKeys, AgreesWithAnOrderedMapThroughGrowthAndIterations)
{
  TaskKeys keys;
  std::map<uint32_t, uint32_t> seen;
  uint64_t state = 99;
  for (int i = 0; i < 100000; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    if ((state >> 60) == 0) { // about one call in 16: a new iteration
      keys.new_iteration();
      seen.clear();
      continue;
    }
    const auto region = static_cast<uint32_t>((state >> 33) % 3000);
    ASSERT_EQ(keys.key(region), (static_cast<uint64_t>(region) << 20) ^ seen[region]++);
  }
}
