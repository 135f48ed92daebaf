// SimGrid's entry point for platforms given as a shared library (`smpirun -platform
// libhaec_suite.so`): builds the platform described by --cfg=haec/platform:FILE.json.
#include "atomic_file.hpp"
#include "core_parts.hpp"
#include "haec_zone.hpp"
#include "input_error.hpp"
#include "json_input.hpp"
#include "platform_spec.hpp"
#include "run.hpp"
#include "topology.hpp"
#include "units.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include <memory>

namespace {
std::unique_ptr<haec::platform::Topology> topology; // routes are computed from it during the run
// haec/routing and haec/routing/seed, read as the platform is built (the core's settings are
// validated later, by which time the zone already routes).
haec::platform::RoutingChoice routing_choice()
{
  haec::platform::RoutingChoice c;
  const std::string policy = simgrid::config::get_value<std::string>("haec/routing");
  c.policy = haec::platform::parse_routing_policy(policy, "--cfg=haec/routing:" + policy);
  const std::string seed = simgrid::config::get_value<std::string>("haec/routing/seed");
  c.seed = static_cast<uint64_t>(haec::units::parse_integer(seed, "--cfg=haec/routing/seed:" + seed));
  return c;
}
} // namespace

const haec::platform::Topology* haec::core::parts::loaded_topology()
{
  return topology.get();
}

extern "C" void load_platform(const simgrid::s4u::Engine&)
{
  try {
    // Read before the core's settings exist (they are read once the platform is created).
    const std::string path = simgrid::config::get_value<std::string>("haec/platform");
    if (path.empty())
      throw haec::InputError("-platform libhaec_suite.so", "no platform description given",
                             "add --cfg=haec/platform:platform.json (written by `haec platform`)");
    const nlohmann::json json =
        haec::parse_json_input(haec::read_file(path, "haec/platform"), path, "regenerate it with `haec platform`", false);
    topology = std::make_unique<haec::platform::Topology>(haec::platform::from_json(json, path));
    haec::platform::build_in_simgrid(*topology, {}, routing_choice());
  } catch (const std::exception& e) {
    haec::core::reject_setting(e.what());
  }
  // SimGrid fires this at the end of an XML platform only; .so platforms must do it themselves,
  // or the engine (presolve), the tracing and every plugin waiting for it never start.
  simgrid::s4u::Engine::on_platform_created();
}
