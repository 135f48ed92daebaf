// haec-simgrid-probe: the only part of the haec tool that loads SimGrid. SimGrid aborts on many bad
// inputs, so the tool runs this program (simgrid_child.cpp) and turns a failure into one line of
// its own; keeping SimGrid (and the libraries it pulls in) out of `haec` itself also keeps every
// haec command's start-up short.
//
//   haec-simgrid-probe platform FILE.xml [--cfg=KEY:VALUE ...]
//       per host "name x,y,z haec:prop,... power|none cores" ("-" for none), then a line "routes"
//       and per source host the number of links of SimGrid's route to every host (0 to itself),
//       for platforms of at most kRouteTableHosts hosts
//   haec-simgrid-probe settings [--cfg=KEY:VALUE ...]
//       SimGrid parses the settings and selects every collective from smpi/<collective>
// Exit 0 on success; else SimGrid's message on stderr and exit 1.
#include "platform_source.hpp"

#include <simgrid/s4u.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

extern "C" void smpi_init_options(); // smpi/smpi.h: declares smpirun's own settings (smpi/...)
namespace simgrid::smpi::colls {
void set_collectives(); // SimGrid 3.32 (exported): selects every collective from smpi/<collective>, dies on a bad name
}

namespace {

// Whether a host names its power: a profile, or the old SimGrid names (the power plugin explains those).
bool names_power(const simgrid::s4u::Host& host)
{
  for (const char* name : {"wattage_per_state", "haec:wattage_calibration", "watt_per_state", "watt_off"})
    if (host.get_property(name) != nullptr)
      return true;
  return false;
}

void print_hosts(const std::vector<simgrid::s4u::Host*>& hosts)
{
  for (auto* host : hosts) {
    const char* c = host->get_property("haec:coords");
    std::string props;
    if (auto* all = host->get_properties())
      for (auto const& [key, value] : *all)
        if (key.rfind("haec:", 0) == 0)
          props += (props.empty() ? "" : ",") + key;
    std::printf("%s %s %s %s %d\n", host->get_cname(), c && *c ? c : "-", props.empty() ? "-" : props.c_str(),
                names_power(*host) ? "power" : "none", host->get_core_count());
  }
}

void print_route_links(const std::vector<simgrid::s4u::Host*>& hosts)
{
  if (hosts.size() > haec::cli::kRouteTableHosts)
    return;
  std::printf("routes\n");
  std::vector<simgrid::s4u::Link*> links;
  for (auto* src : hosts) {
    for (auto* dst : hosts) {
      links.clear();
      if (src != dst)
        src->route_to(dst, links, nullptr);
      std::printf("%zu ", links.size());
    }
    std::printf("\n");
  }
}

int usage()
{
  std::fprintf(stderr, "usage: haec-simgrid-probe platform FILE.xml [--cfg=K:V ...] | settings [--cfg=K:V ...]\n");
  return 2;
}

} // namespace

int main(int argc, char** argv)
{
  const std::string what = argc > 1 ? argv[1] : "";
  const int first_cfg    = what == "platform" ? 3 : 2;
  if ((what != "platform" && what != "settings") || argc < first_cfg)
    return usage();
  std::vector<std::string> args = {"haec-simgrid-probe", "--log=root.thresh:error"};
  args.insert(args.end(), argv + first_cfg, argv + argc);
  std::vector<char*> engine_argv;
  for (auto& a : args)
    engine_argv.push_back(a.data());
  engine_argv.push_back(nullptr);
  int engine_argc = static_cast<int>(args.size());
  try {
    smpi_init_options(); // as smpirun's simulator does, so that smpi/... settings are known
    simgrid::s4u::Engine engine(&engine_argc, engine_argv.data());
    if (what == "settings") {
      simgrid::smpi::colls::set_collectives();
    } else {
      engine.load_platform(argv[2]);
      print_hosts(engine.get_all_hosts());
      print_route_links(engine.get_all_hosts());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::fflush(nullptr);
    return 1;
  }
  std::fflush(nullptr);
  return 0;
}
