// Every strategy behind one call: haec_mapping_model's, Scotch (haec_mapping_scotch) and auto.
// What `haec map` and `haec run --map` use.
#pragma once
#include "mapping.hpp"
#include "target.hpp"

#include <string>
#include <vector>

namespace haec::mapping {

// rank -> node index. Throws haec::InputError as map_ranks does.
std::vector<int> map_strategy(const Request& req, const Target& target);

// auto (auto_mapper.cpp): what it did, for `haec map`'s report.
struct AutoReport {
  std::string start;                 // strategy whose mapping the refinement started from
  std::vector<std::string> skipped;  // candidates that declined (size limits), with the reason
  uint64_t start_hop_bytes = 0, hop_bytes = 0;
  double start_cost = 0, cost = 0;   // link-model seconds or joules (0 without link classes)
  int passes     = 0; // refinement passes in all
  int kicks_kept = 0; // iterated-local-search rounds that improved the mapping
};
std::vector<int> map_auto(const Request& req, const Target& target, AutoReport* report = nullptr);

} // namespace haec::mapping
