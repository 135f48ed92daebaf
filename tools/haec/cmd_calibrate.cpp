// `haec calibrate net|power|regions`: fit SMPI network settings from calibration-net samples
// (calibrate_net.cpp), host power profiles from wattmeter logs and region correction factors
// (calibration/README.md). Results go to --out DIR, written in a staging directory renamed into
// place, so a failure leaves nothing behind.
#include "atomic_file.hpp"
#include "calibrate_counters.hpp"
#include "calibrate_files.hpp"
#include "calibrate_net.hpp"
#include "commands.hpp"
#include "input_error.hpp"
#include "power_fit.hpp"
#include "rapl.hpp"
#include "region_factors.hpp"
#include "smpi_costs.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace haec::cli {

namespace fs = std::filesystem;
namespace cal = haec::calibration;
using cal::number_text;

namespace {

struct PowerArgs {
  std::string manifest, out = "calibration-power", sysfs_root = "/", rapl_log;
  std::vector<std::string> counters; // --counters POWER_LOG COUNTER_SAMPLES
  int cores = 0;
  double seconds = 0, period = 0.1;
  bool no_plot = false;
};

// Samples the RAPL counters for `seconds` into a `time,watts` log (the sum of the zones).
void log_rapl(const std::vector<cal::RaplZone>& zones, const PowerArgs& a)
{
  auto read_all = [&] {
    std::vector<double> v;
    for (const auto& z : zones) {
      std::ifstream in(z.energy_file);
      double uj = 0;
      if (!(in >> uj))
        throw InputError(z.energy_file, "cannot be read", "RAPL counters usually need root");
      v.push_back(uj);
    }
    return v;
  };
  std::ostringstream log;
  log << "time,watts\n";
  const auto t0 = std::chrono::steady_clock::now();
  auto prev     = read_all();
  double prev_t = 0;
  while (prev_t < a.seconds) {
    std::this_thread::sleep_for(std::chrono::duration<double>(a.period));
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto now = read_all();
    double w = 0;
    for (size_t i = 0; i < zones.size(); ++i)
      w += cal::rapl_watts(prev[i], now[i], t - prev_t, zones[i].max_energy_uj);
    log << number_text(t) << ',' << number_text(w) << '\n';
    prev   = now;
    prev_t = t;
  }
  write_file_atomic(a.rapl_log, log.str());
  std::printf("# wrote %s (%g s of RAPL power)\n", a.rapl_log.c_str(), a.seconds);
}

void run_power(const PowerArgs& a)
{
  const auto zones = cal::find_rapl_zones(a.sysfs_root);
  std::printf("# %s\n", cal::rapl_status_line(a.sysfs_root, zones).c_str());
  if (!a.rapl_log.empty()) {
    if (zones.empty())
      throw InputError("--rapl-log", "this machine exposes no RAPL counters", "measure with a wattmeter instead");
    if (a.seconds <= 0)
      throw InputError("--seconds", "must be positive", "give the length of the run to log");
    log_rapl(zones, a);
    if (a.manifest.empty())
      return;
  }
  if (a.manifest.empty())
    throw InputError("haec calibrate power", "no MANIFEST.csv given", "list the logs as pstate,load,file");
  const auto entries = cal::parse_manifest(read_file(a.manifest, a.manifest), a.manifest);
  const fs::path base = fs::path(a.manifest).parent_path();
  std::vector<cal::PstateLevels> levels;
  std::ostringstream runs;
  runs << "pstate,load,file,watts\n";
  for (const auto& e : entries) {
    const std::string file = (base / e.file).string();
    const auto log         = cal::parse_power_log(read_file(file, a.manifest + ":" + std::to_string(e.line)), file);
    const double w         = cal::steady_power(log, file);
    if (levels.size() <= static_cast<size_t>(e.pstate))
      levels.resize(e.pstate + 1);
    (e.load == "idle" ? levels[e.pstate].idle : e.load == "one" ? levels[e.pstate].one_core
                                                                 : levels[e.pstate].all_cores) = w;
    runs << e.pstate << ',' << e.load << ',' << file << ',' << number_text(w) << '\n';
  }
  const auto prof = cal::power_profile(levels, a.cores, a.manifest);
  std::ostringstream props;
  props << "<prop id=\"haec:wattage_calibration\" value=\"" << prof.wattage_calibration << "\"/>\n"
        << "<prop id=\"wattage_per_state\" value=\"" << prof.wattage_per_state << "\"/>\n";
  write_dir_atomic(a.out, [&](const fs::path& stage) {
    write_file_atomic((stage / "host_properties.xml").string(),
                      "<!-- haec calibrate power " + a.manifest + ", " + std::to_string(a.cores) +
                          " cores: use ONE of the two properties on the host -->\n" + props.str());
    write_file_atomic((stage / "levels.csv").string(), runs.str());
    if (!a.no_plot)
      plot("plot_power.py", {fs::absolute(a.manifest).string(), stage.string()}, stage / "power.png");
  });
  std::fputs(props.str().c_str(), stdout);
  std::printf("# wrote %s/{host_properties.xml,levels.csv%s}\n", a.out.c_str(),
              fs::exists(fs::path(a.out) / "power.png") ? ",power.png" : "");
}

struct RegionArgs {
  std::string real, smpi, out, check, table;
  double min_time = 1e-6;
};

// A record directory: every rank<R>.csv the recorder wrote (HAEC_REGIONS_OUT).
cal::RegionRecord read_record(const std::string& dir, const std::string& flag)
{
  if (!fs::is_directory(dir))
    throw InputError(flag + " " + dir, "is not a directory", "give the HAEC_REGIONS_OUT directory of a recorded run");
  cal::RegionRecord record;
  record.name = dir;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".csv" && e.path().filename().string().rfind("rank", 0) == 0)
      files.push_back(e.path());
  if (files.empty())
    throw InputError(flag + " " + dir, "holds no rank<R>.csv", "run the program with HAEC_REGIONS_OUT=" + dir);
  std::sort(files.begin(), files.end());
  for (const auto& f : files)
    cal::add_rank_file(read_file(f.string(), flag), f.string(), record);
  return record;
}

void run_regions(const RegionArgs& a)
{
  if (a.smpi.empty())
    throw InputError("haec calibrate regions", "--smpi is required", "give the record of the uncorrected SMPI run");
  const auto smpi = read_record(a.smpi, "--smpi");
  if (!a.check.empty()) {
    cal::check_factor_file(read_file(a.check, "--check"), a.check, smpi);
    std::cout << a.check << ": every region occurs in " << a.smpi << "\n";
    return;
  }
  if (a.real.empty() || a.out.empty())
    throw InputError("haec calibrate regions", "--real and --out are required to fit",
                     "give --real REAL_DIR --smpi SMPI_DIR --out FACTORS.csv");
  if (!(a.min_time >= 0))
    throw InputError("--min-time", "must be >= 0 seconds", "use e.g. 1e-6");
  if (fs::exists(a.out))
    throw InputError("--out " + a.out, "already exists", "choose another file or remove it");
  const auto real    = read_record(a.real, "--real");
  const auto factors = cal::fit_region_factors(real, smpi, a.min_time);
  std::ostringstream table;
  table << "region,count,real_s,smpi_s,ratio,written\n";
  table.precision(9);
  for (const auto& f : factors)
    table << f.region << ',' << f.count << ',' << f.t_real << ',' << f.t_smpi << ',' << f.ratio << ','
          << (f.written ? "yes" : "no") << '\n';
  if (!a.table.empty() && fs::exists(a.table))
    throw InputError("--table " + a.table, "already exists", "choose another file or remove it");
  write_file_atomic(a.out, cal::factor_file_text(factors));
  if (!a.table.empty())
    write_file_atomic(a.table, table.str());
  size_t written = 0;
  for (const auto& f : factors)
    written += f.written;
  std::cout << "regions: " << factors.size() << " aligned, " << written << " factors written to " << a.out
            << " (smpi/comp-adjustment-file; ratio = t_SMPI / t_real)\n";
  for (const auto& f : factors)
    std::printf("  %-40s %8llu  real %.6f s  smpi %.6f s  ratio %.4f%s\n", f.region.c_str(),
                static_cast<unsigned long long>(f.count), f.t_real, f.t_smpi, f.ratio,
                f.written ? "" : ("  (" + f.note + ")").c_str());
}

} // namespace

void add_calibrate_command(CLI::App& app)
{
  auto* cmd = app.add_subcommand("calibrate", "Fit SMPI network settings or host power profiles from measurements "
                                              "(calibration/README.md)");
  cmd->require_subcommand(1);

  auto net = std::make_shared<NetArgs>();
  auto* n  = cmd->add_subcommand("net", "Fit smpi/os, ois, or, bw-factor, lat-factor and the protocol thresholds "
                                        "from calibration-net samples");
  n->add_option("samples", net->samples, "SAMPLES.csv written by calibration-net (op,size,start,duration)")
      ->required();
  n->add_option("--intra", net->intra, "Samples of two ranks on one node: fits the loopback link");
  // Given values must be usable as they are (0 or less used to mean "measure it", silently).
  const CLI::Validator positive([](std::string& v) {
    char* end = nullptr;
    double x  = std::strtod(v.c_str(), &end);
    return end != v.c_str() && *end == '\0' && std::isfinite(x) && x > 0 ? std::string() : v + " is not a positive number";
  }, "POSITIVE");
  n->add_option("--bandwidth", net->bandwidth, "Bandwidth (B/s) of the platform route the factors refer to "
                                               "(default: the best measured)")->check(positive);
  n->add_option("--latency", net->latency, "Latency (s) of the platform route (default: the smallest measured)")
      ->check(positive);
  n->add_option("-o,--out", net->out,
                "Directory receiving smpi.cfg, config.xml, segments.csv, points.csv, model.csv, net.png")
      ->capture_default_str();
  n->add_flag("--no-crosstraffic", net->no_crosstraffic, "The route's links are SPLITDUPLEX or the platform runs "
                                                         "with network/crosstraffic:0 (else a flow gets bandwidth/1.05)");
  n->add_flag("--no-plot", net->no_plot, "Skip net.png");
  n->add_flag("--accept-poor-fit", net->accept_poor_fit, "Write settings the checks do not trust (negative or "
                                                         "implausible coefficients, medians missed by > 5 %), "
                                                         "with # warning: lines");
  n->callback([net] { run_net(*net); });

  auto pw = std::make_shared<PowerArgs>();
  auto* p = cmd->add_subcommand("power", "Fit host power profiles (idle, one core, all cores per pstate) from "
                                         "wattmeter logs; reads RAPL where the machine exposes it");
  p->add_option("manifest", pw->manifest, "MANIFEST.csv: pstate,load,file (load idle, one or all)");
  auto* cores = p->add_option("--cores", pw->cores, "Cores of the measured host");
  p->add_option("-o,--out", pw->out, "Directory receiving host_properties.xml, levels.csv, power.png")
      ->capture_default_str();
  p->add_option("--sysfs-root", pw->sysfs_root, "Where to look for sys/class/powercap")->capture_default_str();
  p->add_option("--rapl-log", pw->rapl_log, "Log RAPL power (time,watts) to this file for --seconds");
  p->add_option("--seconds", pw->seconds, "Length of the RAPL log");
  p->add_flag("--no-plot", pw->no_plot, "Skip power.png");
  p->add_option("--counters", pw->counters,
                "POWER_LOG COUNTER_SAMPLES: fit the counter power model (time,watts and "
                "start_s,end_s,pstate,EVENT...) into the coefficients file --out FILE")
      ->expected(2);
  p->callback([pw, cores] {
    if (!pw->counters.empty()) {
      if (!pw->manifest.empty())
        throw InputError("--counters", "given together with a manifest", "fit one model per command");
      run_counter_fit(pw->counters[0], pw->counters[1], pw->out == "calibration-power" ? "" : pw->out);
      return;
    }
    if (cores->count() > 0 && pw->cores <= 0)
      throw InputError("--cores " + std::to_string(pw->cores), "is not a positive core count",
                       "give the host's core count, e.g. --cores 12");
    if (!pw->manifest.empty() && cores->count() == 0)
      throw InputError("haec calibrate power", "--cores is required with a manifest", "give the host's core count");
    run_power(*pw);
  });

  auto rg = std::make_shared<RegionArgs>();
  auto* r = cmd->add_subcommand("regions", "Region correction factors: align the per-region times of a real MPI run "
                                           "and an uncorrected SMPI run (calibration/regions) into SimGrid's "
                                           "smpi/comp-adjustment-file, or --check such a file");
  r->add_option("--real", rg->real, "Record directory (HAEC_REGIONS_OUT) of the real MPI run");
  r->add_option("--smpi", rg->smpi, "Record directory of the uncorrected SMPI run");
  r->add_option("-o,--out", rg->out, "Factor file to write (CSV for smpi/comp-adjustment-file)");
  r->add_option("--table", rg->table, "Also write the aligned regions (region,count,real_s,smpi_s,ratio,written)");
  r->add_option("--min-time", rg->min_time, "Regions shorter than this in either run (s) are not corrected")
      ->capture_default_str();
  r->add_option("--check", rg->check, "Check that every region of this factor file occurs in --smpi");
  r->callback([rg] { run_regions(*rg); });
}

} // namespace haec::cli
