// SimGrid adapter of the HAEC link models: gives the core the time of each transfer as factors
// of SimGrid's CM02 model, so that an uncontended message of m bytes over a route takes exactly
// the model's T(m, route), while concurrent messages still share links through SimGrid's flow
// model. The core observes and records the transfers (core/transfers.cpp).
//
// How T is mapped onto CM02: SimGrid charges latency_sum * lat_factor, then streams `size` bytes at
// min_bandwidth * bw_factor. We give the bandwidth phase the time the model spends serialising all
// packets on the slowest hop (S) and the latency phase the rest (T - S): contention then slows the
// part of the transfer that really occupies the links.
#include "dor_pnc_model.hpp"
#include "input_error.hpp"
#include "link_settings.hpp"
#include "resilient_routes.hpp"
#include "run.hpp"
#include "units.hpp"

#include <simgrid/s4u.hpp>

#include <cmath>
#include <optional>
#include <sstream>

namespace sg4 = simgrid::s4u;

namespace haec::link {
namespace {

class LinkPlugin {
public:
  void start();

private:
  core::TransferTiming timing(double size, uint64_t payload, const sg4::Host* src, const sg4::Host* dst,
                              const std::vector<sg4::Link*>& links);

  LinkConfig config_;
  std::optional<ResilientRoutes> resilient_; // DOR_r, PNC_r, NCD_r
  std::vector<Hop> hops_;                    // reused per message
};

LinkPlugin& plugin()
{
  static LinkPlugin instance;
  return instance;
}

std::string params_json(const DorPncModel& m, const LinkConfig& c)
{
  const auto& p = m.params();
  std::ostringstream j;
  j << "{\"packet_size\": " << units::exact(p.packet_size) << ", \"d_out\": " << units::exact(p.d_out)
    << ", \"d_in\": " << units::exact(p.d_in) << ", \"d_p\": " << units::exact(p.d_p) << ", \"window\": " << p.window
    << ", \"window_id\": " << units::exact(p.window_id) << ", \"ff_symbol\": " << units::exact(p.ff_symbol)
    << ", \"units\": \"" << c.units << "\", \"partial_window\": \"" << c.partial_window
    << "\", \"smpi_envelope\": " << core::smpi_envelope() << ", \"payload\": " << units::exact(m.payload())
    << ", \"d_s\": " << units::exact(m.sender_delay()) << ", \"d_r\": " << units::exact(m.receiver_delay())
    << ", \"d_a\": " << units::exact(m.ack_delay()) << "}";
  return j.str();
}

void LinkPlugin::start()
{
  config_ = core::configure(link_config);
  if (config_.resilient)
    resilient_.emplace(*config_.resilient);
  core::add_results_writer([this](core::Results& r) {
    r.add_summary("link_model", "\"" + config_.model + "\"");
    if (config_.dor_pnc)
      r.add_summary("link_params", params_json(*config_.dor_pnc, config_));
    if (resilient_)
      r.add_summary("link_params", resilient_->summary_json());
  });
  if (config_.dor_pnc || resilient_)
    core::set_transfer_model([this](double size, uint64_t payload, const sg4::Host* src, const sg4::Host* dst,
                                    const std::vector<sg4::Link*>& links) {
      return timing(size, payload, src, dst, links);
    });
}

core::TransferTiming LinkPlugin::timing(double size, uint64_t payload, const sg4::Host* src, const sg4::Host* dst,
                                        const std::vector<sg4::Link*>& links)
{
  core::TransferTiming t;
  hops_.clear();
  double latency_sum = 0, min_bw = -1;
  for (const sg4::Link* l : links) {
    latency_sum += l->get_latency();
    if (min_bw < 0 || l->get_bandwidth() < min_bw)
      min_bw = l->get_bandwidth();
    if (src != dst && config_.dor_pnc)
      hops_.push_back({l->get_latency(), l->get_bandwidth()});
  }
  double serial = 0;
  if (resilient_) {
    try {
      t.total = resilient_->transfer_time(payload, src, dst, links, serial);
    } catch (const InputError& e) { // settings that make a route hopeless: bad input (exit 2)
      core::reject_setting(e.what());
    } catch (const std::exception& e) {
      core::fail_run(e.what());
    }
  } else {
    t.total = config_.dor_pnc->transfer_time(payload, hops_.data(), hops_.size());
    serial  = config_.dor_pnc->bottleneck_serialisation(payload, hops_.data(), hops_.size());
  }
  if (size > 0 && min_bw > 0) {
    if (serial <= 0) // same node: a negligible bandwidth phase, the rest is latency
      serial = size / (min_bw * 1e6);
    t.bw_factor = size / (min_bw * serial);
  } else {
    serial = 0;
  }
  if (!(latency_sum > 0))
    core::fail_run("route " + src->get_name() + " -> " + dst->get_name() +
                   ": its links have zero total latency, so the link model cannot set the transfer time; give the "
                   "platform's links (and loopback) a positive latency");
  if (!std::isfinite(t.total))
    core::fail_run("route " + src->get_name() + " -> " + dst->get_name() +
                   ": the link model's transfer time overflows; check the platform's latencies and the haec/link "
                   "parameters");
  t.lat_factor = (t.total - serial) / latency_sum;
  return t;
}

struct Registration {
  Registration() { core::register_plugin("link", 10, [] { plugin().start(); }); }
} registration;

} // namespace
} // namespace haec::link
