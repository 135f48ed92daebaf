// `haec platform`: turn a spec string into platform.json (what `haec run` and smpirun load), and
// describe it.
#include "atomic_file.hpp"
#include "commands.hpp"
#include "platform_spec.hpp"
#include "topology.hpp"
#include "units.hpp"

#include <cstdio>
#include <map>

namespace haec::cli {

void add_platform_command(CLI::App& app)
{
  struct Options {
    std::string spec;
    std::string out;
    bool hosts = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "platform",
      "Generate a platform description (platform.json) from a spec and describe it.\n"
      "SPEC is KIND:DIMS[,key=value...] with KIND haec-box (XxYxZ: optical board links, wireless between boards),\n"
      "mesh or torus (AxBxC, Gemini-like links) or cluster (N: taurus-like nodes on one switch). Keys:\n"
      "  board=torus|mesh, wireless=aligned|full, optical-bw/-lat/-ber, wireless-bw/-lat/-ber (haec-box);\n"
      "  link-bw, link-lat, link-ber (mesh, torus, cluster); cores=N; speed=1Gf or speeds=2.3Gf/2.2Gf/...;\n"
      "  loopback-bw, loopback-lat; preset=seed004 (haec-box as seed 004: mesh boards, aligned wireless,\n"
      "  250 Gbit/s and 1 us on every link); preset=taurus or taurus-node (cluster);\n"
      "  wattage=idle:epsilon:all_cores/... (node watts per pstate, fastest first), wattage-off=W.\n"
      "Every kind has a default node power profile with 12 pstates (docs/MODELS.md, Default node power);\n"
      "speed= or speeds= with another pstate count removes it (give wattage= to use --power).\n"
      "Use it with: smpirun -platform build/lib/libhaec_suite.so --cfg=haec/platform:platform.json ...");
  cmd->add_option("spec", opt->spec, "Platform spec, e.g. haec-box:3x3x3,board=mesh")->required();
  cmd->add_option("-o,--out", opt->out, "Write platform.json here (default: describe only)");
  cmd->add_flag("--hosts", opt->hosts, "List the host names with their coordinates");
  cmd->callback([opt] {
    platform::Topology topo(platform::parse_spec(opt->spec));
    if (!opt->out.empty())
      write_file_atomic(opt->out, platform::to_json(topo.spec()).dump(2) + "\n");
    std::map<std::string, size_t> per_type;
    for (auto const& l : topo.links())
      ++per_type[topo.spec().link_types[l.type].name];
    std::printf("platform %s: %s, %u nodes of %d cores\n", opt->spec.c_str(), platform::kind_name(topo.spec().kind).c_str(),
                topo.num_nodes(), topo.spec().node.cores);
    for (auto const& t : topo.spec().link_types)
      std::printf("  %-9s %zu simplex links, %s B/s, latency %s s, BER %s\n", t.name.c_str(), per_type[t.name],
                  units::exact(t.bandwidth).c_str(), units::exact(t.latency).c_str(), units::exact(t.ber).c_str());
    if (opt->hosts)
      for (uint32_t n = 0; n < topo.num_nodes(); ++n) {
        auto c = topo.coords(n);
        std::printf("%s %d %d %d\n", topo.host_name(n).c_str(), c[0], c[1], c[2]);
      }
    if (!opt->out.empty())
      std::printf("wrote %s\n", opt->out.c_str());
  });
}

} // namespace haec::cli
