// The options of `haec run` (cmd_run.cpp) and the haec settings they make (run_settings.cpp).
#pragma once
#include "placement.hpp"
#include "settings.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace haec::cli {

struct RunOptions {
  std::string platform = "haec-box:4x4x4";
  PlacementOptions place;
  bool np_given   = false;
  std::string seed = "1";       // --seed (checked, then place.seed)
  std::string link = "none";
  std::string routing = "static";   // --routing (haec/routing)
  std::string routing_seed;         // --routing-seed (haec/routing/seed), "" when not given
  bool messages    = false;
  std::string snapshot_period;  // --snapshot-period T (haec/snapshot-period)
  bool snapshot_given = false;
  bool events      = false;     // --events: events.csv
  bool power = false, power_series = false; // --power, --power-series
  std::string workloads;        // --workloads FILE (implies --power)
  std::string power_model;      // --power-model linear|counters (implies --power)
  std::string counter_coefficients; // --counter-coefficients FILE (with --power-model counters)
  std::string governor;         // --governor NAME (haec/dvfs/governor, implies --power)
  std::string iterations = "auto"; // --iterations MODE (haec/iterations)
  bool iterations_given  = false;
  std::string balance;          // --balance greedy|refine (haec/balance/strategy)
  std::string every = "10";     // --every K (haec/balance/every)
  bool every_given  = false;
  std::string replay;
  std::string out;
  bool force = false;
  bool keep_failed = false; // --keep-failed: a failed run keeps its directory, marked failed
  std::vector<std::string> cfg;
  std::string host_speed = "1Gf";
  std::string allocator  = "auto"; // --allocator auto|system|jemalloc
  bool quiet             = false;
  std::string counters;            // --counters EVENT,...: PAPI events per computation burst (emulation)
  std::vector<std::string> app; // program and its arguments
};

// Every haec setting the run's options and --cfg values give, validated by the same functions
// the suite uses (core/model/core_settings.hpp). Throws InputError; `host_properties` are the
// haec:* properties the platform's hosts carry (a haec:governor counts as a governor).
settings::Values run_settings(const RunOptions& o, const std::set<std::string>& host_properties);

// Registers every option of `haec run` on `run` (run_cli_options.cpp), storing into `o`.
void add_run_options(CLI::App* run, RunOptions& o);

// The --cfg values that are not haec settings, "KEY:VALUE", checked by SimGrid itself.
std::vector<std::string> simgrid_settings(const RunOptions& o);

} // namespace haec::cli
