// Rank placement shared by `haec map` and `haec run`: a strategy, an explicit mapping file or a
// hostfile, turned into rank -> node, plus the communication matrix when one is known.
#pragma once
#include "mapping.hpp"
#include "platform_source.hpp"

#include <optional>
#include <string>
#include <vector>

namespace haec::cli {

struct PlacementOptions {
  std::string strategy = "xyz";  // --map
  std::string hostfile;          // --hostfile (SMPI format: one host per line, or host:count)
  std::string mapping_file;      // --mapping-file (HAEC-SIM format)
  std::string traffic;           // --traffic: traffic_matrix.csv or a TI trace (min-md, metrics)
  uint64_t seed = 1;             // --seed
  int ranks     = 0;             // -np
};

struct Placement {
  std::string strategy;               // what the mapping file's first line says
  std::vector<int> assignment;        // rank -> node index
  std::optional<mapping::CommMatrix> matrix;
};

// Throws InputError for unknown strategies, unknown hosts, too few slots, unreadable files.
Placement place_ranks(const ResolvedPlatform& platform, const PlacementOptions& opt);

// Reads a traffic_matrix.csv or a TI trace (decided by the file's first line).
mapping::CommMatrix read_comm_matrix(const std::string& path);

// Metrics as JSON text and as a short printable block.
std::string metrics_json(const mapping::Metrics& m);
std::string metrics_text(const mapping::Metrics& m);

} // namespace haec::cli
