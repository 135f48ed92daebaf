// The TI check of counter annotations (libs/trace/ti_counter_check.hpp through ti_check.hpp): a
// trace annotated throughout passes; missing, misplaced, mixed or malformed counters are refused
// naming file:line.
#include "input_error.hpp"
#include "ti_builder.hpp"
#include "ti_check.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using haec::trace::check_ti_rank_text;

namespace {

const char* kAnnotated = "0 init\n"
                         "# 0 haec_counters PAPI_TOT_INS=1000 PAPI_L3_TCM=4\n"
                         "0 compute 5000\n"
                         "0 barrier\n"
                         "# 0 haec_counters PAPI_TOT_INS=20 PAPI_L3_TCM=0\n"
                         "0 compute 100\n"
                         "0 finalize\n";

std::string error_of(const std::string& text, int rank = 0)
{
  try {
    check_ti_rank_text(text, "r.txt", rank, 1);
  } catch (const haec::InputError& e) {
    return e.what();
  }
  return "";
}

std::string replace(std::string s, const std::string& from, const std::string& to)
{
  s.replace(s.find(from), from.size(), to);
  return s;
}

} // namespace

TEST(TraceCounterCheck, AnnotatedTracePasses)
{
  EXPECT_EQ(error_of(kAnnotated), "");
  EXPECT_EQ(error_of("0 init\n# a comment\n0 compute 5\n0 finalize\n"), ""); // no counters at all
}

TEST(TraceCounterCheck, SomeComputeLinesWithoutCounters)
{
  const std::string t = replace(kAnnotated, "# 0 haec_counters PAPI_TOT_INS=20 PAPI_L3_TCM=0\n", "");
  EXPECT_EQ(error_of(t), "r.txt:5: counters missing from part of the run: rank 0's computation has none, while r.txt:3 "
                         "has counters; record the trace again with --counters, or remove every haec_counters line");
}

TEST(TraceCounterCheck, AnnotationNotFollowedByCompute)
{
  EXPECT_EQ(error_of(replace(kAnnotated, "0 compute 5000\n0 barrier\n", "0 barrier\n0 compute 5000\n")),
            "r.txt:2: counter annotation not followed by a compute line of rank 0 (r.txt:3 is not one); write each "
            "annotation right before the compute it belongs to");
  EXPECT_NE(error_of("0 init\n0 finalize\n# 0 haec_counters A=1\n").find("r.txt:3: counter annotation not followed by "
                                                                         "a compute line (end of file)"),
            std::string::npos);
  EXPECT_NE(error_of("0 init\n# 0 haec_counters A=1\n# 0 haec_counters A=1\n0 compute 1\n0 finalize\n").find("r.txt:2:"),
            std::string::npos);
}

TEST(TraceCounterCheck, DifferentEventSets)
{
  const std::string t = replace(kAnnotated, "PAPI_TOT_INS=20 PAPI_L3_TCM=0", "PAPI_TOT_INS=20");
  EXPECT_EQ(error_of(t).rfind("r.txt:5: counts events PAPI_TOT_INS where the run's first burst counted PAPI_TOT_INS "
                              "PAPI_L3_TCM (r.txt:2)",
                              0),
            0u)
      << error_of(t);
  // The same events in another order are the same set.
  EXPECT_EQ(error_of(replace(kAnnotated, "PAPI_TOT_INS=20 PAPI_L3_TCM=0", "PAPI_L3_TCM=0 PAPI_TOT_INS=20")), "");
}

TEST(TraceCounterCheck, MalformedAndMisplacedAnnotations)
{
  EXPECT_EQ(error_of(replace(kAnnotated, "PAPI_L3_TCM=4", "PAPI_L3_TCM=-4")).rfind("r.txt:2: count of PAPI_L3_TCM", 0), 0u);
  EXPECT_EQ(error_of(replace(kAnnotated, "PAPI_L3_TCM=4", "PAPI_L3_TCM")).rfind("r.txt:2: counter field", 0), 0u);
  EXPECT_EQ(error_of(replace(kAnnotated, "# 0 haec_counters PAPI_TOT_INS=1000", "# 1 haec_counters PAPI_TOT_INS=1000"))
                .rfind("r.txt:2: counter annotation of rank 1 in the trace of rank 0", 0),
            0u);
}

TEST(TraceCounterCheck, RankWithoutCountersInAListedTrace)
{
  const fs::path dir = fs::temp_directory_path() / ("haec_counter_check_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "rank-0.txt") << kAnnotated;
  std::ofstream(dir / "rank-1.txt") << "1 init\n1 compute 7\n1 barrier\n1 finalize\n";
  std::ofstream(dir / "trace.txt") << "rank-0.txt\nrank-1.txt\n";
  std::string error;
  try {
    haec::trace::check_ti_trace((dir / "trace.txt").string(), 2);
  } catch (const haec::InputError& e) {
    error = e.what();
  }
  fs::remove_all(dir);
  // Two absolute paths make the line long: it is cut in the problem's middle (text::error_line),
  // both file:line places stay.
  EXPECT_NE(error.find("rank-1.txt:2: counters missing from part of the run: rank 1's comput"), std::string::npos)
      << error;
  EXPECT_NE(error.find("rank-0.txt:3 has counters"), std::string::npos) << error;
  EXPECT_LE(haec::text::display_length(error), haec::text::kMessageBudget) << error;
}

// The OTF2 import's counters (libs/trace/ti_builder.hpp): Score-P's accumulated values read before
// each enter and leave become each computation's difference.
TEST(TiBuilderCounters, DifferencesBetweenLeaveAndNextEnter)
{
  haec::trace::TiBuilder b(1, 1e9);
  b.counter_events({"PAPI_TOT_INS"});
  b.counter_values(0, 1e-3, {1000});
  b.enter(0, 1e-3, "MPI_Send");
  b.counter_values(0, 1.5e-3, {1100}); // inside the call: not a computation's
  b.leave(0, 1.5e-3);
  b.counter_values(0, 2e-3, {1600});
  b.enter(0, 2e-3, "MPI_Barrier");
  b.leave(0, 2.5e-3); // no values here: the next computation cannot be priced
  EXPECT_EQ(b.text(0), "0 init\n# 0 haec_counters PAPI_TOT_INS=1000\n0 compute 1000000\n"
                       "# 0 haec_counters PAPI_TOT_INS=500\n0 compute 500000\n0 finalize\n");
  b.counter_values(0, 3e-3, {1700});
  EXPECT_THROW(b.enter(0, 3e-3, "MPI_Recv"), haec::InputError);
}

TEST(TiBuilderCounters, DecreasingOrAbsentValuesAreErrors)
{
  haec::trace::TiBuilder b(1, 1e9);
  b.counter_events({"PAPI_TOT_INS"});
  EXPECT_THROW(b.enter(0, 1e-3, "MPI_Send"), haec::InputError); // no value before the enter
  haec::trace::TiBuilder c(1, 1e9);
  c.counter_events({"PAPI_TOT_INS"});
  c.counter_values(0, 1e-3, {50});
  c.enter(0, 1e-3, "MPI_Send");
  c.counter_values(0, 2e-3, {60});
  c.leave(0, 2e-3);
  c.counter_values(0, 3e-3, {40});
  try {
    c.enter(0, 3e-3, "MPI_Recv");
    FAIL();
  } catch (const haec::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("counter PAPI_TOT_INS decreases before MPI_Recv (rank 0 at 0.003 s)"),
              std::string::npos) << e.what();
  }
}
