// The counter annotation of TI traces (libs/trace/counter_annotation.hpp): written, read back
// exactly, and refused with one line when malformed.
#include "counter_annotation.hpp"
#include "input_error_support.hpp"
#include "replay_reader.hpp"

#include <gtest/gtest.h>

using haec::trace::CounterSample;
using haec::trace::format_counter_annotation;
using haec::trace::parse_counter_annotation;
using haec::trace::replay_fields;

namespace {

std::optional<CounterSample> parse(const std::string& line)
{
  return parse_counter_annotation(replay_fields(line), "t.txt:3");
}

std::string error_of(const std::string& line)
{
  return haec::test::input_error_of([&] { parse(line); });
}

} // namespace

TEST(CounterAnnotation, WrittenThenReadGivesTheSameDoubles)
{
  const CounterSample sample{{"PAPI_TOT_INS", "perf::CYCLES:u=0"}, {1234567890123.0, 0.1}};
  const std::string line = format_counter_annotation(7, sample);
  EXPECT_EQ(line, "# 7 haec_counters PAPI_TOT_INS=1234567890123 perf::CYCLES:u=0=0.10000000000000001");
  auto back = parse(line);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->events, sample.events);
  EXPECT_EQ(back->counts, sample.counts); // bit for bit
  EXPECT_EQ(haec::trace::counter_annotation_rank(replay_fields(line)), 7);
}

TEST(CounterAnnotation, OtherCommentsAndActionsAreNotAnnotations)
{
  EXPECT_FALSE(parse("# a comment").has_value());
  EXPECT_FALSE(parse("0 compute 1e9").has_value());
  EXPECT_FALSE(parse("#0 haec_counters A=1").has_value()); // '#' must be a field of its own
}

TEST(CounterAnnotation, MalformedLinesAreOneLineErrors)
{
  EXPECT_NE(error_of("# 0 haec_counters").find("t.txt:3: counter annotation lists no event"), std::string::npos);
  EXPECT_NE(error_of("# x haec_counters A=1").find("names rank 'x'"), std::string::npos);
  EXPECT_NE(error_of("# 0 haec_counters A").find("'A' is not EVENT=COUNT"), std::string::npos);
  EXPECT_NE(error_of("# 0 haec_counters =5").find("is not EVENT=COUNT"), std::string::npos);
  EXPECT_NE(error_of("# 0 haec_counters A=-1").find("not a finite number >= 0"), std::string::npos);
  EXPECT_NE(error_of("# 0 haec_counters A=inf").find("count of A"), std::string::npos);
  EXPECT_NE(error_of("# 0 haec_counters A=1x").find("count of A"), std::string::npos);
  EXPECT_NE(error_of("# 0 haec_counters A=1 A=2").find("counter A is given twice"), std::string::npos);
}
