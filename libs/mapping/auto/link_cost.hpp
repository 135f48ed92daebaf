// What traffic costs on a route under the HAEC link model: the DOR transfer time of Eq. (1)-(2)
// (plugins/link/model) and the dynamic link energy (plugins/power/model). Pure C++.
#pragma once
#include "mapping.hpp"
#include "target.hpp"

#include "dor_pnc_model.hpp"

#include <vector>

namespace haec::mapping {

// haec/power/link-wattage's default (plugins/power/README.md): optical 2.1 W idle, 24.3 W busy;
// wireless 0 W idle, 2.124 W busy; other link types 0 W.
inline const char* kDefaultLinkWattage = "optical:2.1:24.3,wireless:0:2.124";

class LinkCost {
public:
  // Throws InputError when the target has no link classes (SimGrid XML platforms).
  explicit LinkCost(const Target& target, const std::string& link_wattage = kDefaultLinkWattage);

  // Seconds for `messages` messages of `bytes` bytes in all on a route of this profile: each message
  // of the mean size takes T(m, route), uncontended. Every hop's bandwidth is reduced by its packet
  // loss probability 1 - (1 - BER)^(8 s_p) (expected retransmissions; loss-free DOR otherwise). Same
  // node (empty profile): the model's (d_s + d_r) / 2 per message.
  double time(uint64_t messages, uint64_t bytes, const RouteProfile& profile) const;
  // Joules: bytes x 8 x sum over hops of the link's energy per bit.
  double energy(uint64_t bytes, const RouteProfile& profile) const;

private:
  link::DorPncModel model_;
  std::vector<link::Hop> class_hop_;
  std::vector<double> joules_per_bit_;
};

struct ModelCosts {
  double time_s   = 0; // sum over rank pairs of the uncontended DOR time of their messages
  double energy_j = 0; // dynamic link energy of all bytes
};
// Messages unknown (a MapLib .size.csv alone): one message per communicating pair; bytes unknown:
// every message is an empty one (one packet).
ModelCosts model_costs(const CommMatrix& matrix, const std::vector<int>& assignment, const Target& target);

} // namespace haec::mapping
