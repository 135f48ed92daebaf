#include "core_settings.hpp"
#include "balance_settings.hpp"
#include "dvfs_settings.hpp"
#include "iteration_modes.hpp"
#include "link_settings.hpp"
#include "power_settings.hpp"
#include "route_policy.hpp"
#include "input_error.hpp"
#include "units.hpp"

#include <cmath>
#include <fcntl.h>
#include <unistd.h>

namespace haec::core {
namespace {

using settings::Need;
using settings::Setting;

Setting reserved(const char* key, const char* description, const char* fallback, const char* option)
{
  Setting s{key, description, fallback};
  s.option   = option;
  s.reserved = true;
  return s;
}

// A switch for an extra result file: needs haec/out.
Setting output_switch(const char* key, const char* description, const char* option)
{
  Setting s = reserved(key, description, "no", option);
  s.check   = settings::check_bool;
  s.needs   = {Need{"haec/out", {}}};
  return s;
}

void check_routing(const std::string& value, const std::string& what)
{
  platform::parse_routing_policy(value, what);
}

// A snapshot period: a time ("1ms", "0.5", "20us") that is positive and finite.
void check_period(const std::string& value, const std::string& what)
{
  const double p = units::parse_time(value, what);
  if (!(p > 0) || !std::isfinite(p))
    throw InputError(what, "snapshot period " + units::exact(p) + " s is not positive",
                     "give a positive simulated time, e.g. --snapshot-period 1ms");
}

void check_iterations(const std::string& value, const std::string& what)
{
  iterations::parse_iteration_mode(value, what);
}

// The terminal of the progress line: one this process can open for writing (haec run gives its
// stderr's, ttyname).
void check_terminal(const std::string& value, const std::string& what)
{
  if (value.empty())
    return;
  const int fd  = ::open(value.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  const bool ok = fd >= 0 && ::isatty(fd) == 1;
  if (fd >= 0)
    ::close(fd);
  if (!ok)
    throw InputError(what, "is not a terminal this process can write to",
                     "give a terminal device (the one `tty` prints), or leave the setting out");
}

} // namespace

std::vector<Setting> core_settings_rows()
{
  Setting iterations = reserved("haec/iterations",
                                "Iteration boundaries: auto (repeating call sites), marker (MPI_Iteration_in), "
                                "site:SITE (each call of that call site), every:K:MPI_Function (every K-th call of it)",
                                "auto", "--iterations");
  iterations.check = check_iterations;
  iterations.needs = {Need{"haec/dvfs/governor", {}}, Need{"haec/balance/strategy", {}}};
  Setting run = reserved("haec/run",
                         "Run description written by haec run (platform, mode, mapping): summary.json carries it, "
                         "with the mapping's metrics",
                         "", "");
  run.needs = {Need{"haec/out", {}}};
  Setting routing = reserved("haec/routing",
                             "Route of each message where a pair has several (hierarchical platforms: parallel level-3 "
                             "cables, indirect=N): static (one route), random (seeded), round-robin (per node pair), "
                             "adaptive (the candidate whose busiest link has the fewest bytes in flight per bandwidth)",
                             "static", "--routing");
  routing.check = check_routing;
  Setting routing_seed = reserved("haec/routing/seed", "Seed of the random routing policy", "1", "--routing-seed");
  routing_seed.check   = settings::check_integer;
  routing_seed.needs   = {Need{"haec/routing", {"random"}}};
  Setting snapshot = reserved("haec/snapshot-period",
                              "Period of the snapshots of the traffic matrix and link use over simulated time "
                              "(snapshot_traffic.csv, snapshot_links.csv; empty: none)",
                              "", "--snapshot-period");
  snapshot.check = check_period;
  snapshot.needs = {Need{"haec/out", {}}};
  Setting progress = reserved("haec/progress",
                              "Terminal device receiving the run's progress line (simulated time, transfers, share of "
                              "the trace replayed, time left), a few updates a second once the run has taken 2 s, erased "
                              "at its end; haec run gives its stderr's when that is a terminal and --quiet is not given "
                              "(empty: none)",
                              "", "");
  progress.check = check_terminal;
  return {reserved("haec/out", "Directory receiving summary.json and the CSV tables (empty: none)", "", "--out"),
          output_switch("haec/messages", "Also write messages.csv, one line per network transfer", "--messages"),
          output_switch("haec/events",
                        "Write events.csv: every MPI call's entry and exit per rank, with simulated times (PMPI layer "
                        "or trace replay; for OTF2 export)",
                        "--events"),
          reserved("haec/platform",
                   "Platform description (platform.json from `haec platform`) built when -platform is this library",
                   "", "--platform"),
          run,
          snapshot,
          iterations,
          routing,
          routing_seed,
          progress,
          Setting{"haec/transfer-observation",
                  "How the network transfers of a run without a link model or per-message routes are observed: "
                  "auto (at their completion, where SimGrid tells a network action's hosts: a patched SimGrid; "
                  "else as callbacks) or callbacks (through SMPI's factor callbacks, as a link model is; the same "
                  "results, slower)",
                  "auto", settings::one_of({"auto", "callbacks"}, "transfer observation")},
          Setting{"haec/link/smpi-envelope",
                  "Bytes SMPI adds to every MPI message on the network (removed before the link model and from "
                  "the recorded payloads)",
                  "16", settings::check_integer}};
}

const settings::Table& settings_table()
{
  static const settings::Table table = [] {
    std::vector<Setting> rows = core_settings_rows();
    for (auto part : {link::settings_rows(), power::settings_rows(), dvfs::settings_rows(), balance::settings_rows()})
      rows.insert(rows.end(), part.begin(), part.end());
    return settings::Table(std::move(rows));
  }();
  return table;
}

void validate_settings(const settings::Values& values)
{
  settings_table().validate(values);
  link::link_config(values);
  power::power_config(values);
  dvfs::dvfs_config(values);
  balance::balance_config(values);
}

} // namespace haec::core
