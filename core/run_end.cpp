// The end of a recording run: every part of the core and every plugin contributes its files,
// summary entries and checks; a failed check fails the run (exit 3) before anything is written;
// otherwise the files are written, summary.json last.
#include "checks.hpp"
#include "core_parts.hpp"
#include "input_error.hpp"
#include "run.hpp"
#include "topology.hpp"

#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <xbt/config.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>

namespace sg4 = simgrid::s4u;

namespace haec::core {
namespace {

std::vector<std::function<void(Results&)>>& writers()
{
  static std::vector<std::function<void(Results&)>> list;
  return list;
}

std::string simgrid_version()
{
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  return std::to_string(major) + "." + std::to_string(minor) + (patch ? "." + std::to_string(patch) : "");
}

// Links of the route between two node indices, as the transfers count them: our topology's DOR
// distance, or on an XML platform the length of SimGrid's route between the hosts run.json names.
// Empty when neither is known (message_hops is then absent, not guessed from coordinates).
std::function<int(int, int)> route_hops(const RunDescription& d)
{
  if (const platform::Topology* t = parts::loaded_topology())
    return [t](int a, int b) { return t->dor_distance(static_cast<uint32_t>(a), static_cast<uint32_t>(b)); };
  if (d.hosts.empty())
    return {};
  return [&d](int a, int b) {
    sg4::Host* src = sg4::Host::by_name_or_null(d.hosts.at(a));
    sg4::Host* dst = sg4::Host::by_name_or_null(d.hosts.at(b));
    if (!src || !dst)
      throw std::runtime_error("run.json names host " + d.hosts.at(src ? b : a) + ", which the platform lacks");
    std::vector<sg4::Link*> links;
    src->route_to(dst, links, nullptr);
    return static_cast<int>(links.size());
  };
}

// platform, ranks, mode, program or trace, and the mapping with its metrics.
void add_description(Results& results, bool observed)
{
  auto const& d = parts::run_description();
  if (!d)
    return;
  add_run_description(results, *d, run_metrics(*d, parts::run_record(), observed, route_hops(*d)));
}

// SimGrid's collective algorithms, when the run chose any (smpi/coll-selector, smpi/allreduce, ...):
// they change the makespan (bench/scale --allreduce), so the run says which ones it used.
void add_collective_choices(Results& results)
{
  nlohmann::json chosen = nlohmann::json::object();
  for (const char* key : {"smpi/coll-selector", "smpi/allgather", "smpi/allgatherv", "smpi/allreduce", "smpi/alltoall",
                          "smpi/alltoallv", "smpi/barrier", "smpi/bcast", "smpi/gather", "smpi/reduce",
                          "smpi/reduce_scatter", "smpi/scatter"})
    if (!simgrid::config::is_default(key))
      chosen[key + 5] = simgrid::config::get_value<std::string>(key);
  if (!chosen.empty())
    results.add_summary("collective_algorithms", chosen.dump());
}

void add_core_results(Results& results)
{
  add_collective_choices(results);
  const bool observed = calls_reported(); // PMPI layer, or a replay
  parts::fold_record_log();
  add_run_record(results, parts::run_record(),
                 RecordOutput{settings().boolean("haec/messages"), observed});
  results.add_summary("simgrid_version", nlohmann::json(simgrid_version()).dump());
  parts::add_call_results(results);
  parts::add_transfer_results(results);
  parts::add_replay_results(results);
  parts::add_traffic_stats_results(results, observed);
  parts::add_counter_results(results);
  if (observed)
    results.add_check(traffic_matrix_total(*results.file("traffic_matrix.csv"), parts::run_record().logical_messages()));
  else
    results.add_check(not_checked("traffic_matrix_total", "the application's messages were not observed (no PMPI "
                                                          "layer: build it with haec cc)"));
}

struct RunFailure {
  std::string what; // empty: the run has not failed
  int status = 0;
};

RunFailure& run_failure()
{
  static RunFailure failure;
  return failure;
}

// Contributions from the core and every plugin. A bad input found only now (e.g. a workload
// naming a region the program never entered) is still bad input: exit 2.
Results collect_results()
{
  Results results;
  try {
    add_core_results(results);
    for (auto const& w : writers())
      w(results);
    add_description(results, calls_reported());
  } catch (const InputError& e) {
    reject_setting(e.what());
  } catch (const std::exception& e) {
    fail_run(e.what());
  }
  return results;
}

void on_simulation_end()
{
  if (!recording())
    return;
  Results results          = collect_results();
  const RunFailure& failed = run_failure();
  if (failed.what.empty()) {
    if (const Check* bad = results.first_failure())
      fail_run("check " + bad->name + " failed: " + bad->figures);
  } else { // kept for --keep-failed, marked so that nobody takes it for a result
    results.add_summary("status", nlohmann::json("failed").dump());
    results.add_summary("failure", nlohmann::json(failed.what).dump());
  }
  nlohmann::ordered_json head;
  head["makespan_s"] = sg4::Engine::get_clock();
  try {
    results.write(settings().text("haec/out"), head);
  } catch (const std::exception& e) { // a full disk, an I/O error: the simulation failed (exit 3)
    fail_run("cannot write the results: " + std::string(e.what()));
  }
  if (!failed.what.empty()) {
    flush_program_output(); // a Fortran program's units too: its last lines explain the failure
    std::_Exit(failed.status);
  }
}

struct Registration {
  Registration() { sg4::Engine::on_simulation_end_cb(on_simulation_end); }
} registration;

} // namespace

namespace parts {

void mark_run_failed(const std::string& failure, int status)
{
  run_failure() = RunFailure{failure, status};
}

} // namespace parts

void add_results_writer(std::function<void(Results& results)> writer)
{
  writers().push_back(std::move(writer));
}

} // namespace haec::core
