// `haec map`: place ranks on a platform's nodes and write the SMPI hostfile, the HAEC-SIM / MapLib
// mapping file and metrics.json (hop-bytes, dilation, link load, wireless share, seed 004's counts,
// link-model time and energy when --traffic is given). All three files or none: they are staged
// in a temporary directory next to --out and moved in place only when complete.
#include "atomic_file.hpp"
#include "commands.hpp"
#include "input_error.hpp"
#include "placement.hpp"
#include "platform_source.hpp"
#include "run_output.hpp"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <unistd.h>

namespace haec::cli {
namespace {

namespace fs = std::filesystem;

struct MapOptions {
  std::string platform = "haec-box:4x4x4";
  PlacementOptions place;
  std::string out = ".";
  bool force      = false;
};

struct Outputs {
  std::string hostfile, mapping, metrics;
};

Outputs compute(const MapOptions& o, const ResolvedPlatform& platform, const Placement& p)
{
  Outputs out;
  out.hostfile = mapping::write_hostfile(p.assignment, platform.nodes);
  out.mapping  = mapping::write_mapping_file(p.strategy, p.assignment, platform.nodes);
  std::optional<mapping::MappingMetrics> metrics;
  std::optional<mapping::ModelCosts> costs;
  if (p.matrix) {
    const mapping::Target target = make_target(platform);
    metrics                      = mapping::compute_mapping_metrics(*p.matrix, p.assignment, target);
    if (!target.link_classes.empty())
      costs = mapping::model_costs(*p.matrix, p.assignment, target);
    std::printf("%s\n", mapping_metrics_text(*metrics).c_str());
  }
  out.metrics = mapping_metrics_json(p, o.place, platform, metrics ? &*metrics : nullptr, costs ? &*costs : nullptr);
  return out;
}

// Writes the three files into `dir` (created if missing) through a staging directory, so that a
// failure leaves neither half-written files nor a new directory behind.
void write_outputs(const std::string& dir, const Outputs& out)
{
  fs::path target = fs::absolute(dir).lexically_normal();
  if (!target.has_filename()) // "dir/" or "."
    target = target.parent_path();
  const fs::path stage  = target.string() + ".tmp-map-" + std::to_string(::getpid());
  std::error_code ec;
  fs::remove_all(stage, ec);
  if (fs::create_directories(stage, ec); ec)
    throw InputError("--out " + dir, "cannot create a directory in " + target.parent_path().string() + " (" +
                                         ec.message() + ")",
                     "choose a writable location");
  try {
    write_file_atomic((stage / "hostfile").string(), out.hostfile);
    write_file_atomic((stage / "mapping.txt").string(), out.mapping);
    write_file_atomic((stage / "metrics.json").string(), out.metrics);
    fs::create_directories(target);
    for (const char* name : {"hostfile", "mapping.txt", "metrics.json"})
      fs::rename(stage / name, target / name);
    fs::remove_all(stage);
  } catch (...) {
    fs::remove_all(stage, ec);
    throw;
  }
}

} // namespace

void add_map_command(CLI::App& app)
{
  auto opt  = std::make_shared<MapOptions>();
  auto* cmd = app.add_subcommand("map", "Place ranks on nodes: write hostfile, mapping.txt and metrics.json "
                                        "(hop-bytes, dilation, link load, IePLC/IaNLC/IeNLC, ...) for --traffic");
  cmd->add_option("--platform", opt->platform, "Platform spec, platform.json or SimGrid XML")->capture_default_str();
  cmd->add_option("--map,--strategy", opt->place.strategy, "Strategy: " + mapping::strategy_list())->capture_default_str();
  cmd->add_option("--mapping-file", opt->place.mapping_file, "Evaluate an existing HAEC-SIM / MapLib mapping file instead");
  cmd->add_option("--traffic", opt->place.traffic,
                  "Communication matrix: traffic_matrix.csv of an earlier run, MapLib *.size.csv / *.count.csv, or a TI trace");
  cmd->add_option("--seed", opt->place.seed, "Seed of random, bokhari, scotch and auto")->capture_default_str();
  cmd->add_option("--objective", opt->place.objective, "auto's second objective after hop-bytes: time or energy")
      ->capture_default_str();
  cmd->add_option("-n,--np", opt->place.ranks, "Number of ranks")->required();
  cmd->add_flag("--oversubscribe", opt->place.oversubscribe, "Allow more ranks on a node than it has cores");
  cmd->add_option("-o,--out", opt->out, "Directory receiving hostfile, mapping.txt and metrics.json")->capture_default_str();
  cmd->add_flag("--force", opt->force, "Replace hostfile, mapping.txt and metrics.json if --out holds them already");
  cmd->callback([opt] {
    check_map_out(opt->out, opt->force); // as haec run: nothing is overwritten without --force
    ResolvedPlatform platform = resolve_platform(opt->platform);
    Placement p               = place_ranks(platform, opt->place);
    const Outputs out         = compute(*opt, platform, p);
    write_outputs(opt->out, out);
    std::printf("mapping %s of %d ranks on %s in %.3f s: wrote %s/hostfile, mapping.txt and metrics.json\n",
                p.strategy.c_str(), opt->place.ranks, platform.text.c_str(), p.seconds, opt->out.c_str());
  });
}

} // namespace haec::cli
