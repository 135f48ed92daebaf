// SmpiFactorTable must reproduce SimGrid 3.32's NetworkSmpiModel lookup exactly, or the suite
// would change simulated times when it only observes.
#include "input_error.hpp"
#include "smpi_factors.hpp"

#include <gtest/gtest.h>

using haec::core::SmpiFactorTable;

// SMPI 3.32's default smpi/bw-factor.
static const char* kDefaultBw = "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;"
                                "1426:0.608902;732:0.341987;257:0.338112;0:0.812084";

TEST(SmpiFactorTable, DefaultBandwidthTableSteps)
{
  SmpiFactorTable t(kDefaultBw, "smpi/bw-factor");
  EXPECT_EQ(t.lookup(0), 1.0);            // size <= first threshold (0): 1.0
  EXPECT_EQ(t.lookup(16), 0.812084);      // above 0, not above 257
  EXPECT_EQ(t.lookup(257), 0.812084);     // thresholds are inclusive upper bounds of the previous step
  EXPECT_EQ(t.lookup(258), 0.338112);
  EXPECT_EQ(t.lookup(1016), 0.341987); // 732 < 1016 <= 1426
  EXPECT_EQ(t.lookup(1427), 0.608902);
  EXPECT_EQ(t.lookup(65472), 0.697866); // 15424 < 65472 <= 65472
  EXPECT_EQ(t.lookup(1e6), 0.940694);
}

TEST(SmpiFactorTable, UnsortedInputIsSorted)
{
  SmpiFactorTable t("100:2;10:3", "x");
  EXPECT_EQ(t.lookup(5), 1.0);
  EXPECT_EQ(t.lookup(50), 3.0);
  EXPECT_EQ(t.lookup(500), 2.0);
}

TEST(SmpiFactorTable, SingleValueWhereSimGridTakesOne)
{
  SmpiFactorTable t("0.97", "x", true); // SimGrid 3.34+: one factor for every size
  EXPECT_EQ(t.lookup(0), 0.97);
  EXPECT_EQ(t.lookup(1e9), 0.97);
  EXPECT_THROW(SmpiFactorTable("0.97", "x"), haec::InputError); // 3.32 takes tables only
  EXPECT_THROW(SmpiFactorTable("x", "x", true), haec::InputError);
  SmpiFactorTable table("10:3", "x", true); // a table is read as without the flag
  EXPECT_EQ(table.lookup(5), 1.0);
  EXPECT_EQ(table.lookup(50), 3.0);
}

TEST(SmpiFactorTable, MalformedTablesAreInputErrors)
{
  EXPECT_THROW(SmpiFactorTable("12", "x"), haec::InputError);
  EXPECT_THROW(SmpiFactorTable("0:0.5;12", "x", true), haec::InputError);
  EXPECT_THROW(SmpiFactorTable("a:1", "x"), haec::InputError);
  EXPECT_THROW(SmpiFactorTable("1:b", "x"), haec::InputError);
}
