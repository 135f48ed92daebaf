// Rank placement shared by `haec map` and `haec run`: a strategy, an explicit mapping file or a
// hostfile, turned into rank -> node, plus the communication matrix when one is known.
#pragma once
#include "dispatch.hpp"
#include "link_cost.hpp"
#include "mapping.hpp"
#include "mapping_metrics.hpp"
#include "platform_source.hpp"
#include "target.hpp"

#include <optional>
#include <string>
#include <vector>

namespace haec::cli {

struct PlacementOptions {
  std::string strategy = "xyz";  // --map
  std::string hostfile;          // --hostfile (SMPI format: one host per line, or host:count)
  std::string mapping_file;      // --mapping-file (HAEC-SIM / MapLib format)
  std::string traffic;           // --traffic: traffic_matrix.csv, MapLib CSV matrix or TI trace
  std::string objective = "time"; // --objective of auto: time or energy
  uint64_t seed = 1;             // --seed
  int ranks     = 0;             // -np
  bool oversubscribe = false;    // --oversubscribe: a node may hold more ranks than its cores
};

struct Placement {
  std::string strategy;               // what the mapping file's first line says
  std::vector<int> assignment;        // rank -> node index
  std::optional<mapping::CommMatrix> matrix;
  std::optional<mapping::AutoReport> auto_report; // --map auto
  double seconds = 0;                 // wall time the strategy took
};

// The mapping view of a resolved platform (it refers to platform.topology: keep both alive).
mapping::Target make_target(const ResolvedPlatform& platform);

// Throws InputError for unknown strategies, unknown hosts, too few slots (a node given more ranks
// than its cores, unless oversubscribe), unreadable files.
Placement place_ranks(const ResolvedPlatform& platform, const PlacementOptions& opt);

// Reads a traffic_matrix.csv, a MapLib CSV matrix (*.size.csv / *.count.csv) or a TI trace,
// decided by the file's first line.
mapping::CommMatrix read_comm_matrix(const std::string& path);

// Metrics as JSON text and as a short printable block (seed 004's counts, as in summary.json).
std::string metrics_json(const mapping::Metrics& m);
std::string metrics_text(const mapping::Metrics& m);
// Everything `haec map` writes into metrics.json (docs/guide/mappings.md).
std::string mapping_metrics_json(const Placement& p, const PlacementOptions& opt, const ResolvedPlatform& platform,
                                 const mapping::MappingMetrics* metrics, const mapping::ModelCosts* costs);
std::string mapping_metrics_text(const mapping::MappingMetrics& m);

} // namespace haec::cli
