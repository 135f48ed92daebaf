// `haec run`: validate everything, stage a result directory, run smpirun with the suite
// preloaded, complete summary.json with the mapping and its metrics, then move the directory
// into place. Any failure leaves no result directory behind.
#include "atomic_file.hpp"
#include "commands.hpp"
#include "dor_pnc_model.hpp"
#include "resilient_setup.hpp"
#include "input_error.hpp"
#include "install_paths.hpp"
#include "known_flags.hpp"
#include "link_energy.hpp"
#include "placement.hpp"
#include "platform_source.hpp"
#include "process.hpp"
#include "simgrid_child.hpp"
#include "ti_check.hpp"
#include "units.hpp"
#include "workloads.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace haec::cli {
namespace {

struct RunOptions {
  std::string platform = "haec-box:4x4x4";
  PlacementOptions place;
  std::string link = "none";
  bool messages    = false;
  bool events      = false; // --events: events.csv
  bool power = false, power_series = false; // --power, --power-series
  std::string workloads;                     // --workloads FILE (implies --power)
  std::string governor;                      // --governor NAME (haec/dvfs/governor, implies --power)
  std::string iterations = "auto";           // --iterations MODE (haec/iterations)
  std::string balance;                       // --balance greedy|refine (haec/balance/strategy)
  int every = 10;                            // --every K (haec/balance/every)
  std::string replay;
  std::string out;
  bool force = false;
  std::vector<std::string> cfg;
  std::string host_speed = "1Gf";
  std::string simgrid    = "auto"; // --simgrid auto|debian|patched
  bool quiet             = false;
  std::vector<std::string> app; // program and its arguments
};

// Validates the link model and every haec/link value exactly as the suite will read them.
void check_link_options(const RunOptions& o, const std::map<std::string, std::string>& cfg)
{
  static const std::vector<std::string> models = {"none", "dor", "pnc", "dor_r", "pnc_r", "ncd_r"};
  if (std::find(models.begin(), models.end(), o.link) == models.end())
    throw InputError("--link " + o.link, "unknown link model", "use none, dor, pnc, dor_r, pnc_r or ncd_r");
  if (link::resilient::is_resilient_model(o.link)) { // the suite reads the same settings the same way
    std::map<std::string, std::string> given;
    for (const auto& [key, value] : cfg)
      if (key.rfind("haec/link/", 0) == 0)
        given[key] = value;
    link::resilient::setup_from_settings(o.link, given);
    return;
  }
  link::NodeParams p;
  auto num = [&](const char* key, double& field) {
    auto it = cfg.find(key);
    if (it != cfg.end())
      field = units::parse_number(it->second, std::string("--cfg ") + key);
  };
  num("haec/link/packet-size", p.packet_size);
  num("haec/link/d-out", p.d_out);
  num("haec/link/d-in", p.d_in);
  num("haec/link/d-p", p.d_p);
  num("haec/link/window-id", p.window_id);
  num("haec/link/ff-symbol", p.ff_symbol);
  if (auto it = cfg.find("haec/link/window"); it != cfg.end())
  {
    long long w = units::parse_integer(it->second, "--cfg haec/link/window");
    if (w > 1000000)
      throw InputError("--cfg haec/link/window:" + it->second, "window too large", "use at most 1000000 packets");
    p.window = static_cast<int>(w);
  }
  if (auto it = cfg.find("haec/link/units"); it != cfg.end() && it->second != "physical" && it->second != "byte-slip")
    throw InputError("--cfg haec/link/units:" + it->second, "unknown unit convention", "use physical or byte-slip");
  if (auto it = cfg.find("haec/link/partial-window");
      it != cfg.end() && it->second != "no-partial" && it->second != "seed-literal")
    throw InputError("--cfg haec/link/partial-window:" + it->second, "unknown rule", "use no-partial or seed-literal");
  for (auto proto : {link::Protocol::DOR, link::Protocol::PNC})
    link::DorPncModel(proto, p); // throws on bad parameters
}

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

// --simgrid: Debian's libsimgrid, or the build of scripts/build-simgrid.sh (Debian's source with our
// activity-list patch; it replays exactly as Debian's, checked when built, and is faster at scale).
// Returns the directory to put before smpirun's library path, or "" for Debian's.
std::string simgrid_library_dir(const std::string& choice)
{
  if (choice != "auto" && choice != "debian" && choice != "patched")
    throw InputError("--simgrid " + choice, "unknown SimGrid library", "use auto, debian or patched");
  const std::string prefix = choice == "debian" ? "" : checked_patched_simgrid();
  if (prefix.empty() && choice == "patched")
    throw InputError("--simgrid patched", "no checked patched SimGrid next to this haec",
                     "run scripts/build-simgrid.sh, or use --simgrid debian");
  return prefix.empty() ? "" : prefix + "/lib";
}

std::string first_error_line(const std::string& log_path)
{
  std::ifstream in(log_path);
  std::string line, fallback;
  while (std::getline(in, line)) {
    if (line.rfind("haec: ", 0) == 0)
      return line.substr(6);
    if (fallback.empty() && (line.find("rror") != std::string::npos || line.find("CRITICAL") != std::string::npos ||
                             line.find("Assertion") != std::string::npos))
      fallback = line;
  }
  return fallback.empty() ? "see the SimGrid log above" : fallback;
}

void print_table(const nlohmann::json& s, const std::string& out)
{
  std::printf("%-22s %s\n", "result directory", out.c_str());
  std::printf("%-22s %.9f s\n", "makespan", s["makespan_s"].get<double>());
  std::printf("%-22s %llu (%llu bytes)\n", "network messages", s["messages"].get<unsigned long long>(),
              s["bytes"].get<unsigned long long>());
  std::printf("%-22s %s\n", "link model", s["link_model"].get<std::string>().c_str());
  if (s.contains("energy_j"))
    std::printf("%-22s %.6f J (hosts %.6f J, links %.6f J)\n", "energy", s["energy_j"].get<double>(),
                s["host_energy_j"].get<double>(), s["link_energy_j"].get<double>());
  if (s.contains("mapping")) {
    const auto& m = s["mapping"];
    std::printf("%-22s %s\n", "mapping", m["strategy"].get<std::string>().c_str());
    if (m.contains("metrics")) {
      const auto& k = m["metrics"];
      std::printf("%-22s IePLC %llu  IaNLC %llu  IeNLC %llu  total hops %llu\n", "logical messages",
                  k["ieplc"].get<unsigned long long>(), k["ianlc"].get<unsigned long long>(),
                  k["ienlc"].get<unsigned long long>(), k["total_hops"].get<unsigned long long>());
    }
  }
}

int run_simulation(RunOptions o)
{
  // 1. Validate every input before touching the disk.
  std::map<std::string, std::string> cfg;
  for (auto const& kv : o.cfg) {
    auto colon = kv.find(':');
    if (colon == std::string::npos || colon == 0)
      throw InputError("--cfg " + kv, "not of the form KEY:VALUE", "write e.g. --cfg haec/link/window:5");
    std::string key = kv.substr(0, colon);
    if (key.rfind("haec/", 0) == 0) {
      check_haec_key(key);
      if (key == "haec/out" || key == "haec/platform" || key == "haec/link/model" || key == "haec/messages" ||
          key == "haec/events")
        throw InputError("--cfg " + key, "is set by haec run itself", "use the matching haec run option instead");
    }
    cfg[key] = kv.substr(colon + 1);
  }
  check_link_options(o, cfg);
  // Power plugin values, read as the suite reads them.
  if (auto it = cfg.find("haec/power/polling"); it != cfg.end()) {
    double v = units::parse_number(it->second, "--cfg haec/power/polling");
    if (!(v >= 0 && v <= 1))
      throw InputError("--cfg haec/power/polling:" + it->second, "must be in [0,1]",
                       "give the share of a core a polling loop uses, e.g. 0.5");
  }
  if (auto it = cfg.find("haec/power/link-wattage"); it != cfg.end())
    power::parse_link_wattage_table(it->second, "--cfg haec/power/link-wattage");
  for (const char* key : {"haec/dvfs/governor", "haec/iterations", "haec/balance/strategy", "haec/balance/every"})
    if (cfg.count(key))
      throw InputError(std::string("--cfg ") + key, "is set by haec run itself",
                       "use --governor, --iterations, --balance or --every");
  if (!o.balance.empty() && o.balance != "greedy" && o.balance != "refine")
    throw InputError("--balance " + o.balance, "unknown balancing strategy", "use greedy or refine");
  if (o.every <= 0)
    throw InputError("--every " + std::to_string(o.every), "is not a positive iteration count",
                     "balance every K >= 1 iterations, e.g. --every 5");
  if (cfg.count("haec/power/workloads"))
    throw InputError("--cfg haec/power/workloads", "is set by haec run itself", "use --workloads FILE");
  if (!o.workloads.empty()) { // the file's own errors now; regions, ranks, hosts once the run knows them
    std::ifstream in(o.workloads);
    if (!in)
      throw InputError("--workloads " + o.workloads, "cannot be read", "give the path of a workload JSON file");
    std::ostringstream text;
    text << in.rdbuf();
    power::WorkloadSet::parse(text.str(), o.workloads);
  }
  if (auto it = cfg.find("haec/replay/reader"); it != cfg.end() && it->second != "haec" && it->second != "simgrid")
    throw InputError("--cfg haec/replay/reader:" + it->second, "unknown trace reader", "use haec or simgrid");
  if (auto it = cfg.find("haec/link/smpi-envelope"); it != cfg.end())
    units::parse_integer(it->second, "--cfg haec/link/smpi-envelope");
  check_simgrid_settings(o.cfg);
  units::parse_speed(o.host_speed, "--host-speed");
  const std::string simgrid_lib = simgrid_library_dir(o.simgrid);

  if (!o.replay.empty() && !o.app.empty())
    throw InputError("--replay " + o.replay, "given together with a program", "replay a trace or run a program, not both");
  if (o.replay.empty() && o.app.empty())
    throw InputError("haec run", "nothing to run", "give a program after -- or a trace with --replay");
  std::string app_path;
  if (!o.app.empty()) {
    app_path = o.app[0];
    if (app_path.find('/') == std::string::npos)
      app_path = "./" + app_path;
    if (!fs::is_regular_file(app_path) || ::access(app_path.c_str(), X_OK) != 0)
      throw InputError("program " + o.app[0], "not found or not executable",
                       "build it with `haec cc` (or smpicc) and give its path");
    app_path = fs::absolute(app_path).string();
  }
  std::string trace;
  if (!o.replay.empty()) {
    trace = fs::absolute(o.replay).string();
    if (o.place.ranks < 0)
      o.place.ranks = trace_ranks(trace);
    else
      read_file(trace, "--replay");
    if (o.place.traffic.empty())
      o.place.traffic = trace; // the trace gives the logical traffic for the metrics
  }
  if (o.place.ranks < 0)
    throw InputError("haec run", "the number of ranks is missing", "give -np N");

  ResolvedPlatform platform = resolve_platform(o.platform);
  Placement placement       = place_ranks(platform, o.place);
  if (!trace.empty()) // every line of every rank file, before anything runs (libs/trace/README.md)
    trace::check_ti_trace(trace, o.place.ranks);

  if (o.out.empty())
    o.out = "results/" + (o.app.empty() ? fs::path(trace).stem().string() : fs::path(o.app[0]).filename().string()) +
            "-" + placement.strategy + "-" + o.link;
  fs::path out = fs::absolute(o.out);
  if (fs::exists(out) && !o.force)
    throw InputError("--out " + o.out, "already exists", "choose another directory or add --force to replace it");

  // 2. Stage the result directory next to its final place.
  fs::create_directories(out.parent_path());
  fs::path stage = out.string() + ".tmp-" + std::to_string(::getpid());
  fs::remove_all(stage);
  fs::create_directories(stage);
  auto cleanup = [&] { std::error_code ec; fs::remove_all(stage, ec); };

  try {
    std::string platform_arg;
    std::vector<std::string> suite_cfg;
    if (platform.topology) {
      write_file_atomic((stage / "platform.json").string(), platform::to_json(platform.topology->spec()).dump(2) + "\n");
      platform_arg = suite_library();
      suite_cfg.push_back("--cfg=haec/platform:" + (out / "platform.json").string());
    } else {
      fs::copy_file(platform.xml_path, stage / "platform.xml");
      platform_arg = (out / "platform.xml").string();
    }
    write_file_atomic((stage / "hostfile").string(), mapping::write_hostfile(placement.assignment, platform.nodes));
    write_file_atomic((stage / "mapping.txt").string(),
                      mapping::write_mapping_file(placement.strategy, placement.assignment, platform.nodes));

    std::vector<std::string> argv = {"smpirun", "-np", std::to_string(o.place.ranks), "-platform", platform_arg,
                                     "-hostfile", (out / "hostfile").string()};
    for (auto const& c : suite_cfg)
      argv.push_back(c);
    argv.push_back("--cfg=haec/out:" + out.string());
    argv.push_back("--cfg=haec/link/model:" + o.link);
    if (o.messages)
      argv.push_back("--cfg=haec/messages:yes");
    if (o.events)
      argv.push_back("--cfg=haec/events:yes");
    if (o.power || o.power_series || !o.workloads.empty() || !o.governor.empty())
      argv.push_back("--cfg=haec/power:yes");
    if (!o.governor.empty())
      argv.push_back("--cfg=haec/dvfs/governor:" + o.governor);
    if (!o.governor.empty() || !o.balance.empty())
      argv.push_back("--cfg=haec/iterations:" + o.iterations);
    if (!o.balance.empty()) {
      argv.push_back("--cfg=haec/balance/strategy:" + o.balance);
      argv.push_back("--cfg=haec/balance/every:" + std::to_string(o.every));
    }
    if (!o.workloads.empty())
      argv.push_back("--cfg=haec/power/workloads:" + std::filesystem::absolute(o.workloads).string());
    if (o.power_series)
      argv.push_back("--cfg=haec/power/series:yes");
    if (o.link != "none") { // the HAEC protocols model their acknowledgments: no TCP cross-traffic
      argv.push_back("--cfg=network/crosstraffic:0");
      // smpirun's 1e-9 s lets a transfer end up to 1 ns early; 1e-13 keeps every uncontended
      // transfer within 1 ps of the model (measured on the demonstration).
      if (!cfg.count("surf/precision"))
        argv.push_back("--cfg=surf/precision:1e-13");
    }
    if (!cfg.count("smpi/host-speed"))
      argv.push_back("--cfg=smpi/host-speed:" + o.host_speed);
    for (auto const& kv : o.cfg)
      argv.push_back("--cfg=" + kv);
    if (!trace.empty()) {
      // A replay has no application memory to privatize: no copy of the replayer per rank
      // (measured at 4096 ranks: 0.84x CPU time, a third less memory, the same results).
      argv.push_back("--cfg=smpi/privatization:no");
      argv.push_back("-replay");
      argv.push_back(trace);
    } else {
      argv.push_back(app_path);
      argv.insert(argv.end(), o.app.begin() + 1, o.app.end());
    }
    // Preload the suite into the simulator only (smpirun's -wrapper), not into the many small
    // programs the smpirun script runs: each of those would load libsimgrid too (measured: 0.26 s
    // per run).
    std::string preload = suite_library();
#ifdef HAEC_SANITIZER_PRELOAD
    // ASan build (cmake/Sanitizers.cmake, docs/SANITIZERS.md): the simulator is not linked with
    // ASan, so its runtime goes first; ASan aborts on SMPI's RTLD_DEEPBIND (dlopen) privatization,
    // so use mmap, under which apps reach libhaec_pmpi only if preloaded; thread contexts spare ASan
    // the stack switches it cannot follow.
    if (trace.empty())
      preload = pmpi_library_dir() + "/libhaec_pmpi.so:" + preload;
    preload = std::string(HAEC_SANITIZER_PRELOAD) + ":" + preload;
    for (std::string kv : {"smpi/privatization:mmap", "contexts/factory:thread"})
      if (!cfg.count(kv.substr(0, kv.find(':'))) && (trace.empty() || kv.rfind("smpi/privatization", 0) != 0))
        argv.insert(argv.begin() + 1, "--cfg=" + kv);
#endif
    if (const char* old = std::getenv("LD_PRELOAD"); old && *old)
      preload += std::string(":") + old;
    // The patched SimGrid goes before smpirun's library path (smpirun puts the system's first);
    // env -S keeps the rest of that path (smpirun's temporary directory included).
    std::string wrapper = "env";
    if (!simgrid_lib.empty())
      wrapper += " -S LD_LIBRARY_PATH=" + simgrid_lib + ":${LD_LIBRARY_PATH}";
    argv.insert(argv.begin() + 1, {"-wrapper", wrapper + " LD_PRELOAD=" + preload});
    std::vector<std::string> env;
    write_file_atomic((stage / "command.txt").string(), shell_line(env, argv) + "\n");

    // The child writes into the staging directory; command.txt names the final one. Only paths
    // inside the result directory are redirected (an argument merely sharing its prefix, such
    // as a file "<out>.json", is left alone).
    const std::string dir = out.string();
    for (auto& a : argv) {
      for (const std::string& head : {std::string(""), std::string("--cfg=haec/out:"), std::string("--cfg=haec/platform:")}) {
        if (a.compare(0, head.size() + dir.size(), head + dir) != 0)
          continue;
        const size_t end = head.size() + dir.size();
        if (end == a.size() || a[end] == '/')
          a = head + stage.string() + a.substr(end);
      }
    }
    ChildResult r = run_child(argv, env, (stage / "stdout.txt").string(), (stage / "simgrid.log").string());
    if (r.exit_code != 0 || !fs::exists(stage / "summary.json")) {
      std::string why = first_error_line((stage / "simgrid.log").string());
      if (r.signal)
        why = "killed by signal " + std::to_string(r.signal) + ": " + why;
      cleanup();
      std::fprintf(stderr, "haec: run failed (smpirun exit %d): %s\n", r.exit_code, why.c_str());
      return 3;
    }

    // 3. Complete summary.json with what only the CLI knows.
    auto summary = nlohmann::ordered_json::parse(read_file((stage / "summary.json").string(), "summary.json"));
    summary["platform"] = platform.text;
    summary["ranks"]    = o.place.ranks;
    summary["mode"]     = trace.empty() ? "emulation" : "replay";
    summary["simgrid_library"] = simgrid_lib.empty() ? "debian" : "patched: " + simgrid_lib;
    summary[trace.empty() ? "program" : "trace"] = trace.empty() ? o.app[0] : o.replay;
    nlohmann::ordered_json m;
    m["strategy"] = placement.strategy;
    if (placement.strategy == "random")
      m["seed"] = o.place.seed;
    std::optional<mapping::CommMatrix> matrix = placement.matrix;
    if (!matrix && fs::exists(stage / "traffic_matrix.csv"))
      matrix = mapping::read_traffic_matrix((stage / "traffic_matrix.csv").string());
    if (matrix && trace.size() && !fs::exists(stage / "traffic_matrix.csv")) {
      std::ostringstream csv;
      csv << "src_rank,dst_rank,messages,bytes\n";
      for (int s = 0; s < matrix->ranks; ++s)
        for (int d = 0; d < matrix->ranks; ++d)
          if (matrix->msgs(s, d))
            csv << s << ',' << d << ',' << matrix->msgs(s, d) << ','
                << matrix->bytes[static_cast<size_t>(s) * matrix->ranks + d] << '\n';
      write_file_atomic((stage / "traffic_matrix.csv").string(), csv.str());
    }
    if (matrix && matrix->ranks <= o.place.ranks) {
      auto metrics = mapping::compute_metrics(*matrix, placement.assignment,
                                              [&](int a, int b) { return platform.hops(a, b); });
      m["metrics"] = nlohmann::ordered_json::parse(metrics_json(metrics));
    }
    summary["mapping"] = m;
    write_file_atomic((stage / "summary.json").string(), summary.dump(2) + "\n");

    // 4. Move into place.
    if (fs::exists(out))
      fs::remove_all(out);
    fs::rename(stage, out);
    if (!o.quiet)
      print_table(summary, o.out);
  } catch (...) {
    cleanup();
    throw;
  }
  return 0;
}

} // namespace

void add_run_command(CLI::App& app)
{
  auto opt         = std::make_shared<RunOptions>();
  opt->place.ranks = -1; // not given: from the trace when replaying
  auto* run = app.add_subcommand("run", "Simulate an MPI program (online emulation) or replay a time-independent trace "
                                        "on a platform, with the haec plugins, into a result directory");
  run->add_option("--platform", opt->platform,
                  "Platform: haec-box:XxYxZ, mesh:AxBxC, torus:AxBxC, cluster:N (with ,key=value options, see "
                  "`haec platform --help`), a platform.json or a SimGrid XML file")
      ->capture_default_str();
  run->add_option("--map", opt->place.strategy, "Rank placement strategy: xyz, block-xyz, random, min-md")
      ->capture_default_str();
  run->add_option("--hostfile", opt->place.hostfile, "SMPI hostfile to use instead of a strategy (host or host:count per line)");
  run->add_option("--mapping-file", opt->place.mapping_file, "HAEC-SIM mapping file to use instead of a strategy");
  run->add_option("--traffic", opt->place.traffic,
                  "Communication matrix for min-md and the mapping metrics: a traffic_matrix.csv or a TI trace");
  run->add_option("--seed", opt->place.seed, "Seed of the random mapping")->capture_default_str();
  run->add_option("--link", opt->link, "Link model: none (SimGrid's own), dor or pnc (seed 004 Eq. 1-2), dor_r, pnc_r or ncd_r (resilient, under packet loss)")
      ->capture_default_str();
  run->add_flag("--messages", opt->messages, "Write messages.csv: one line per network transfer");
  run->add_flag("--events", opt->events,
                "Write events.csv: each rank's MPI call entries and exits with simulated times (PMPI layer or replay)");
  run->add_flag("--power", opt->power,
                "Compute energy (haec/power): hosts.csv, links.csv and energy_j in summary.json (plugins/power/README.md)");
  run->add_flag("--power-series", opt->power_series, "As --power, and write power.csv: each host's watts over time");
  run->add_option("--workloads", opt->workloads,
                  "Workload phases: JSON file of power profiles per code region, rank or host (implies --power; "
                  "plugins/power/README.md)");
  run->add_option("--governor", opt->governor,
                  "DVFS governor of every host (implies --power): performance, powersave, ondemand, conservative, "
                  "adagio, adagio-improved, lagrange, mix (plugins/dvfs/README.md)");
  run->add_option("--iterations", opt->iterations,
                  "Iteration boundaries for DVFS and balancing: auto, marker, site:SITE, every:K:MPI_Function")
      ->capture_default_str();
  run->add_option("--balance", opt->balance, "Migrate ranks between nodes: greedy or refine (plugins/balance/README.md)");
  run->add_option("--every", opt->every, "Balance every K iterations (with --balance)")->capture_default_str();
  run->add_option("--replay", opt->replay, "Replay this SimGrid time-independent trace instead of running a program");
  run->add_option("-n,--np", opt->place.ranks, "Number of MPI ranks (default: from the trace when replaying)");
  run->add_option("--out", opt->out, "Result directory (default results/<program>-<mapping>-<link>); must not exist");
  run->add_flag("--force", opt->force, "Replace an existing result directory once the new run succeeded");
  // One value per --cfg: a vector option would otherwise swallow the "--" before the program and
  // hand the program's own options to haec (CLI11 2.1).
  run->add_option("--cfg", opt->cfg, "Extra SimGrid/haec setting KEY:VALUE, e.g. haec/link/window:8 (repeatable)")
      ->allow_extra_args(false);
  run->add_option("--host-speed", opt->host_speed,
                  "Speed of this machine for emulation (smpi/host-speed): 1 s of real CPU counts as this many flops")
      ->capture_default_str();
  run->add_option("--simgrid", opt->simgrid,
                  "SimGrid library: debian, patched (built by scripts/build-simgrid.sh: the same results, faster at "
                  "scale) or auto (patched when built and checked)")
      ->capture_default_str();
  run->add_flag("-q,--quiet", opt->quiet, "Do not print the summary table");
  run->add_option("app", opt->app, "Program and its arguments (after --)");
  run->callback([opt] { exit_code() = run_simulation(*opt); });
}

} // namespace haec::cli
