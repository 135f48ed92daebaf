// SimGrid side of the resilient link models (DOR_r, PNC_r, NCD_r): turns a route's links into
// model hops (latency, bandwidth, loss of a data packet and of an ack, from the link's haec:ber property or from haec/link/loss) and evaluates the message time in
// `expected` or `sampled` mode. The link plugin maps that time onto SimGrid's flow model.
#pragma once
#include "resilient_model.hpp"
#include "resilient_setup.hpp"

#include <simgrid/forward.h>

#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace haec::link {

class ResilientRoutes {
public:
  explicit ResilientRoutes(const resilient::Setup& setup);

  // T(m, route) including d_mpi; `serial` receives the part spent serialising on the slowest hop.
  // A host pair's route is reduced once, and again when its links change (haec/routing).
  double transfer_time(uint64_t payload, const simgrid::s4u::Host* src, const simgrid::s4u::Host* dst,
                       const std::vector<simgrid::s4u::Link*>& links, double& serial);
  std::string summary_json() const;

private:
  struct Loss {
    double data;
    double ack;
  };
  const Loss& loss_of(const simgrid::s4u::Link* link);

  resilient::Setup setup_;
  resilient::Model model_;
  std::mt19937_64 rng_;
  std::vector<resilient::Hop> hops_; // reused per new route
  std::unordered_map<const simgrid::s4u::Link*, Loss> loss_;
  struct PairHash {
    size_t operator()(const std::pair<const void*, const void*>& p) const
    {
      return std::hash<const void*>()(p.first) * 31 + std::hash<const void*>()(p.second);
    }
  };
  struct Reduced {
    std::vector<simgrid::s4u::Link*> links; // the route it was reduced from
    resilient::Model::RouteSummary summary;
  };
  std::unordered_map<std::pair<const void*, const void*>, Reduced, PairHash> routes_;
};

} // namespace haec::link
