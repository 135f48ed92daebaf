// The run context: the plugins registered with the core, the run's settings (read from SimGrid's
// config, validated before anything starts), the rank of each actor and host, and the two ways a
// run ends early. The start sequence runs when the platform exists: settings, the core's parts,
// the plugins in order, then the SimGrid signals their subscriptions need.
#include "core_parts.hpp"
#include "core_settings.hpp"
#include "input_error.hpp"
#include "run.hpp"
#include "text.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <dlfcn.h>
#include <link.h>
#include <unistd.h>
#include <unordered_map>

namespace sg4 = simgrid::s4u;

namespace haec::core {

// Defined before this file's static registration, which subscribes to it.
Bus the_bus;

namespace {

struct Plugin {
  std::string name;
  int order;
  std::function<void()> start;
};

std::vector<Plugin>& plugins()
{
  static std::vector<Plugin> list;
  return list;
}

settings::Values& values()
{
  static settings::Values v(settings_table(), settings::Source::Suite);
  return v;
}

struct Context {
  int envelope   = 16;
  bool recording = false;
  bool passive   = false; // until start_run has read the settings
  std::optional<RunDescription> description;
  std::unordered_map<long, int> rank_of_pid;
  std::map<const sg4::Host*, std::vector<int>> ranks_on_host; // built on first use
  bool ranks_built = false;
};

Context& context()
{
  static Context c;
  return c;
}

// Every haec flag, declared from the settings table before SimGrid parses the command line.
void declare_flags()
{
  for (auto const& s : settings_table().rows())
    simgrid::config::declare_flag<std::string>(s.key, s.description, s.default_value);
}

void read_settings()
{
  settings::Values& v = values();
  for (auto const& s : settings_table().rows()) {
    if (!simgrid::config::is_default(s.key.c_str()))
      v.give(s.key, simgrid::config::get_value<std::string>(s.key));
    if (!s.host_property.empty())
      for (auto const* h : sg4::Engine::get_instance()->get_all_hosts())
        if (h->get_property(s.host_property))
          v.assume_active(s.key);
  }
}

// haec/out must be a writable directory before the simulation spends any time.
void check_out_dir(const std::string& dir)
{
  if (dir.empty())
    return;
  if (::access(dir.c_str(), F_OK) != 0)
    throw InputError(values().what("haec/out"), "no such directory", "create it first (results are written into it)");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw InputError(values().what("haec/out"), "is not a writable directory", "give a directory you can write to");
}

void start_run()
{
  Context& c = context();
  try {
    read_settings();
    settings_table().validate(values());
    check_out_dir(values().text("haec/out"));
    c.recording = !values().text("haec/out").empty();
    c.passive   = values().nothing_given();
    c.envelope  = static_cast<int>(values().integer("haec/link/smpi-envelope"));
    if (values().given("haec/run"))
      c.description = read_run_description(values().text("haec/run"));
  } catch (const InputError& e) {
    reject_setting(e.what());
  }
  std::stable_sort(plugins().begin(), plugins().end(),
                   [](const Plugin& a, const Plugin& b) { return a.order < b.order; });
  try {
    parts::start_calls();
    parts::start_traffic_stats();
    parts::start_counters();
    for (auto const& p : plugins())
      p.start();
    parts::connect_iterations();
    parts::connect_computations();
    parts::connect_transfers();
    parts::start_progress();
  } catch (const std::exception& e) { // a plugin's own errors end the run where they occur
    fail_run(e.what());
  }
}

void build_rank_tables()
{
  Context& c = context();
  c.ranks_built = true;
  for (auto const& actor : sg4::Engine::get_instance()->get_all_actors())
    if (const char* rank = actor->get_property("rank"))
      c.ranks_on_host[actor->get_host()].push_back(std::atoi(rank));
}

// SimGrid's SIGINT handler calls exit(1): static destructors and its atexit shutdown free the
// engine while actors still run (with thread contexts, on other threads: a use-after-free that
// AddressSanitizer reports). An interrupted run's figures are worthless anyway, so SIGINT ends the
// simulator at once, as SIGTERM does; haec run reports the interruption and removes its staging.
void die_at_once_on_sigint()
{
  std::signal(SIGINT, SIG_DFL);
}

struct Registration {
  Registration()
  {
    declare_flags();
    sg4::Engine::on_platform_created_cb(die_at_once_on_sigint); // after SimGrid installed its own
    sg4::Engine::on_platform_created_cb(start_run);
    bus().rank_migrated.subscribe([](const RankMigrated& m) { // keeps sole_rank_on right
      Context& c = context();
      if (!c.ranks_built) { // built from the actors' hosts, the move included
        build_rank_tables();
        return;
      }
      auto& from = c.ranks_on_host[m.from];
      from.erase(std::remove(from.begin(), from.end(), m.rank), from.end());
      c.ranks_on_host[m.to].push_back(m.rank);
    });
  }
} registration;

} // namespace

void register_plugin(const char* name, int order, std::function<void()> start)
{
  plugins().push_back(Plugin{name, order, std::move(start)});
}

const settings::Values& settings()
{
  return values();
}

int smpi_envelope()
{
  return context().envelope;
}

bool recording()
{
  return context().recording;
}

bool passive()
{
  return context().passive;
}

int sole_rank_on(const sg4::Host* host)
{
  Context& c = context();
  if (!c.ranks_built)
    build_rank_tables();
  auto it = c.ranks_on_host.find(host);
  return it == c.ranks_on_host.end() || it->second.size() != 1 ? -1 : it->second.front();
}

int rank_of(long pid)
{
  auto& ranks = context().rank_of_pid;
  auto it     = ranks.find(pid);
  if (it != ranks.end())
    return it->second;
  int rank = -1;
  if (auto actor = sg4::Actor::by_pid(pid))
    if (const char* text = actor->get_property("rank"))
      rank = std::atoi(text);
  ranks[pid] = rank;
  return rank;
}

namespace {

// libgfortran's FLUSH without a unit (all units), found in whichever libgfortran the program loaded.
int flush_fortran(dl_phdr_info* info, size_t, void*)
{
  if (info->dlpi_name == nullptr || std::strstr(info->dlpi_name, "libgfortran") == nullptr)
    return 0;
  if (void* lib = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD)) {
    using Flush = void (*)(int*);
    if (auto flush = reinterpret_cast<Flush>(dlsym(lib, "_gfortran_flush_i4")))
      flush(nullptr);
    dlclose(lib);
  }
  return 1;
}

} // namespace

void flush_program_output()
{
  dl_iterate_phdr(flush_fortran, nullptr);
  std::fflush(nullptr);
}

void reject_setting(const std::string& message)
{
  parts::end_progress(); // the error starts on a line of its own
  std::fprintf(stderr, "haec: %s\n", text::one_line(message).c_str());
  std::fflush(stderr);
  // From inside a rank (an input found bad while it runs: a trace's counters), SimGrid's exit
  // handler would abort the process since the ranks did not finalize, hiding the status.
  if (sg4::Actor::self() != nullptr) {
    flush_program_output();
    std::_Exit(2);
  }
  std::exit(2);
}

void fail_run(const std::string& message)
{
  parts::end_progress();
  std::fprintf(stderr, "haec: %s\n", text::one_line(message).c_str());
  std::fflush(stderr);
  std::exit(3);
}

namespace parts {

RunRecord& run_record()
{
  static RunRecord record(values().boolean("haec/messages"));
  return record;
}

const std::optional<RunDescription>& run_description()
{
  return context().description;
}

} // namespace parts
} // namespace haec::core
