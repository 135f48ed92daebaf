// Region correction factors (calibration/model/region_factors): parsing the recorder's rank files,
// aligning a real and an SMPI record, the ratio SimGrid divides by, the factor file and its check.
#include "input_error.hpp"
#include "region_factors.hpp"

#include <gtest/gtest.h>

#include <functional>

using namespace haec::calibration;

namespace {

const char* kHeader = "rank,region,count,total_s\n";

RegionRecord record(const std::string& name, const std::vector<std::string>& files)
{
  RegionRecord r;
  r.name = name;
  for (size_t i = 0; i < files.size(); ++i)
    add_rank_file(kHeader + files[i], name + "/rank" + std::to_string(i) + ".csv", r);
  return r;
}

std::string error_of(const std::function<void()>& f)
{
  try {
    f();
  } catch (const haec::InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(RegionFactors, SumsRanksAndComputesTheRatioSimGridDividesBy)
{
  auto real = record("real", {"0,a.c:10:a.c:20,5,0.010\n0,a.c:20:a.c:10,4,0.002\n",
                              "1,a.c:10:a.c:20,5,0.030\n1,a.c:20:a.c:10,4,0.002\n"});
  auto smpi = record("smpi", {"0,a.c:10:a.c:20,5,0.005\n0,a.c:20:a.c:10,4,0.0000005\n",
                              "1,a.c:10:a.c:20,5,0.015\n1,a.c:20:a.c:10,4,0.0000002\n"});
  EXPECT_EQ(real.regions.at("a.c:10:a.c:20").count, 10u);
  EXPECT_DOUBLE_EQ(real.regions.at("a.c:10:a.c:20").total, 0.040);
  auto f = fit_region_factors(real, smpi, 1e-6);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].region, "a.c:10:a.c:20");
  // SMPI predicted 0.020 s for 0.040 s real: SimGrid divides measured time by 0.5, doubling it.
  EXPECT_DOUBLE_EQ(f[0].ratio, 0.5);
  EXPECT_TRUE(f[0].written);
  // 0.7 us under SMPI: below the 1 us threshold, listed but not corrected.
  EXPECT_FALSE(f[1].written);
  const std::string text = factor_file_text(f);
  EXPECT_EQ(text, "\"location\",\"ratio\"\n\"a.c:10:a.c:20\",0.5\n");
  auto parsed = parse_factor_file(text, "f.csv");
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(parsed[0].first, "a.c:10:a.c:20");
  EXPECT_EQ(parsed[0].second, 0.5);
  EXPECT_NO_THROW(check_factor_file(text, "f.csv", smpi));
}

TEST(RegionFactors, RecordsOfDifferentRunsAreRejected)
{
  auto real  = record("real", {"0,a.c:10:a.c:20,5,0.01\n"});
  auto other = record("smpi", {"0,a.c:10:a.c:20,6,0.01\n"});
  EXPECT_NE(error_of([&] { fit_region_factors(real, other, 0); }).find("ran 5 times for real and 6 times under SMPI"),
            std::string::npos);
  auto extra = record("smpi", {"0,a.c:10:a.c:20,5,0.01\n0,a.c:20:a.c:30,1,0.01\n"});
  EXPECT_NE(error_of([&] { fit_region_factors(real, extra, 0); }).find("region a.c:20:a.c:30 never occurs in real"),
            std::string::npos);
  auto two = record("smpi", {"0,a.c:10:a.c:20,5,0.01\n", "1,a.c:10:a.c:20,5,0.01\n"});
  EXPECT_NE(error_of([&] { fit_region_factors(real, two, 0); }).find("1 ranks against 2"), std::string::npos);
}

TEST(RegionFactors, BadRankFilesNameFileAndLine)
{
  RegionRecord r;
  r.name = "d";
  EXPECT_NE(error_of([&] { add_rank_file("", "d/rank0.csv", r); }).find("d/rank0.csv: empty file"), std::string::npos);
  EXPECT_NE(error_of([&] { add_rank_file("rank,x\n", "d/rank0.csv", r); }).find("d/rank0.csv:1: header"),
            std::string::npos);
  EXPECT_NE(error_of([&] { add_rank_file(std::string(kHeader) + "0,a.c:1:a.c:2,3", "d/rank0.csv", r); })
                .find("truncated"),
            std::string::npos);
  EXPECT_NE(error_of([&] { add_rank_file(std::string(kHeader) + "0,a.c:1:a.c:2,3\n", "d/rank0.csv", r); })
                .find("d/rank0.csv:2: expected 4 fields"),
            std::string::npos);
  EXPECT_NE(error_of([&] { add_rank_file(std::string(kHeader) + "0,a.c:1:a.c,3,0.1\n", "d/rank0.csv", r); })
                .find("is not prevfile:prevline:file:line"),
            std::string::npos);
  EXPECT_NE(error_of([&] { add_rank_file(std::string(kHeader) + "0,a.c:1:a.c:2,x,0.1\n", "d/rank0.csv", r); })
                .find("count 'x' is not a number"),
            std::string::npos);
  EXPECT_NE(error_of([&] { add_rank_file(std::string(kHeader) + "0,a.c:1:a.c:2,1,-0.1\n", "d/rank0.csv", r); })
                .find("total_s >= 0"),
            std::string::npos);
  // Found by fuzzing: numbers beyond an int rank or a 2^53 count were converted anyway (UB).
  EXPECT_NE(error_of([&] { add_rank_file(std::string(kHeader) + "6e32,a.c:1:a.c:2,1,0.1\n", "d/rank0.csv", r); })
                .find("rank '6e32' is not a rank number"),
            std::string::npos);
  EXPECT_NE(error_of([&] { add_rank_file(std::string(kHeader) + "0,a.c:1:a.c:2,1e300,0.1\n", "d/rank0.csv", r); })
                .find("count must be a whole number in [1, 2^53]"),
            std::string::npos);
  RegionRecord twice;
  twice.name = "d";
  add_rank_file(std::string(kHeader) + "0,a.c:1:a.c:2,1,0.1\n", "d/rank0.csv", twice);
  EXPECT_NE(error_of([&] { add_rank_file(std::string(kHeader) + "0,a.c:1:a.c:2,1,0.1\n", "d/rank0b.csv", twice); })
                .find("rank 0 appears in two files"),
            std::string::npos);
}

TEST(RegionFactors, FactorFileCheck)
{
  auto smpi = record("smpi", {"0,a.c:10:a.c:20,5,0.005\n"});
  const std::string bad = "\"location\",\"ratio\"\n\"a.c:10:a.c:20\",0.5\n\"b.c:1:b.c:2\",2\n";
  EXPECT_NE(error_of([&] { check_factor_file(bad, "f.csv", smpi); }).find("f.csv:3: region b.c:1:b.c:2 never occurs in smpi"),
            std::string::npos);
  EXPECT_NE(error_of([&] { parse_factor_file("h\n\"a.c:1:a.c:2\",0\n", "f.csv"); }).find("f.csv:2: ratio must be > 0"),
            std::string::npos);
  EXPECT_NE(error_of([&] { parse_factor_file("h\nnocomma\n", "f.csv"); }).find("f.csv:2: expected"), std::string::npos);
  EXPECT_NE(error_of([&] { parse_factor_file("", "f.csv"); }).find("empty"), std::string::npos);
}
