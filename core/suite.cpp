// The preloadable suite: the flags every run shares (where results go, what to record, which
// platform description to build), the run record, and the results written when the simulation
// ends. Each plugin registers itself in its own file; this one wires what they share.
#include "atomic_file.hpp"
#include "input_error.hpp"
#include "results.hpp"
#include "run_context.hpp"
#include "text.hpp"

#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <vector>

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(haec_suite, smpi, "haec-smpi plugin suite");

namespace sg4 = simgrid::s4u;

namespace haec::suite {
namespace {

simgrid::config::Flag<std::string> cfg_out{"haec/out",
                                           "Directory receiving summary.json and the CSV tables (empty: none)", ""};
simgrid::config::Flag<bool> cfg_messages{"haec/messages", "Also write messages.csv, one line per network transfer",
                                         false};

std::vector<std::pair<std::string, std::string>>& summary_entries()
{
  static std::vector<std::pair<std::string, std::string>> entries;
  return entries;
}

// host -> its rank when it carries exactly one SMPI rank, else -1. Built on first use, once the
// ranks exist (SMPI gives each rank actor a "rank" property).
const std::map<const sg4::Host*, int>& ranks_by_host()
{
  static std::map<const sg4::Host*, int> table;
  static bool built = false;
  if (!built) {
    built = true;
    std::map<const sg4::Host*, std::vector<int>> all;
    for (auto const& actor : sg4::Engine::get_instance()->get_all_actors()) {
      const char* rank = actor->get_property("rank");
      if (rank != nullptr)
        all[actor->get_host()].push_back(std::atoi(rank));
    }
    for (auto const& [host, ranks] : all)
      table[host] = ranks.size() == 1 ? ranks.front() : -1;
  }
  return table;
}

std::vector<std::function<void(const std::string&)>>& results_writers()
{
  static std::vector<std::function<void(const std::string&)>> writers;
  return writers;
}

void on_simulation_end()
{
  if (cfg_out.get().empty())
    return;
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  ResultsInput in{run_record(), sg4::Engine::get_clock(),
                  std::to_string(major) + "." + std::to_string(minor) + (patch ? "." + std::to_string(patch) : ""),
                  summary_entries(), cfg_messages};
  try {
    for (auto const& writer : results_writers())
      writer(cfg_out.get());
    write_results(cfg_out.get(), in);
  } catch (const InputError& e) {
    fail_run(e.what());
  } catch (const std::exception& e) { // not bad input: e.g. a full disk (README "Errors and failures")
    std::fprintf(stderr, "haec: cannot write the results: %s\n", text::one_line(e.what()).c_str());
    std::exit(3);
  }
}

struct Registration {
  Registration() { sg4::Engine::on_simulation_end_cb(on_simulation_end); }
} registration;

} // namespace

void fail_run(const std::string& message)
{
  std::fprintf(stderr, "haec: %s\n", text::one_line(message).c_str());
  std::exit(2);
}

RunRecord& run_record()
{
  static RunRecord record(cfg_messages);
  return record;
}

int sole_rank_on(const sg4::Host* host)
{
  auto const& table = ranks_by_host();
  auto it           = table.find(host);
  return it == table.end() ? -1 : it->second;
}

void add_summary_entry(const std::string& key, const std::string& json_value)
{
  summary_entries().emplace_back(key, json_value);
}

void add_results_writer(std::function<void(const std::string& dir)> writer)
{
  results_writers().push_back(std::move(writer));
}

bool recording()
{
  return !cfg_out.get().empty();
}

} // namespace haec::suite

// Called by our PMPI library (weak reference there) for every application-level point-to-point
// message, with world ranks.
extern "C" void haec_suite_logical_message(int src_world_rank, int dst_world_rank, unsigned long long bytes)
{
  haec::suite::run_record().add_logical_message(src_world_rank, dst_world_rank, bytes);
}
