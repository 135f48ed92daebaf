// map_strategy: Scotch and auto here, everything else in haec_mapping_model.
#include "dispatch.hpp"
#include "mapping_detail.hpp"
#include "scotch_mapper.hpp"

namespace haec::mapping {

std::vector<int> map_strategy(const Request& req, const Target& target)
{
  Request r = req;
  r.target  = &target;
  detail::check_request(r, target.nodes.size());
  if (r.strategy == Strategy::Scotch)
    return map_scotch(*r.matrix, target, r.seed);
  if (r.strategy == Strategy::Auto)
    return map_auto(r, target);
  return map_ranks(r, target.nodes);
}

} // namespace haec::mapping
