// The command-line options of `haec run` (CLI11), declared in one place for the command itself
// and for check_run_arguments (campaigns check a run's arguments before starting it).
#include "input_error.hpp"
#include "mapping.hpp"
#include "run_options.hpp"

#include <CLI/CLI.hpp>

namespace haec::cli {

void add_run_options(CLI::App* run, RunOptions& o)
{
  run->add_option("--platform", o.platform,
                  "Platform: haec-box:XxYxZ, mesh:AxBxC, torus:AxBxC, cluster:N (with ,key=value options, see "
                  "`haec platform --help`), a platform.json or a SimGrid XML file")
      ->capture_default_str();
  run->add_option("--map", o.place.strategy, "Rank placement strategy: " + mapping::strategy_list())
      ->capture_default_str();
  run->add_option("--hostfile", o.place.hostfile, "SMPI hostfile to use instead of a strategy (host or host:count per line)");
  run->add_option("--mapping-file", o.place.mapping_file, "HAEC-SIM mapping file to use instead of a strategy");
  run->add_option("--traffic", o.place.traffic,
                  "Communication matrix for the communication-aware strategies and the mapping metrics: a "
                  "traffic_matrix.csv, a MapLib *.size.csv / *.count.csv or a TI trace");
  run->add_option("--seed", o.seed, "Seed of the random mapping (a non-negative integer)")->capture_default_str();
  run->add_option("--link", o.link, "Link model: none (SimGrid's own), dor or pnc (Ciorba et al. 2014, Eq. 1-2), dor_r, pnc_r or ncd_r (resilient, under packet loss)")
      ->capture_default_str();
  run->add_option("--routing", o.routing,
                  "Route of each message on hierarchical platforms (several shortest paths, indirect=N): static, "
                  "random, round-robin or adaptive")
      ->capture_default_str();
  run->add_option("--routing-seed", o.routing_seed, "Seed of --routing random (a non-negative integer; default 1)");
  run->add_flag("--messages", o.messages, "Write messages.csv: one line per network transfer");
  run->add_option("--snapshot-period", o.snapshot_period,
                  "Write snapshot_traffic.csv and snapshot_links.csv: the traffic matrix and link use per period "
                  "of simulated time (e.g. 1ms)");
  run->add_flag("--oversubscribe", o.place.oversubscribe,
                "Allow more ranks on a node than it has cores (they share its cores)");
  run->add_flag("--events", o.events,
                "Write events.csv: each rank's MPI call entries and exits with simulated times (PMPI layer or replay)");
  run->add_flag("--power", o.power,
                "Compute energy (haec/power): hosts.csv, links.csv and energy_j in summary.json (plugins/power/README.md)");
  run->add_flag("--power-series", o.power_series, "As --power, and write power.csv: each host's watts over time");
  run->add_option("--workloads", o.workloads,
                  "Workload phases: JSON file of power profiles per code region, rank or host (implies --power; "
                  "plugins/power/README.md)");
  run->add_option("--power-model", o.power_model,
                  "Host power model (implies --power): linear (default: busy cores) or counters (hardware counter "
                  "rates of each computation; plugins/power/README.md)");
  run->add_option("--counter-coefficients", o.counter_coefficients,
                  "Coefficients of --power-model counters (JSON; haec calibrate power --counters writes it)");
  run->add_option("--governor", o.governor,
                  "DVFS governor of every host (implies --power): performance, powersave, ondemand, conservative, "
                  "adagio, adagio-improved, lagrange, mix (plugins/dvfs/README.md)")
      ->each([](const std::string& v) { // an empty name is not "no governor"
        if (v.empty())
          throw InputError("--governor ''", "names no governor",
                           "give one of performance, powersave, ondemand, conservative, adagio, adagio-improved, "
                           "lagrange, mix, or leave --governor out");
      });
  run->add_option("--iterations", o.iterations,
                  "Iteration boundaries for DVFS and balancing: auto, marker, site:SITE, every:K:MPI_Function")
      ->capture_default_str();
  run->add_option("--balance", o.balance, "Migrate ranks between nodes: greedy or refine (plugins/balance/README.md)");
  run->add_option("--every", o.every, "Balance every K iterations (with --balance)")->capture_default_str();
  run->add_option("--replay", o.replay, "Replay this SimGrid time-independent trace instead of running a program");
  run->add_option("-n,--np", o.place.ranks, "Number of MPI ranks (default: from the trace when replaying)");
  run->add_option("--out", o.out, "Result directory (default results/<program>-<mapping>-<link>); must not exist");
  run->add_flag("--force", o.force, "Replace an existing result directory once the new run succeeded");
  run->add_flag("--keep-failed", o.keep_failed,
                "Keep the directory of a failed run (deadlock, crash), its summary.json marked \"status\": \"failed\"");
  // One value per --cfg: a vector option would otherwise swallow the "--" before the program and
  // hand the program's own options to haec (CLI11 2.1).
  run->add_option("--cfg", o.cfg, "Extra SimGrid/haec setting KEY:VALUE, e.g. haec/link/window:8 (repeatable; "
                                  "`haec settings` lists the haec ones)")
      ->allow_extra_args(false);
  run->add_option("--host-speed", o.host_speed,
                  "Speed of this machine for emulation (smpi/host-speed): 1 s of real CPU counts as this many flops")
      ->capture_default_str();
  run->add_option("--allocator", o.allocator,
                  "malloc of a replay's simulator: jemalloc (faster, the same results), system (glibc's) or auto "
                  "(jemalloc when installed; emulation always uses the system's)")
      ->capture_default_str();
  run->add_flag("-q,--quiet", o.quiet,
                "Do not print the summary table, nor the progress line a run at a terminal shows on stderr once it "
                "has taken 2 s (simulated time, transfers, share of the trace replayed, time left)");
  run->add_option("--counters", o.counters,
                  "PAPI events to count over every computation burst of every rank (emulation), e.g. "
                  "PAPI_TOT_INS,PAPI_L3_TCM (libs/trace/README.md, Counters)");
  run->add_option("app", o.app, "Program and its arguments (after --)");
}

} // namespace haec::cli
