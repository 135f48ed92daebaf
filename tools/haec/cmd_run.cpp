// `haec run`: validate everything, stage a result directory, run smpirun with the suite
// preloaded and a run description (run.json) the suite turns into summary.json, then move the
// directory into place. Any failure leaves no result directory behind. The suite writes every
// result file; this command never rewrites one.
#include "atomic_file.hpp"
#include "commands.hpp"
#include "counter_setup.hpp"
#include "input_error.hpp"
#include "install_paths.hpp"
#include "placement.hpp"
#include "platform_source.hpp"
#include "pmpi_binding.hpp"
#include "power_settings.hpp"
#include "process.hpp"
#include "route_policy.hpp"
#include "rank_capacity.hpp"
#include "run_failure.hpp"
#include "run_output.hpp"
#include "run_description.hpp"
#include "run_options.hpp"
#include "simgrid_child.hpp"
#include "simgrid_compat.hpp"
#include "smpi_factors.hpp"
#include "smpirun_words.hpp"
#include "trace_check_cache.hpp"
#include "units.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace haec::cli {
namespace {

// Reads the rank count of a TI trace: a list file names one file per rank.
int trace_ranks(const std::string& trace)
{
  std::istringstream in(read_file(trace, "--replay"));
  int n = 0;
  std::string line;
  bool list = true;
  while (std::getline(in, line)) {
    if (line.empty())
      continue;
    if (line.find(' ') != std::string::npos) // an action line: single-file trace
      list = false;
    ++n;
  }
  if (n == 0)
    throw InputError("--replay " + trace, "trace is empty", "record a trace with smpirun -trace-ti");
  if (!list)
    throw InputError("--replay " + trace, "cannot infer the number of ranks of a single-file trace", "give -np N");
  return n;
}

// A communication-aware strategy: it needs a matrix (an unknown name is place_ranks' error).
bool needs_matrix(const std::string& strategy)
{
  try {
    return mapping::needs_matrix(mapping::parse_strategy(strategy));
  } catch (const InputError&) {
    return false;
  }
}

// --allocator: the simulator's malloc in a replay. SimGrid allocates and frees several objects per
// message; jemalloc does that faster than glibc's malloc, with the same results (bench/scale/scale.py
// measures both). Only in a replay: in emulation the application's own allocations would change
// its measured computation times. Returns the library to preload, or "" for the system's malloc.
std::string allocator_library(const std::string& choice, bool replay)
{
  if (choice != "auto" && choice != "system" && choice != "jemalloc")
    throw InputError("--allocator " + choice, "unknown allocator", "use auto, system or jemalloc");
  if (choice == "system")
    return "";
  if (!replay) {
    if (choice == "jemalloc")
      throw InputError("--allocator jemalloc", "is for replays only (in emulation it would change the application's "
                       "measured computation times)", "drop --allocator, or replay a trace");
    return "";
  }
#ifdef HAEC_SANITIZER_PRELOAD
  if (choice == "jemalloc")
    throw InputError("--allocator jemalloc", "cannot be used by a sanitizer build (ASan has its own malloc)",
                     "use --allocator system");
  return "";
#else
  const std::string lib = HAEC_JEMALLOC;
  if (lib.empty() || ::access(lib.c_str(), R_OK) != 0) {
    if (choice == "jemalloc")
      throw InputError("--allocator jemalloc", "jemalloc is not installed", "install libjemalloc2 (scripts/install-deps.sh)");
    return "";
  }
  return lib;
#endif
}

// What the run needs once every option is checked.
struct Plan {
  std::string app_path, trace; // absolute: the program, or the trace to replay
  std::string allocator_lib;   // preloaded into a replay's simulator, "" for the system's malloc
  std::string counters;        // HAEC_COUNTERS for the simulator: events PAPI can count here, or ""
  ResolvedPlatform platform;
  Placement placement;
  fs::path out, stage;
};

// The numeric options CLI11 cannot check alone: a rank count, a seed, a host speed.
void check_numbers(RunOptions& o)
{
  if (o.np_given && o.place.ranks <= 0)
    throw InputError("-np " + std::to_string(o.place.ranks), "is not a positive rank count", "give -np N with N >= 1");
  o.place.seed = static_cast<uint64_t>(units::parse_integer(o.seed, "--seed " + o.seed));
  if (!(units::parse_speed(o.host_speed, "--host-speed") > 0))
    throw InputError("--host-speed " + o.host_speed, "is not a positive speed", "give this machine's speed, e.g. 1Gf");
}

// SimGrid 3.32 splits a --cfg value at its commas (each piece taken for another setting): our
// list-valued governor parameters go over with ';', which their parser reads alike.
std::string simgrid_cfg_text(std::string kv)
{
  const std::string key = "haec/dvfs/params:";
  if (kv.compare(0, key.size(), key) == 0)
    std::replace(kv.begin() + static_cast<long>(key.size()), kv.end(), ',', ';');
  return kv;
}

// SMPI's factor tables, read before the run: SimGrid itself crashes (SIGSEGV) on a malformed one
// such as smpi/bw-factor:1 on 3.32 or network/bandwidth-factor:0:0.5;12 on 4.1. Under either name.
void check_factor_tables(const RunOptions& o)
{
  for (const std::string old_name : {"smpi/bw-factor", "smpi/lat-factor"}) {
    const std::string name = simgrid_compat::current_setting_name(old_name);
    for (auto const& kv : o.cfg)
      for (const std::string& key : {old_name, name})
        if (kv.compare(0, key.size() + 1, key + ":") == 0) {
          core::SmpiFactorTable(kv.substr(key.size() + 1), "--cfg " + kv, simgrid_compat::kFactorSingleValue);
          break; // both names are the same on 3.32
        }
  }
}

// The program or the trace, checked; the rank count from the trace when -np is not given.
void resolve_inputs(RunOptions& o, Plan& p)
{
  if (!o.replay.empty() && !o.app.empty())
    throw InputError("--replay " + o.replay, "given together with a program", "replay a trace or run a program, not both");
  if (o.replay.empty() && o.app.empty())
    throw InputError("haec run", "nothing to run", "give a program after -- or a trace with --replay");
  if (!o.app.empty()) {
    std::string path = o.app[0].find('/') == std::string::npos ? "./" + o.app[0] : o.app[0];
    if (!fs::is_regular_file(path) || ::access(path.c_str(), X_OK) != 0)
      throw InputError("program " + o.app[0], "not found or not executable",
                       "build it with `haec cc` (or smpicc) and give its path");
    p.app_path = fs::absolute(path).string();
    checked_pmpi_binding(p.app_path); // a program built with haec cc whose calls would bypass the layer: refused
  }
  if (!o.replay.empty()) {
    p.trace = fs::absolute(o.replay).string();
    if (!o.np_given)
      o.place.ranks = trace_ranks(p.trace);
    else
      read_file(p.trace, "--replay");
    if (o.place.traffic.empty() && needs_matrix(o.place.strategy))
      o.place.traffic = p.trace; // the trace gives the mapping its matrix
  }
  if (!o.np_given && o.replay.empty())
    throw InputError("haec run", "the number of ranks is missing", "give -np N");
}

// Energy (--power, or an option implying it) on a host without a power profile would report 0 J
// for it: refused, naming the host and the fix.
void check_power_profiles(const RunOptions& o, const ResolvedPlatform& platform)
{
  // The counter model's power comes from its coefficients (only a governor still needs profiles).
  const bool counters = o.power_model == "counters";
  const char* option  = !o.governor.empty()               ? "--governor"
                        : counters                        ? nullptr
                        : !o.workloads.empty()            ? "--workloads"
                        : !o.power_model.empty()          ? "--power-model"
                        : o.power_series                  ? "--power-series"
                        : o.power                         ? "--power"
                                                          : nullptr;
  if (option == nullptr || platform.host_without_power.empty())
    return;
  throw InputError("--platform " + o.platform,
                   "host " + platform.host_without_power + " has no power profile, which " + option + " needs",
                   platform.topology ? "add wattage=idle:epsilon:all_cores/... (one per pstate) to the spec"
                                     : "give every host a wattage_per_state property (idle:epsilon:all_cores per pstate)");
}

// --counters: the events are opened here, on the machine the simulator will count on, so that a
// bad list stops the run before anything is written. Where PAPI cannot count them (no CPU PMU) the
// option would do nothing: that is an error too (exit 2; a campaign sweeping machines leaves it out).
std::string checked_counters(const RunOptions& o, const Plan& p)
{
  if (o.counters.empty())
    return "";
  if (!p.trace.empty())
    throw InputError("--counters " + o.counters, "counts an emulation's computations; a replay runs none",
                     "record the counters with haec trace record --counters; a trace carries them in its annotations");
  papi::Verdict v;
  const std::vector<std::string> events = papi::parse_event_list(o.counters, v);
  if (!events.empty())
    papi::open_event_set(events, o.counters, v);
  if (v.kind == papi::Verdict::BadInput || v.kind == papi::Verdict::CannotCount)
    throw InputError(v.input, v.problem, v.fix);
  return o.counters;
}

// A per-message routing policy needs a platform with several routes per pair (our hierarchical zone).
void check_routing(const RunOptions& o, const ResolvedPlatform& platform)
{
  const auto policy = platform::parse_routing_policy(o.routing, "--routing " + o.routing);
  if (policy == platform::RoutingPolicy::Static)
    return;
  if (!platform.topology)
    throw InputError("--routing " + o.routing, "the routes of a SimGrid XML platform are SimGrid's static routes",
                     "use --routing static, or a hierarchical: platform");
  platform::check_routing_supported(platform.topology->spec(), policy, "--routing " + o.routing);
}

// Everything checked before the disk is touched.
Plan prepare(RunOptions& o)
{
  check_numbers(o);
  check_factor_tables(o);
  Plan p;
  resolve_inputs(o, p);
  p.platform = resolve_platform(o.platform);
  const settings::Values values = run_settings(o, p.platform.host_properties);
  if (auto const& w = power::power_config(values).workloads; w && w->max_rank() >= o.place.ranks)
    throw InputError("--workloads " + o.workloads,
                     "names rank " + std::to_string(w->max_rank()) + " but the highest rank is " +
                         std::to_string(o.place.ranks - 1),
                     "use ranks below -np");
  check_simgrid_settings(simgrid_settings(o));
  check_power_profiles(o, p.platform);
  check_routing(o, p.platform);
  p.allocator_lib = allocator_library(o.allocator, !p.trace.empty());
  p.counters    = checked_counters(o, p);
  check_rank_capacity(o.place.ranks, p.trace.empty());
  // Every line of every rank file before anything uses it (libs/trace/README.md): a bad peer is
  // the trace's fault, not the mapping's.
  if (!p.trace.empty())
    check_trace_cached(p.trace, o.place.ranks);
  p.placement = place_ranks(p.platform, o.place);
  if (o.out.empty())
    o.out = "results/" + (o.app.empty() ? fs::path(p.trace).stem().string() : fs::path(o.app[0]).filename().string()) +
            "-" + p.placement.strategy + "-" + o.link;
  p.out = fs::absolute(o.out);
  check_out_dir(o.out, p.out, o.force);
  return p;
}

// What only this command knows, for the suite's summary.json.
core::RunDescription describe(const RunOptions& o, const Plan& p)
{
  core::RunDescription d;
  d.platform = o.platform;
  d.ranks    = o.place.ranks;
  d.mode     = p.trace.empty() ? "emulation" : "replay";
  d.simgrid_library = simgrid_description();
  d.allocator = p.allocator_lib.empty() ? "system" : "jemalloc: " + p.allocator_lib;
  if (p.trace.empty())
    d.program = o.app[0];
  else
    d.trace = o.replay;
  d.strategy = p.placement.strategy;
  if (d.strategy == "random")
    d.seed = o.place.seed;
  if (!o.place.traffic.empty() && o.place.traffic != p.trace) { // --traffic: the metrics use its matrix
    d.traffic_file = o.place.traffic;
    d.traffic      = p.placement.matrix;
  }
  d.placement = p.placement.assignment;
  for (int node : d.placement) {
    d.coords[node] = p.platform.nodes.at(static_cast<size_t>(node)).coords;
    if (!p.platform.topology) // XML: the core measures hops on SimGrid's routes between these hosts
      d.hosts[node] = p.platform.nodes.at(static_cast<size_t>(node)).host;
  }
  return d;
}

// platform.json or platform.xml, hostfile, mapping.txt, run.json; returns smpirun's -platform.
std::string stage_inputs(const RunOptions& o, const Plan& p, std::vector<std::string>& suite_cfg)
{
  std::string platform_arg;
  if (p.platform.topology) {
    write_file_atomic((p.stage / "platform.json").string(), platform::to_json(p.platform.topology->spec()).dump(2) + "\n");
    platform_arg = suite_library();
    suite_cfg.push_back("--cfg=haec/platform:" + (p.out / "platform.json").string());
  } else {
    fs::copy_file(p.platform.xml_path, p.stage / "platform.xml");
    platform_arg = (p.out / "platform.xml").string();
  }
  const auto& a = p.placement.assignment;
  write_file_atomic((p.stage / "hostfile").string(), mapping::write_hostfile(a, p.platform.nodes));
  write_file_atomic((p.stage / "mapping.txt").string(),
                    mapping::write_mapping_file(p.placement.strategy, a, p.platform.nodes));
  write_file_atomic((p.stage / "run.json").string(), core::to_json_text(describe(o, p)));
  suite_cfg.push_back("--cfg=haec/run:" + (p.out / "run.json").string());
  return platform_arg;
}

// The --cfg settings haec run derives from its own options.
void add_option_settings(const RunOptions& o, std::vector<std::string>& argv)
{
  argv.push_back("--cfg=haec/link/model:" + o.link);
  if (o.routing != "static")
    argv.push_back("--cfg=haec/routing:" + o.routing);
  if (!o.routing_seed.empty())
    argv.push_back("--cfg=haec/routing/seed:" + o.routing_seed);
  if (o.messages)
    argv.push_back("--cfg=haec/messages:yes");
  if (o.events)
    argv.push_back("--cfg=haec/events:yes");
  if (o.snapshot_given)
    argv.push_back("--cfg=haec/snapshot-period:" + o.snapshot_period);
  if (o.power || o.power_series || !o.workloads.empty() || !o.governor.empty() || !o.power_model.empty())
    argv.push_back("--cfg=haec/power:yes");
  if (!o.power_model.empty())
    argv.push_back("--cfg=haec/power/model:" + o.power_model);
  if (!o.counter_coefficients.empty())
    argv.push_back("--cfg=haec/power/counter-coefficients:" + fs::absolute(o.counter_coefficients).string());
  if (!o.governor.empty())
    argv.push_back("--cfg=haec/dvfs/governor:" + o.governor);
  if (!o.governor.empty() || !o.balance.empty())
    argv.push_back("--cfg=haec/iterations:" + o.iterations);
  if (!o.balance.empty()) {
    argv.push_back("--cfg=haec/balance/strategy:" + o.balance);
    argv.push_back("--cfg=haec/balance/every:" + o.every);
  }
  if (!o.workloads.empty())
    argv.push_back("--cfg=haec/power/workloads:" + fs::absolute(o.workloads).string());
  if (o.power_series)
    argv.push_back("--cfg=haec/power/series:yes");
}

bool cfg_sets(const RunOptions& o, const std::string& key)
{
  for (auto const& kv : o.cfg)
    if (kv.compare(0, key.size() + 1, key + ":") == 0)
      return true;
  return false;
}

// The SimGrid settings haec run chooses unless the user gave them.
void add_simgrid_defaults(const RunOptions& o, std::vector<std::string>& argv)
{
  if (o.link != "none") // the HAEC protocols model their acknowledgments: no TCP cross-traffic
    argv.push_back("--cfg=network/crosstraffic:0");
  // smpirun's 1e-9 s lets a transfer end up to 1 ns early, and emulation and replay then drift
  // apart by up to 1e-5 relative; 1e-13 keeps every uncontended transfer within 1 ps of the model
  // and the two modes together (tests/integration/test_replay_parity_precision.sh), in every mode.
  if (!cfg_sets(o, "surf/precision") && !cfg_sets(o, "precision/timing")) // its two names (simgrid_compat.hpp)
    argv.push_back(std::string("--cfg=") + simgrid_compat::kPrecisionTiming + ":1e-13");
  if (!cfg_sets(o, "smpi/host-speed"))
    argv.push_back("--cfg=smpi/host-speed:" + o.host_speed);
}

// Preload the suite into the simulator only (smpirun's -wrapper), not into the many small
// programs the smpirun script runs: each of those would load libsimgrid too (measured: 0.26 s
// per run).
void add_preload([[maybe_unused]] const RunOptions& o, const Plan& p, std::vector<std::string>& argv)
{
  std::string preload = suite_library();
#ifdef HAEC_SANITIZER_PRELOAD
  // ASan build (cmake/Sanitizers.cmake, docs/SANITIZERS.md): the simulator is not linked with
  // ASan, so its runtime goes first; ASan aborts on SimGrid 3.32's RTLD_DEEPBIND (dlopen)
  // privatization, so use mmap; thread contexts spare ASan the stack switches it cannot follow.
  preload = std::string(HAEC_SANITIZER_PRELOAD) + ":" + preload;
  for (std::string kv : {"smpi/privatization:mmap", "contexts/factory:thread"})
    if (!cfg_sets(o, kv.substr(0, kv.find(':'))) && (p.trace.empty() || kv.rfind("smpi/privatization", 0) != 0))
      argv.insert(argv.begin() + 1, "--cfg=" + kv);
#else
  if (!p.allocator_lib.empty()) // first, so that every malloc of the simulator is its
    preload = p.allocator_lib + ":" + preload;
#endif
  if (const char* old = std::getenv("LD_PRELOAD"); old && *old)
    preload += std::string(":") + old;
  std::string wrapper = "env";
  if (!p.counters.empty()) // the PMPI layer counts these events per burst (pmpi/counting.hpp)
    wrapper += " HAEC_COUNTERS=" + p.counters;
  argv.insert(argv.begin() + 1, {"-wrapper", wrapper + " LD_PRELOAD=" + preload});
}

std::vector<std::string> smpirun_argv(const RunOptions& o, const Plan& p, const std::string& platform_arg,
                                      const std::vector<std::string>& suite_cfg)
{
  std::vector<std::string> argv = {simgrid_program("smpirun"), "-np", std::to_string(o.place.ranks), "-platform", platform_arg,
                                   "-hostfile", (p.out / "hostfile").string()};
  argv.insert(argv.end(), suite_cfg.begin(), suite_cfg.end());
  argv.push_back("--cfg=haec/out:" + p.out.string());
  add_option_settings(o, argv);
  add_simgrid_defaults(o, argv);
  for (auto const& kv : o.cfg)
    argv.push_back("--cfg=" + simgrid_cfg_text(kv));
  if (!p.trace.empty()) {
    // A replay has no application memory to privatize: no copy of the replayer per rank
    // (measured at 4096 ranks: 0.84x CPU time, a third less memory, the same results).
    argv.push_back("--cfg=smpi/privatization:no");
    argv.push_back("-replay");
    argv.push_back(p.trace);
    argv.push_back(replay_program()); // SMPI's replay with the suite's hook (core/haec_replay_main.cpp)
  } else {
    argv.push_back(p.app_path);
    argv.insert(argv.end(), o.app.begin() + 1, o.app.end());
  }
  add_preload(o, p, argv);
  return argv;
}

// The child writes into the staging directory; command.txt names the final one. Only paths
// inside the result directory are redirected (an argument merely sharing its prefix, such as a
// file "<out>.json", is left alone).
void redirect_to_stage(std::vector<std::string>& argv, const Plan& p)
{
  const std::string dir = p.out.string();
  for (auto& a : argv)
    for (const std::string head : {"", "--cfg=haec/out:", "--cfg=haec/platform:", "--cfg=haec/run:"}) {
      if (a.compare(0, head.size() + dir.size(), head + dir) != 0)
        continue;
      const size_t end = head.size() + dir.size();
      if (end == a.size() || a[end] == '/')
        a = head + p.stage.string() + a.substr(end);
    }
}

void print_table(const nlohmann::json& s, const std::string& out)
{
  std::printf("%-22s %s\n", "result directory", out.c_str());
  std::printf("%-22s %.9f s\n", "makespan", s["makespan_s"].get<double>());
  std::printf("%-22s %llu (%llu bytes, transfer hops %llu)\n", "network messages",
              s["messages"].get<unsigned long long>(), s["bytes"].get<unsigned long long>(),
              s["transfer_hops"].get<unsigned long long>());
  std::printf("%-22s %s\n", "link model", s["link_model"].get<std::string>().c_str());
  if (s.contains("collective_algorithms")) { // they change the makespan: said, not silent
    std::string chosen;
    for (auto const& [what, algorithm] : s["collective_algorithms"].items())
      chosen += (chosen.empty() ? "" : ", ") + what + " " + algorithm.get<std::string>();
    std::printf("%-22s %s (SimGrid's default for the others)\n", "collective algorithms", chosen.c_str());
  }
  if (s.contains("energy_j"))
    std::printf("%-22s %.6f J (hosts %.6f J, links %.6f J)\n", "energy", s["energy_j"].get<double>(),
                s["host_energy_j"].get<double>(), s["link_energy_j"].get<double>());
  if (s.contains("governor")) { // and, for Lagrange, whether it planned (plugins/dvfs/README.md)
    std::string g = s["governor"].get<std::string>() + " (" + s["pstate_switches"].dump() + " pstate switches";
    if (s.contains("dvfs_plans"))
      g += ", " + s["dvfs_plans"].dump() + " coordinated plans";
    g += ")";
    if (s.contains("dvfs_plan_refusal"))
      g += "; no plan: " + s["dvfs_plan_refusal"].get<std::string>();
    std::printf("%-22s %s\n", "governor", g.c_str());
  }
  if (s.contains("mapping")) {
    const auto& m = s["mapping"];
    std::printf("%-22s %s\n", "mapping", m["strategy"].get<std::string>().c_str());
    if (m.contains("metrics")) {
      const auto& k = m["metrics"];
      std::printf("%-22s IePLC %llu  IaNLC %llu  IeNLC %llu  message hops %s\n", "logical messages",
                  k["ieplc"].get<unsigned long long>(), k["ianlc"].get<unsigned long long>(),
                  k["ienlc"].get<unsigned long long>(),
                  k.contains("message_hops") ? k["message_hops"].dump().c_str() : "unknown (no route lengths)");
    }
  }
}

// The PMPI layer's notes about --counters (pmpi/counting.cpp) went to the simulator's log: shown.
void forward_counter_notes(const fs::path& log)
{
  if (std::getenv("HAEC_TRACE_OUT") != nullptr) // haec trace record: the recording fails instead, in one line
    return;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("haec: --counters", 0) == 0)
      std::fprintf(stderr, "%s\n", line.c_str());
}

// The terminal the simulator draws its progress line on (haec/progress, core/progress.cpp): this
// command's stderr when it is a terminal and --quiet is not given, else "". The simulator's own
// stderr goes to simgrid.log, so it is told the terminal's device. A device path SimGrid's command
// line would split (a blank, a comma) gets no line.
std::string progress_terminal(const RunOptions& o)
{
  if (o.quiet || ::isatty(STDERR_FILENO) != 1)
    return "";
  const char* name = ::ttyname(STDERR_FILENO);
  if (name == nullptr || std::string(name).find_first_of(" \t,") != std::string::npos)
    return "";
  return name;
}

// The progress setting goes with the suite's other settings (before the program and its arguments),
// and not into command.txt: it changes what the terminal shows, never a result.
void add_progress(std::vector<std::string>& argv, const std::string& terminal)
{
  if (terminal.empty())
    return;
  auto out = std::find_if(argv.begin(), argv.end(), [](const std::string& a) { return a.rfind("--cfg=haec/out:", 0) == 0; });
  argv.insert(out == argv.end() ? out : out + 1, "--cfg=haec/progress:" + terminal);
}

// The line of the simulator, erased whatever became of the simulator: what this command prints
// next (the table, an error) starts at the beginning of a clean line.
void erase_progress(const std::string& terminal)
{
  if (terminal.empty())
    return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
}

// Stages, runs smpirun, moves the result directory into place.
int simulate(const RunOptions& o, Plan& p)
{
  DeferInterrupts defer; // from here on an interrupt removes the staging directory (process.hpp)
  p.stage      = make_stage(o.out, p.out);
  auto cleanup = [&] {
    std::error_code ec;
    fs::remove_all(p.stage, ec);
  };
  try {
    std::vector<std::string> suite_cfg;
    const std::string platform_arg = stage_inputs(o, p, suite_cfg);
    std::vector<std::string> argv  = smpirun_argv(o, p, platform_arg, suite_cfg);
    if (SmpirunWords::needed(argv)) // smpirun would split a word at its blanks: haec-exec keeps it whole
      argv.insert(argv.begin(), self_dir() + "/haec-exec");
    write_file_atomic((p.stage / "command.txt").string(), shell_line({}, argv) + "\n");
    const std::string terminal = progress_terminal(o);
    add_progress(argv, terminal);
    redirect_to_stage(argv, p);
    ChildResult r = run_child(argv, {}, (p.stage / "stdout.txt").string(), (p.stage / "simgrid.log").string(),
                              p.stage.string());
    erase_progress(terminal);
    if (r.interrupted_by != 0)
      throw Interrupted(r.interrupted_by);
    if (simulation_failed(r, p.stage)) // run_failure.cpp: exit 2, 3 or 4, the log or directory kept
      return report_failed_run({r, p.stage, p.out, o.place.ranks, o.keep_failed});
    throw_if_interrupted();
    if (!p.counters.empty())
      forward_counter_notes(p.stage / "simgrid.log");
    move_into_place(p.stage, p.out);
  } catch (...) {
    cleanup();
    throw;
  }
  if (!o.quiet)
    print_table(nlohmann::json::parse(read_file((p.out / "summary.json").string(), "summary.json")), o.out);
  return 0;
}

int run_simulation(RunOptions o)
{
  InterruptHandlers interrupts; // docs/guide/errors.md: 130/143, nothing left behind
  Plan p = prepare(o);
  return simulate(o, p);
}

} // namespace

RunPreview check_run_arguments(const std::vector<std::string>& args)
{
  CLI::App app{"haec run"};
  RunOptions o;
  add_run_options(&app, o);
  try {
    app.parse(std::vector<std::string>(args.rbegin(), args.rend()));
  } catch (const CLI::ParseError& e) {
    throw InputError("haec run", e.what(), "see haec run --help");
  }
  o.np_given         = app.count("--np") > 0;
  o.iterations_given = app.count("--iterations") > 0;
  o.every_given      = app.count("--every") > 0;
  o.snapshot_given   = app.count("--snapshot-period") > 0;
  o.force            = true; // a finished run's directory may exist: the caller decides what to do
  const Plan p       = prepare(o);
  RunPreview preview;
  preview.ranks          = o.place.ranks;
  preview.platform_nodes = static_cast<int>(p.platform.nodes.size());
  preview.nodes_used =
      static_cast<int>(std::set<int>(p.placement.assignment.begin(), p.placement.assignment.end()).size());
  return preview;
}

void add_run_command(CLI::App& app)
{
  auto opt  = std::make_shared<RunOptions>();
  auto* run = app.add_subcommand("run", "Simulate an MPI program (online emulation) or replay a time-independent trace "
                                        "on a platform, with the haec plugins, into a result directory");
  add_run_options(run, *opt);
  run->callback([opt, run] {
    opt->np_given         = run->count("--np") > 0;
    opt->iterations_given = run->count("--iterations") > 0;
    opt->every_given      = run->count("--every") > 0;
    opt->snapshot_given   = run->count("--snapshot-period") > 0;
    if (run->count("--out") > 0 && opt->out.empty()) // --out '' is not "the default directory"
      check_out_dir("", {}, false);
    if (run->count("--counters") > 0 && opt->counters.empty()) // nor is --counters '' "no counters"
      throw InputError("--counters ''", "names no event", "give PAPI events separated by commas, e.g. PAPI_TOT_INS");
    exit_code()           = run_simulation(*opt);
  });
}

} // namespace haec::cli
