// `haec trace`: record a TI trace through the PMPI layer (record), check one (check), and convert
// between OTF2 and our traces/results (import, export: trace_otf2.cpp). See libs/trace/README.md.
#include "atomic_file.hpp"
#include "commands.hpp"
#include "input_error.hpp"
#include "install_paths.hpp"
#include "process.hpp"
#include "ti_check.hpp"
#include "trace_otf2.hpp"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace haec::cli {
namespace {

// The raw command line (haec's main rewrites "-np" and CLI11 drops "--"): record hands
// everything but its own options to `haec run` unchanged.
std::vector<std::string> raw_arguments()
{
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  std::string a;
  while (std::getline(in, a, '\0'))
    args.push_back(a);
  return args;
}

struct RecordOptions {
  std::string out, keep_run;
  bool force = false;
  std::vector<std::string> ignored; // record() reads the raw command line instead
};

// haec trace record <run options...> [--out T] [--keep-run D] [--force] -- APP ARGS: our own
// options out of the raw command line, the rest for haec run, and the program.
void split_command_line(RecordOptions& o, std::vector<std::string>& run_args, std::vector<std::string>& app)
{
  auto raw = raw_arguments();
  size_t i = 0;
  while (i < raw.size() && raw[i] != "record")
    ++i;
  bool after = false;
  for (++i; i < raw.size(); ++i) {
    const std::string& a = raw[i];
    if (after) {
      app.push_back(a);
    } else if (a == "--") {
      after = true;
    } else if ((a == "--out" || a == "--keep-run") && i + 1 < raw.size()) {
      (a == "--out" ? o.out : o.keep_run) = raw[++i]; // ours, with its value
    } else if (a.rfind("--out=", 0) == 0) {
      o.out = a.substr(6);
    } else if (a.rfind("--keep-run=", 0) == 0) {
      o.keep_run = a.substr(11);
    } else if (a == "--force") {
      o.force = true;
    } else if (a == "--replay" || a.rfind("--replay=", 0) == 0) {
      throw InputError("haec trace record --replay", "records a program, not a trace", "give the program after --");
    } else {
      run_args.push_back(a);
    }
  }
  if (o.out.empty())
    throw InputError("haec trace record", "--out is required", "give the trace to write: --out TRACE");
  if (app.empty())
    throw InputError("haec trace record", "no program to record", "give it after --: haec trace record ... -- APP ARGS");
}

// The recorded rank files, checked, as the list file's text (paths relative to the list's directory).
std::string checked_list(const fs::path& ranks_dir, const fs::path& files, int ranks, const std::string& program)
{
  std::string list_text;
  for (int r = 0; r < ranks; ++r) {
    const fs::path f = ranks_dir / ("rank-" + std::to_string(r) + ".txt");
    if (!fs::exists(f))
      throw InputError("haec trace record " + program, "rank " + std::to_string(r) + " left no trace",
                       "build it with haec cc, cxx, f77 or fc (MPI through libhaec_pmpi) and let every rank reach "
                       "MPI_Finalize");
    trace::check_ti_rank_text(read_file(f.string(), "TI trace"), f.string(), r, ranks);
    list_text += (files.filename() / f.filename()).string() + "\n"; // relative: the trace can be moved
  }
  return list_text;
}

// The rank files first, the list (what users name) last; the run's directory when kept.
void move_into_place(const RecordOptions& o, const fs::path& stage, const fs::path& list, const fs::path& files,
                     const std::string& list_text)
{
  if (o.force) {
    fs::remove_all(files);
    fs::remove(list);
  }
  fs::rename(stage / "ranks", files);
  write_file_atomic(list.string(), list_text);
  if (!o.keep_run.empty()) {
    fs::create_directories(fs::absolute(o.keep_run).parent_path());
    fs::rename(stage / "run", fs::absolute(o.keep_run));
  }
}

int record(RecordOptions o)
{
  std::vector<std::string> run_args, app;
  split_command_line(o, run_args, app);
  const fs::path list  = fs::absolute(o.out);
  const fs::path files = list.string() + "_files";
  if ((fs::exists(list) || fs::exists(files)) && !o.force)
    throw InputError("--out " + o.out, "already exists (or its " + files.filename().string() + " directory)",
                     "choose another name or add --force");
  if (!o.keep_run.empty() && fs::exists(o.keep_run))
    throw InputError("--keep-run " + o.keep_run, "already exists", "choose another directory");

  fs::create_directories(list.parent_path());
  const fs::path stage = list.string() + ".tmp-" + std::to_string(::getpid());
  std::error_code ec;
  fs::remove_all(stage, ec);
  fs::create_directories(stage / "ranks");
  auto cleanup = [&] { fs::remove_all(stage, ec); };
  try {
    std::vector<std::string> argv = {self_dir() + "/haec", "run"};
    argv.insert(argv.end(), run_args.begin(), run_args.end());
    argv.insert(argv.end(), {"--out", (stage / "run").string(), "--quiet", "--"});
    argv.insert(argv.end(), app.begin(), app.end());
    ChildResult r = run_child(argv, {"HAEC_TRACE_OUT=" + (stage / "ranks").string()}, "", "");
    if (r.exit_code != 0) { // haec run printed its own one-line error
      cleanup();
      return r.exit_code > 0 ? r.exit_code : 3;
    }
    if (fs::exists(stage / "ranks" / "error.txt")) {
      std::string why = read_file((stage / "ranks" / "error.txt").string(), "recorder error");
      while (!why.empty() && why.back() == '\n')
        why.pop_back();
      cleanup();
      throw InputError("haec trace record " + app[0], why, "simulate this program online with haec run -- APP");
    }
    auto summary    = nlohmann::json::parse(read_file((stage / "run" / "summary.json").string(), "summary.json"));
    const int ranks = summary["ranks"].get<int>();
    move_into_place(o, stage, list, files, checked_list(stage / "ranks", files, ranks, app[0]));
    cleanup();
    std::printf("%-22s %s (%d ranks, files in %s)\n", "trace", o.out.c_str(), ranks, files.string().c_str());
    std::printf("%-22s %.9f s\n", "emulated makespan", summary["makespan_s"].get<double>());
  } catch (...) {
    cleanup();
    throw;
  }
  return 0;
}

void add_otf2_commands(CLI::App& trace)
{
  struct Ex {
    std::string dir, out, trace;
  };
  auto ex = std::make_shared<Ex>();
  auto* e = trace.add_subcommand("export", "Write a result directory (events.csv from haec run --events, messages.csv, "
                                           "power.csv) as an OTF2 archive Vampir opens");
  e->add_option("result_dir", ex->dir, "Result directory of haec run --events [--messages] [--power-series]")->required();
  e->add_option("--out", ex->out, "Directory to create; the anchor is OUT/traces.otf2")->required();
  e->add_option("--trace", ex->trace, "The TI trace a replay replayed (default: from its command.txt)");
  e->callback([ex] { exit_code() = export_run(ex->dir, ex->out, ex->trace); });

  struct Im {
    std::string anchor, out, speed = "1Gf";
  };
  auto im = std::make_shared<Im>();
  auto* i = trace.add_subcommand("import", "Convert an OTF2 trace (e.g. Score-P) into a SimGrid TI trace");
  i->add_option("anchor", im->anchor, "The archive's .otf2 anchor file")->required();
  i->add_option("--out", im->out, "TI list file to write; rank files go to OUT_files/")->required();
  i->add_option("--host-speed", im->speed, "Speed that turns time between MPI calls into flops")->capture_default_str();
  i->callback([im] { exit_code() = import_otf2(im->anchor, im->out, im->speed); });
}

} // namespace

void add_trace_command(CLI::App& app)
{
  auto* trace = app.add_subcommand("trace", "Record, check, import and export traces (libs/trace/README.md)");
  trace->require_subcommand(1);

  auto ro  = std::make_shared<RecordOptions>();
  auto* rec = trace->add_subcommand(
      "record", "Run a program under SMPI (all haec run options) and record a SimGrid time-independent trace: "
                "haec trace record [run options] --out TRACE [--keep-run DIR] [--force] -- APP ARGS");
  // Everything is read from the raw command line (record()): run options pass through unchanged.
  rec->prefix_command(true);
  rec->callback([ro] { exit_code() = record(*ro); });

  auto ranks = std::make_shared<int>(-1);
  auto path  = std::make_shared<std::string>();
  auto* chk  = trace->add_subcommand("check", "Check a TI trace line by line (what haec run --replay would replay)");
  chk->add_option("trace", *path, "TI trace (list file or single trace)")->required();
  chk->add_option("-n,--np", *ranks, "Number of ranks of the replay (default: from the list)");
  chk->callback([path, ranks] {
    trace::check_ti_trace(*path, *ranks);
    std::printf("%s: ok\n", path->c_str());
  });

  add_otf2_commands(*trace);
}

} // namespace haec::cli
