// Every figure `haec map` reports for a mapping (docs/guide/mappings.md): seed 004's message counts plus
// hop-bytes, dilation, link load and the wireless share. Pure: cmd_map and the run record both call
// compute_mapping_metrics. A figure the inputs cannot give is absent, never 0: without
// target.hops (an XML platform too large for its route table) no hop figure is given.
#pragma once
#include "mapping.hpp"
#include "target.hpp"

#include <optional>

namespace haec::mapping {

struct MappingMetrics {
  Metrics counts;                          // IePLC, IaNLC, IeNLC, message hops (counts.has_messages)
  std::optional<uint64_t> total_bytes;     // bytes of all point-to-point messages (bytes known)
  std::optional<uint64_t> hop_bytes;       // sum over (src, dst) of bytes x hops(node(src), node(dst))
  std::optional<double> avg_dilation;      // hop_bytes / total_bytes: mean hops per byte (bytes > 0)
  std::optional<int> max_dilation;         // most hops between two ranks that communicate
  std::optional<uint64_t> max_link_load;   // bytes over the busiest directed link, DOR routes
  std::optional<double> wireless_share;    // bytes x wireless hops / bytes x hops (platforms with wireless)
  int nodes_used         = 0;              // nodes holding at least one rank
  int max_ranks_per_node = 0;
};

// Throws InputError when the assignment does not fit the matrix or the target.
MappingMetrics compute_mapping_metrics(const CommMatrix& matrix, const std::vector<int>& assignment,
                                       const Target& target);

} // namespace haec::mapping
