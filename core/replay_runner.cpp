// SimGrid 3.32's replay loop with a cheaper trace reader (libs/trace/replay_reader.hpp). SMPI
// replays each rank's file with simgrid::xbt::replay_runner, which libsimgrid calls through its PLT,
// so this preloaded definition replaces it, as replay_actions.cpp does for the registration.
// Same lines, same tokens, same action functions, same warnings and errors, in the same order:
// the replay's results do not change (tests/integration/test_replay_reader.sh compares every
// action's simulated time with SimGrid's own reader). A shared trace (no file name: MSG/s4u
// replays with xbt_replay_set_tracefile) goes to SimGrid's own loop, and so does everything with
// --cfg=haec/replay/reader:simgrid.
#include "core_parts.hpp"
#include "counter_annotation.hpp"
#include "input_error.hpp"
#include "replay_reader.hpp"
#include "run.hpp"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <xbt/log.h>
#include <xbt/replay.hpp>

#include <xbt/config.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(replay); // SimGrid's own category: --log=replay.thresh:... still applies

namespace {

using Runner = int (*)(const char*, const char*);

Runner simgrid_runner()
{
  static Runner real = reinterpret_cast<Runner>(dlsym(RTLD_NEXT, "_ZN7simgrid3xbt13replay_runnerEPKcS2_"));
  if (real == nullptr) {
    std::fprintf(stderr, "haec: cannot find SimGrid's replay_runner (%s)\n", dlerror());
    std::exit(2);
  }
  return real;
}

// This actor's copies of the registered action functions, taken at first use: SimGrid copies the
// function before every call (another rank may register again meanwhile); a copy per rank does
// the same without an allocation per action. SMPI registers the same functions for every rank.
class ActionTable {
  std::vector<std::pair<std::string, action_fun>> known_;

public:
  const action_fun& get(const std::string& name)
  {
    for (auto const& [known_name, fun] : known_)
      if (known_name == name)
        return fun;
    try {
      known_.emplace_back(name, xbt_replay_action_get(name.c_str()));
    } catch (const std::out_of_range&) {
      xbt_die("Replay Error: action %s is unknown, please register it properly in the replay engine", name.c_str());
    }
    return known_.back().second;
  }
};

void handle_action(ActionTable& table, simgrid::xbt::ReplayAction& action)
{
  if (action.size() < 2)
    xbt_die("Replay Error: line '%s' has no action", action.empty() ? "" : action[0].c_str());
  XBT_DEBUG("%s replays a %s action", action[0].c_str(), action[1].c_str());
  const action_fun& function = table.get(action[1]);
  try {
    function(action);
  } catch (const simgrid::Exception&) {
    action.clear();
    throw;
  }
}

// Our list files name rank files relative to the list's own directory (the trace can be moved);
// SMPI hands the name over as written, which it would resolve against the working directory.
std::string rank_file_path(const char* name)
{
  std::filesystem::path p(name);
  if (p.is_absolute() || std::filesystem::exists(p))
    return p.string();
  std::filesystem::path list = simgrid::config::get_value<std::string>("smpi/replay");
  std::error_code ec;
  if (std::filesystem::is_symlink(list, ec)) // a list whose path has a blank comes as a link (tools/haec/smpirun_words.hpp)
    list = std::filesystem::canonical(list, ec);
  const std::filesystem::path beside = list.parent_path() / p;
  return std::filesystem::exists(beside) ? beside.string() : p.string();
}

// A trace's `# RANK haec_counters EVENT=COUNT ...` line: the counts of this rank's next computation
// (core/computation_counters.cpp). Other comments, and annotations for another rank, are skipped.
void read_comment(const std::vector<std::string>& fields, const char* actor_name, const std::string& file, size_t line)
{
  try {
    auto sample = haec::trace::parse_counter_annotation(fields, file + ":" + std::to_string(line));
    if (!sample || fields[1] != actor_name)
      return;
    haec::core::parts::set_pending_counters(simgrid::s4u::this_actor::get_pid(), sample->events, sample->counts,
                                            file + ":" + std::to_string(line));
  } catch (const haec::InputError& e) {
    haec::core::reject_setting(e.what());
  }
}

} // namespace

// SMPI hands the only rank file of a one-rank trace to SimGrid's reader as a shared trace
// (smpi_deployment.cpp: a list of one line), which opens it as written, i.e. from the working
// directory: resolved here as the rank files of larger traces are. SimGrid's own function is
// found under the symbol name of this very declaration of <xbt/replay.hpp> (as replay_actions.cpp
// finds xbt_replay_action_register's).
void xbt_replay_set_tracefile(const std::string& filename)
{
  using Set         = void (*)(const std::string&);
  static Set simgrid = [] {
    Dl_info self{};
    void* sym = nullptr;
    if (dladdr(reinterpret_cast<void*>(static_cast<Set>(&::xbt_replay_set_tracefile)), &self) != 0 &&
        self.dli_sname != nullptr)
      sym = dlsym(RTLD_NEXT, self.dli_sname);
    if (sym == nullptr) {
      std::fprintf(stderr, "haec: cannot find SimGrid's xbt_replay_set_tracefile (%s)\n", dlerror());
      std::exit(3);
    }
    return reinterpret_cast<Set>(sym);
  }();
  simgrid(rank_file_path(filename.c_str()));
}

namespace simgrid::xbt {

int replay_runner(const char* actor_name, const char* trace_filename)
{
  // haec/replay/reader is checked with every haec setting when the platform is created (core_settings.cpp)
  if (trace_filename == nullptr)
    return simgrid_runner()(actor_name, trace_filename);
  const std::string file = rank_file_path(trace_filename);
  if (haec::core::settings().text("haec/replay/reader") == "simgrid")
    return simgrid_runner()(actor_name, file.c_str());
  XBT_VERB("Prepare to replay file '%s' (haec reader)", file.c_str());
  std::ifstream in;
  in.rdbuf()->pubsetbuf(nullptr, 0); // unbuffered: the reader reads blocks of its own
  in.open(file, std::ifstream::in);
  xbt_assert(in.is_open(), "Cannot read replay file '%s'", file.c_str());
  ActionTable table;
  ReplayAction action;
  haec::trace::ReplayReader reader(in);
  auto comment = [&](const std::vector<std::string>& fields) { read_comment(fields, actor_name, file, reader.lines()); };
  while (reader.next(action, comment)) {
    if (action.front() == actor_name)
      handle_action(table, action);
    else
      XBT_WARN("Ignore trace element not for me (target='%s', I am '%s')", action.front().c_str(), actor_name);
  }
  return 0;
}

} // namespace simgrid::xbt
