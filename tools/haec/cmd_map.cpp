// `haec map`: place ranks on a platform's nodes and write the SMPI hostfile and the HAEC-SIM
// mapping file; print the mapping metrics when the communication matrix is known.
#include "atomic_file.hpp"
#include "commands.hpp"
#include "input_error.hpp"
#include "placement.hpp"
#include "platform_source.hpp"
#include "run_output.hpp"

#include <cstdio>
#include <filesystem>

namespace haec::cli {

void add_map_command(CLI::App& app)
{
  struct Options {
    std::string platform = "haec-box:4x4x4";
    PlacementOptions place;
    std::string out = ".";
    bool force      = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("map", "Place ranks on nodes: write hostfile and mapping.txt, print the metrics "
                                        "(IePLC, IaNLC, IeNLC avg/min/max, total hops) when --traffic is given");
  cmd->add_option("--platform", opt->platform, "Platform spec, platform.json or SimGrid XML")->capture_default_str();
  cmd->add_option("--map,--strategy", opt->place.strategy, "xyz, block-xyz, random or min-md")->capture_default_str();
  cmd->add_option("--mapping-file", opt->place.mapping_file, "Evaluate an existing HAEC-SIM mapping file instead");
  cmd->add_option("--traffic", opt->place.traffic, "traffic_matrix.csv of an earlier run or a TI trace");
  cmd->add_option("--seed", opt->place.seed, "Seed of the random strategy")->capture_default_str();
  cmd->add_option("-n,--np", opt->place.ranks, "Number of ranks")->required();
  cmd->add_option("-o,--out", opt->out, "Directory receiving hostfile and mapping.txt")->capture_default_str();
  cmd->add_flag("--force", opt->force, "Replace hostfile and mapping.txt if --out holds them already");
  cmd->callback([opt] {
    check_map_out(opt->out, opt->force); // as haec run: nothing is overwritten without --force
    ResolvedPlatform platform = resolve_platform(opt->platform);
    Placement p               = place_ranks(platform, opt->place);
    make_directory("--out " + opt->out, opt->out);
    write_file_atomic(opt->out + "/hostfile", mapping::write_hostfile(p.assignment, platform.nodes));
    write_file_atomic(opt->out + "/mapping.txt", mapping::write_mapping_file(p.strategy, p.assignment, platform.nodes));
    std::printf("mapping %s of %d ranks on %s: wrote %s/hostfile and %s/mapping.txt\n", p.strategy.c_str(),
                opt->place.ranks, platform.text.c_str(), opt->out.c_str(), opt->out.c_str());
    if (p.matrix) {
      auto m = mapping::compute_metrics(*p.matrix, p.assignment, [&](int a, int b) { return platform.hops(a, b); });
      std::printf("%s\n", metrics_text(m).c_str());
    }
  });
}

} // namespace haec::cli
