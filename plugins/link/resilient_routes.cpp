#include "resilient_routes.hpp"

#include "input_error.hpp"
#include "units.hpp"

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <sstream>

namespace haec::link {

ResilientRoutes::ResilientRoutes(const resilient::Setup& setup)
    : setup_(setup)
    , model_(setup_.protocol, setup_.params)
    , rng_(setup_.seed)
{
}

const ResilientRoutes::Loss& ResilientRoutes::loss_of(const simgrid::s4u::Link* link)
{
  auto it = loss_.find(link);
  if (it != loss_.end())
    return it->second;
  Loss loss{setup_.loss, setup_.loss};
  if (setup_.loss < 0) { // the link's own bit error rate; SimGrid's XML links have none: error-free
    double ber = 0;
    if (const char* text = link->get_property("haec:ber"))
      ber = units::parse_number(text, "link " + link->get_name() + " property haec:ber");
    loss = {resilient::loss_from_ber(ber, setup_.params.packet_size), resilient::loss_from_ber(ber, model_.ack_size())};
  }
  return loss_.emplace(link, loss).first->second;
}

double ResilientRoutes::transfer_time(uint64_t payload, const simgrid::s4u::Host* src, const simgrid::s4u::Host* dst,
                                      const std::vector<simgrid::s4u::Link*>& links, double& serial)
{
  auto it = routes_.find({src, dst});
  if (it != routes_.end() && it->second.links != links) { // another of the pair's routes (haec/routing)
    routes_.erase(it);
    it = routes_.end();
  }
  if (it == routes_.end()) {
    hops_.clear();
    if (src != dst)
      for (const simgrid::s4u::Link* l : links) {
        const Loss& loss = loss_of(l);
        hops_.push_back({l->get_latency(), l->get_bandwidth(), loss.data, loss.ack});
      }
    try {
      it = routes_.emplace(std::make_pair(src, dst), Reduced{links, model_.summarize(hops_.data(), hops_.size())}).first;
    } catch (const InputError& e) {
      throw InputError("route " + src->get_name() + " -> " + dst->get_name(), e.what(), "");
    }
  }
  const auto& route = it->second.summary;
  serial            = model_.bottleneck_serialisation(payload, route);
  return setup_.sampled ? model_.sampled_time(payload, route, rng_) : model_.expected_time(payload, route);
}

std::string ResilientRoutes::summary_json() const
{
  const auto& p = setup_.params;
  std::ostringstream j;
  j << "{\"preset\": \"" << setup_.preset << "\", \"mode\": \"" << (setup_.sampled ? "sampled" : "expected")
    << "\", \"loss\": " << (setup_.loss < 0 ? std::string("\"from link BER\"") : units::exact(setup_.loss))
    << ", \"seed\": " << setup_.seed << ", \"units\": \""
    << (p.units == Units::ByteSlip ? "byte-slip" : "physical") << "\", \"window\": " << p.window
    << ", \"packet_size\": " << units::exact(p.packet_size) << ", \"window_id\": " << units::exact(p.window_id)
    << ", \"packet_id\": " << units::exact(p.packet_id) << ", \"timestamp\": " << units::exact(p.timestamp)
    << ", \"signature\": " << units::exact(p.signature) << ", \"ff_symbol\": " << units::exact(p.ff_symbol)
    << ", \"payload\": " << units::exact(model_.payload())
    << ", \"ack_size\": " << units::exact(model_.ack_size()) << ", \"d_out\": " << units::exact(p.d_out)
    << ", \"d_in\": " << units::exact(p.d_in) << ", \"d_p\": " << units::exact(p.d_p)
    << ", \"d_sign\": " << units::exact(p.d_sign) << ", \"d_verify\": " << units::exact(p.d_verify)
    << ", \"d_mpi\": " << units::exact(p.d_mpi) << ", \"rto_margin\": " << units::exact(p.rto_margin)
    << ", \"ncd_target\": " << units::exact(p.ncd_target) << ", \"d_s\": " << units::exact(model_.d_s())
    << ", \"d_r\": " << units::exact(model_.d_r()) << ", \"d_a\": " << units::exact(model_.d_a()) << "}";
  return j.str();
}

} // namespace haec::link
