// The one place where the suite's code differs between the SimGrid versions it builds against
// (3.32, Debian 12's, to 4.1; tested on 3.32 and 4.1). Every other file calls these and never
// tests a SimGrid version itself. Public SimGrid API only.
//
// The changes, with the release that made them (SimGrid's ChangeLog):
//   3.34  signals per activity class (Exec::on_completion), Resource::on_state_change ->
//         on_onoff, Link::get_usage -> get_load, the factor callbacks on the root netzone
//         (NetworkModelIntf gone), settings renamed (surf/precision -> precision/timing,
//         smpi/bw-factor -> network/bandwidth-factor, smpi/lat-factor -> network/latency-factor)
//   3.35  smpi_trace_set_call_location takes the call's name (calibration/regions, a C file)
//   4.0   NetZoneImpl::create_host/create_link -> add_host/add_link, NetZone::add_netzone_fatTree
//         (create_fatTree_zone deprecated), Engine::add_actor (Actor::create deprecated)
//   4.1   Host::add_actor; the program is dlopened without RTLD_DEEPBIND (pmpi/README.md)
#pragma once
#include <xbt/base.h> // simgrid/version.h needs it first (3.32)
#include <simgrid/version.h>

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/Model.hpp>
#include <simgrid/s4u.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#define HAEC_SIMGRID_AT_LEAST(major, minor) (SIMGRID_VERSION >= 100UL * (100UL * (major) + (minor)))

#if !HAEC_SIMGRID_AT_LEAST(3, 34)
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#endif

namespace haec::simgrid_compat {

namespace sg4 = simgrid::s4u;

// "SimGrid 4.1.0": the version of the headers the suite was compiled with.
inline std::string version_text()
{
  return std::to_string(SIMGRID_VERSION_MAJOR) + "." + std::to_string(SIMGRID_VERSION_MINOR) + "." +
         std::to_string(SIMGRID_VERSION_PATCH);
}

// ---- settings whose name changed (the old name still works in 3.34+, with a message each time) ----
#if HAEC_SIMGRID_AT_LEAST(3, 34)
inline constexpr const char* kPrecisionTiming = "precision/timing";
inline constexpr const char* kBandwidthFactor = "network/bandwidth-factor";
inline constexpr const char* kLatencyFactor   = "network/latency-factor";
#else
inline constexpr const char* kPrecisionTiming = "surf/precision";
inline constexpr const char* kBandwidthFactor = "smpi/bw-factor";
inline constexpr const char* kLatencyFactor   = "smpi/lat-factor";
#endif

// The name this SimGrid gives a setting that a user or a script may spell the other way
// ("surf/precision" is "precision/timing" on 4.1, and the reverse on 3.32); other keys unchanged.
// 3.32's network/bandwidth-factor and network/latency-factor are CM02's settings, not SMPI's
// tables: they keep their name.
inline std::string current_setting_name(std::string_view key)
{
#if HAEC_SIMGRID_AT_LEAST(3, 34)
  static constexpr std::pair<std::string_view, std::string_view> kRenamed[] = {
      {"surf/precision", "precision/timing"},
      {"smpi/bw-factor", "network/bandwidth-factor"},
      {"smpi/lat-factor", "network/latency-factor"},
  };
#else
  static constexpr std::pair<std::string_view, std::string_view> kRenamed[] = {{"precision/timing", "surf/precision"}};
#endif
  for (auto const& [from, to] : kRenamed)
    if (key == from)
      return std::string(to);
  return std::string(key);
}

// ---- signals ----
// Every computation's end (an Exec's completion), as an Activity.
inline void on_exec_completion(const std::function<void(const sg4::Activity&)>& cb)
{
#if HAEC_SIMGRID_AT_LEAST(3, 34)
  sg4::Exec::on_completion_cb([cb](const sg4::Exec& e) { cb(e); });
#else
  sg4::Activity::on_completion_cb(cb); // every kind of activity: callers keep their own started Execs
#endif
}

inline void on_host_onoff(const std::function<void(const sg4::Host&)>& cb)
{
#if HAEC_SIMGRID_AT_LEAST(3, 34)
  sg4::Host::on_onoff_cb(cb);
#else
  sg4::Host::on_state_change_cb(cb);
#endif
}

inline void on_link_onoff(const std::function<void(const sg4::Link&)>& cb)
{
#if HAEC_SIMGRID_AT_LEAST(3, 34)
  sg4::Link::on_onoff_cb(cb);
#else
  sg4::Link::on_state_change_cb(cb);
#endif
}

// ---- network ----
using FactorCallback = std::function<double(double size, const sg4::Host* src, const sg4::Host* dst,
                                            const std::vector<sg4::Link*>& links,
                                            const std::unordered_set<sg4::NetZone*>& zones)>;

// The network model's bandwidth and latency factors of every transfer (SimGrid asks for them once
// per transfer, bandwidth first, after it created the transfer's action).
inline void set_network_factor_callbacks(const FactorCallback& bandwidth, const FactorCallback& latency)
{
  const sg4::NetZone* root = sg4::Engine::get_instance()->get_netzone_root();
#if HAEC_SIMGRID_AT_LEAST(3, 34)
  root->set_bandwidth_factor_cb(bandwidth);
  root->set_latency_factor_cb(latency);
#else
  root->get_network_model()->set_bw_factor_cb(bandwidth);
  root->get_network_model()->set_lat_factor_cb(latency);
#endif
}

// The network model as a resource model (its started and failed actions), nullptr when none is
// found. 3.34+ declares the network model's class only in SimGrid's own sources: it is the model
// named "Network_<model>" (Network_SMPI, Network_CM02, ...).
inline simgrid::kernel::resource::Model* network_model()
{
#if HAEC_SIMGRID_AT_LEAST(3, 34)
  for (auto* m : sg4::Engine::get_instance()->get_all_models())
    if (m->get_name().rfind("Network_", 0) == 0)
      return m;
  return nullptr;
#else
  return dynamic_cast<simgrid::kernel::resource::Model*>(
      sg4::Engine::get_instance()->get_netzone_root()->get_network_model());
#endif
}

// The Action a NetworkAction is (Link::on_communication_state_change hands the latter, whose class
// SimGrid does not install: it derives from Action alone, its primary base, in every version).
// transfers.cpp only compares the address with actions it found in network_model()'s sets.
inline simgrid::kernel::resource::Action& as_action(simgrid::kernel::resource::NetworkAction& action)
{
  return reinterpret_cast<simgrid::kernel::resource::Action&>(action);
}

// The two hosts of a network action, where SimGrid tells them (a patched SimGrid,
// third_party_patches/simgrid-4.1: s4u::Link::get_communication_hosts); elsewhere transfers.cpp
// learns them from the factor callbacks and never calls this.
#ifdef SIMGRID_HAVE_LINK_COMMUNICATION_HOSTS
inline constexpr bool kNetworkActionHosts = true;
inline std::pair<const sg4::Host*, const sg4::Host*> network_action_hosts(const simgrid::kernel::resource::Action& a)
{
  const auto [src, dst] = sg4::Link::get_communication_hosts(a);
  return {src, dst};
}
#else
inline constexpr bool kNetworkActionHosts = false;
inline std::pair<const sg4::Host*, const sg4::Host*> network_action_hosts(const simgrid::kernel::resource::Action&)
{
  return {nullptr, nullptr};
}
#endif

// Whether a factor setting may be a single value ("0.97") besides a table ("0:1;1420:0.8").
inline constexpr bool kFactorSingleValue = HAEC_SIMGRID_AT_LEAST(3, 34);

inline double link_load(const sg4::Link& link)
{
#if HAEC_SIMGRID_AT_LEAST(3, 34)
  return link.get_load();
#else
  return link.get_usage();
#endif
}

// ---- platforms ----
// A host and a link made by a netzone of our own (a NetZoneImpl subclass).
template <class Zone> sg4::Host* zone_add_host(Zone& zone, const std::string& name, const std::vector<double>& speeds)
{
#if HAEC_SIMGRID_AT_LEAST(4, 0)
  return zone.add_host(name, speeds);
#else
  return zone.create_host(name, speeds);
#endif
}

template <class Zone> sg4::Link* zone_add_link(Zone& zone, const std::string& name, const std::vector<double>& bandwidths)
{
#if HAEC_SIMGRID_AT_LEAST(4, 0)
  return zone.add_link(name, bandwidths);
#else
  return zone.create_link(name, bandwidths);
#endif
}

// SimGrid's fat-tree zone under the root, its leaves made by `host`, each with the loopback made by
// `loopback` (id: the leaf's number). The zone is not sealed.
struct FatTreeShape {
  unsigned levels;
  std::vector<unsigned> down, up, parallel;
  double bandwidth, latency;
  sg4::Link::SharingPolicy sharing;
};
using LeafCallback = std::function<sg4::Host*(sg4::NetZone* zone, unsigned long id)>;
using LoopbackCallback = std::function<sg4::Link*(sg4::NetZone* zone, unsigned long id)>;

inline sg4::NetZone* add_fat_tree_zone(const std::string& name, const FatTreeShape& s, const LeafCallback& host,
                                       const LoopbackCallback& loopback)
{
  sg4::NetZone* root = sg4::Engine::get_instance()->get_netzone_root();
#if HAEC_SIMGRID_AT_LEAST(4, 0)
  sg4::NetZone* zone =
      root->add_netzone_fatTree(name, s.levels, s.down, s.up, s.parallel, s.bandwidth, s.latency, s.sharing);
  zone->set_host_cb([host](sg4::NetZone* z, const std::vector<unsigned long>&, unsigned long id) { return host(z, id); });
  zone->set_loopback_cb(
      [loopback](sg4::NetZone* z, const std::vector<unsigned long>&, unsigned long id) { return loopback(z, id); });
  return zone;
#else
  const sg4::FatTreeParams params(s.levels, s.down, s.up, s.parallel);
  auto netpoint = [host](sg4::NetZone* z, const std::vector<unsigned long>&, unsigned long id) {
    return std::make_pair(host(z, id)->get_netpoint(), static_cast<simgrid::kernel::routing::NetPoint*>(nullptr));
  };
  auto lb = [loopback](sg4::NetZone* z, const std::vector<unsigned long>&, unsigned long id) { return loopback(z, id); };
  return sg4::create_fatTree_zone(name, root, params, {netpoint, lb, {}}, s.bandwidth, s.latency, s.sharing);
#endif
}

// How many times SimGrid's fat-tree zone fires each of its cables' Link::on_creation: 3.32 seals a
// cable when it creates it and again with the zone (measured); 4.0 builds the tree when the zone is
// sealed, and every host and link signals once (measured on 4.1).
inline constexpr int kFatTreeCableCreationSignals = HAEC_SIMGRID_AT_LEAST(4, 0) ? 1 : 2;

// ---- actors (tests and tools that run their own simulation) ----
inline sg4::ActorPtr add_actor(const std::string& name, sg4::Host* host, const std::function<void()>& code)
{
#if HAEC_SIMGRID_AT_LEAST(4, 1)
  return host->add_actor(name, code);
#elif HAEC_SIMGRID_AT_LEAST(4, 0)
  return sg4::Engine::get_instance()->add_actor(name, host, code);
#else
  return sg4::Actor::create(name, host, code);
#endif
}

} // namespace haec::simgrid_compat
