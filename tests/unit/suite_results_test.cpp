// The run record's tables, on a hand-built run.
#include "results.hpp"
#include "run_record.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <unistd.h>
#include <fstream>
#include <sstream>

using namespace haec::core;

static Transfer make(uint32_t s, uint32_t d, uint64_t bytes, int hops, double start, double end, double model)
{
  Transfer t;
  t.src_rank = static_cast<int>(s);
  t.dst_rank = static_cast<int>(d);
  t.src_node = s;
  t.dst_node = d;
  t.bytes    = bytes;
  t.hops     = hops;
  t.start    = start;
  t.end      = end;
  t.model_time = model;
  return t;
}

TEST(RunRecord, AggregatesBySizeAndHops)
{
  RunRecord r(true);
  EXPECT_EQ(r.node_index("a"), 0u);
  EXPECT_EQ(r.node_index("b"), 1u);
  EXPECT_EQ(r.node_index("a"), 0u);
  r.add_transfer(make(0, 1, 100, 2, 0.0, 1.0, 1.0));
  r.add_transfer(make(1, 0, 100, 2, 1.0, 4.0, 1.0));
  r.add_transfer(make(0, 0, 8, 0, 0.0, 0.5, 0.5));
  EXPECT_EQ(r.transfers(), 3u);
  EXPECT_EQ(r.bytes(), 208u);
  EXPECT_EQ(r.transfer_hops(), 4u);
  EXPECT_EQ(r.msg_sizes_csv(), "bytes,count,mean_transfer_s,min_transfer_s,max_transfer_s,mean_model_s\n"
                               "8,1,0.5,0.5,0.5,0.5\n"
                               "100,2,2,1,3,1\n");
  EXPECT_EQ(r.hops_csv(), "hops,transfers\n0,1\n2,2\ntransfer_hops,4\n");
  EXPECT_EQ(r.messages_csv(), "src_rank,dst_rank,src_node,dst_node,bytes,hops,start,end,model_time\n"
                              "0,1,a,b,100,2,0,1,1\n"
                              "1,0,b,a,100,2,1,4,1\n"
                              "0,0,a,a,8,0,0,0.5,0.5\n");
}

TEST(RunRecord, TrafficMatrixCountsLogicalMessages)
{
  RunRecord r(false);
  r.add_logical_message(2, 0, 10);
  r.add_logical_message(0, 1, 5);
  r.add_logical_message(2, 0, 30);
  EXPECT_EQ(r.logical_messages(), 3u);
  EXPECT_EQ(r.traffic_matrix_csv(), "src_rank,dst_rank,messages,bytes\n0,1,1,5\n2,0,2,40\n");
}

TEST(Results, WritesSummaryAndTables)
{
  auto dir = std::filesystem::temp_directory_path() / ("haec_results_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  RunRecord r(true);
  r.node_index("a");
  r.add_transfer(make(0, 0, 8, 0, 0.0, 0.5, -1));
  std::vector<std::pair<std::string, std::string>> extra = {{"link_model", "\"dor\""}, {"x", "{\"y\": 1}"}};
  Results results;
  add_run_record(results, r, RecordOutput{true, false});
  results.add_summary("simgrid_version", "\"3.32\"");
  for (auto const& [key, value] : extra)
    results.add_summary(key, value);
  nlohmann::ordered_json head;
  head["makespan_s"] = 2.5;
  results.write(dir.string(), head);
  std::ifstream in(dir / "summary.json");
  auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["makespan_s"], 2.5);
  EXPECT_EQ(j["messages"], 1);
  EXPECT_EQ(j["bytes"], 8);
  EXPECT_EQ(j["link_model"], "dor");
  EXPECT_EQ(j["simgrid_version"], "3.32");
  EXPECT_EQ(j["x"]["y"], 1);
  EXPECT_TRUE(std::filesystem::exists(dir / "messages.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir / "hops.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir / "traffic_matrix.csv")); // no logical message seen
  std::filesystem::remove_all(dir);
}

TEST(Results, CountersCsvSumsAndRates)
{
  CounterRow a{0, "MPI_Init@trace>*", 2, {3e9, 2e6}, 0.5};
  CounterRow zero{1, "", 1, {5, 0}, 0}; // a computation of no duration: its rates are not numbers we have
  EXPECT_EQ(counters_csv({"PAPI_TOT_INS", "PAPI_L3_TCM"}, {a, zero}),
            "rank,region,computations,busy_s,\"PAPI_TOT_INS\",\"PAPI_L3_TCM\",\"PAPI_TOT_INS_per_s\","
            "\"PAPI_L3_TCM_per_s\"\n"
            "0,\"MPI_Init@trace>*\",2,0.5,3e+09,2e+06,6e+09,4e+06\n"
            "1,\"\",1,0,5,0,,\n");
}
