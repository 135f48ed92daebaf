// `haec platform`: turn a spec string into platform.json (what `haec run` and smpirun load), and
// describe it.
#include "atomic_file.hpp"
#include "fat_tree.hpp"
#include "commands.hpp"
#include "platform_spec.hpp"
#include "topology.hpp"
#include "units.hpp"

#include <cstdio>
#include <map>

namespace haec::cli {

namespace {

// SimGrid builds the switches and cables: say how many per level, and their bandwidth.
void describe_fat_tree(const platform::PlatformSpec& spec)
{
  const auto& ft = spec.fat_tree;
  for (int l = 1; l <= ft.levels; ++l) {
    const long long below = l == 1 ? platform::fat_tree_nodes(ft) : platform::fat_tree_switches(ft, l - 1);
    std::printf("  level %d: %lld switches, %lld simplex links below them, %s B/s\n", l, platform::fat_tree_switches(ft, l),
                2 * below * ft.up[l - 1] * ft.parallel[l - 1],
                units::exact(platform::fat_tree_level_bandwidth(ft, spec.link_types[0].bandwidth, l)).c_str());
  }
}

} // namespace

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
      "mesh or torus (AxBxC, Gemini-like links), cluster (N: taurus-like nodes on one switch),\n"
      "fat-tree (L;D1,..;U1,..;P1,..: SimGrid's fat tree, levels; down, up and parallel links per level;\n"
      "  quote it: ';' ends a shell command) or hierarchical (SxBxR: S switches per board, B boards per\n"
      "  rack, R racks, each group fully connected; one node per switch). Keys:\n"
      "  reduce=R (fat-tree: each level R % less bandwidth than the one below, 0 <= R < 100);\n"
      "  l3=N (hierarchical: parallel level-3 links per rack pair), indirect=N (hierarchical: N extra\n"
      "  routes through other racks, for haec run --routing), l1-bw/-lat/-ber, l2-.., l3-..;\n"
      "  board=torus|mesh, wireless=aligned|full, optical-bw/-lat/-ber, wireless-bw/-lat/-ber (haec-box);\n"
      "  link-bw, link-lat, link-ber (mesh, torus, cluster, fat-tree); cores=N; speed=1Gf or speeds=2.3Gf/2.2Gf/...;\n"
      "  loopback-bw, loopback-lat; preset=ciorba2014 (haec-box as in Ciorba et al. 2014: mesh boards, aligned wireless,\n"
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
      if (topo.spec().kind != platform::Kind::FatTree)
        std::printf("  %-9s %zu simplex links, %s B/s, latency %s s, BER %s\n", t.name.c_str(), per_type[t.name],
                  units::exact(t.bandwidth).c_str(), units::exact(t.latency).c_str(), units::exact(t.ber).c_str());
    if (topo.spec().kind == platform::Kind::FatTree)
      describe_fat_tree(topo.spec());
    if (topo.spec().indirect_routes > 0)
      std::printf("  routes between racks: the shortest ones and %d through other racks (haec run --routing)\n",
                  topo.spec().indirect_routes);
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
