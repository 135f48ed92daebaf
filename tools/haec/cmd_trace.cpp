// `haec trace`: record a TI trace through the PMPI layer (record), check one (check), and convert
// between OTF2 and our traces/results (import, export: trace_otf2.cpp). See libs/trace/README.md.
#include "atomic_file.hpp"
#include "commands.hpp"
#include "input_error.hpp"
#include "install_paths.hpp"
#include "process.hpp"
#include "run_output.hpp"
#include "text.hpp"
#include "ti_check.hpp"
#include "ti_repair.hpp"
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
  InterruptHandlers interrupts; // as haec run: 130/143, nothing left behind
  std::vector<std::string> run_args, app;
  split_command_line(o, run_args, app);
  const fs::path list  = fs::absolute(o.out);
  const fs::path files = list.string() + "_files";
  if ((fs::exists(list) || fs::exists(files)) && !o.force)
    throw InputError("--out " + o.out, "already exists (or its " + files.filename().string() + " directory)",
                     "choose another name or add --force");
  if (!o.keep_run.empty() && fs::exists(o.keep_run))
    throw InputError("--keep-run " + o.keep_run, "already exists", "choose another directory");

  DeferInterrupts defer;
  const fs::path stage = make_stage(o.out, list);
  std::error_code ec;
  fs::create_directories(stage / "ranks");
  auto cleanup = [&] { fs::remove_all(stage, ec); };
  try {
    std::vector<std::string> argv = {self_dir() + "/haec", "run"};
    argv.insert(argv.end(), run_args.begin(), run_args.end());
    argv.insert(argv.end(), {"--out", (stage / "run").string(), "--quiet", "--"});
    argv.insert(argv.end(), app.begin(), app.end());
    // A failed recording keeps its log (and with --keep-failed its run) next to the trace.
    ChildResult r = run_child(argv, {"HAEC_TRACE_OUT=" + (stage / "ranks").string(), "HAEC_FAILED_PREFIX=" + list.string()},
                              "", "", stage.string());
    if (r.interrupted_by != 0 && r.exit_code != 128 + r.interrupted_by)
      throw Interrupted(r.interrupted_by);
    if (r.exit_code != 0) { // haec run printed its own error (and "interrupted" if it was)
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
    const std::string list_text = checked_list(stage / "ranks", files, ranks, app[0]);
    throw_if_interrupted();
    move_into_place(o, stage, list, files, list_text);
    cleanup();
    std::printf("%-22s %s (%d ranks, files in %s)\n", "trace", o.out.c_str(), ranks, files.string().c_str());
    std::printf("%-22s %.9f s\n", "emulated makespan", summary["makespan_s"].get<double>());
  } catch (...) {
    cleanup();
    throw;
  }
  return 0;
}

// -np given explicitly must be a rank count (-1 is "not given").
void check_np_option(const CLI::App& cmd, int ranks)
{
  if (cmd.count("--np") > 0 && ranks <= 0)
    throw InputError("-np " + std::to_string(ranks), "is not a positive number of ranks", "give the replay's rank count");
}

struct RepairOptions {
  std::string trace, out;
  int ranks  = -1;
  bool force = false;
};

// Writes the repaired rank files into a staging directory, checks the result as a replay would,
// then moves it into place (OUT_files/rank-<r>.txt and the list OUT, absolute paths).
int repair(const RepairOptions& o)
{
  const fs::path list = fs::absolute(o.out), files = list.string() + "_files";
  if ((fs::exists(list) || fs::exists(files)) && !o.force)
    throw InputError("--out " + o.out, "already exists (or its " + files.filename().string() + " directory)",
                     "choose another name or add --force");
  trace::RepairResult r = trace::repair_ti_trace(o.trace, o.ranks);
  if (r.problems.size() == 1) {
    std::fprintf(stderr, "haec: %s; nothing was written\n", text::one_line(r.problems[0]).c_str());
    return 2;
  }
  if (!r.problems.empty()) {
    for (size_t i = 0; i < r.problems.size() && i < 10; ++i)
      std::fprintf(stderr, "haec: %s\n", text::one_line(r.problems[i]).c_str());
    std::fprintf(stderr, "haec: %s: %zu place(s) cannot be repaired (listed above%s); nothing was written\n",
                 o.trace.c_str(), r.problems.size(), r.problems.size() > 10 ? ", the first 10" : "");
    return 2;
  }
  InterruptHandlers interrupts;
  DeferInterrupts defer;
  const fs::path stage = make_stage(o.out, list);
  std::error_code ec;
  try {
    std::string staged_list, final_list;
    for (size_t k = 0; k < r.rank_texts.size(); ++k) {
      const std::string name = "rank-" + std::to_string(k) + ".txt";
      write_file_atomic((stage / name).string(), r.rank_texts[k]);
      staged_list += (stage / name).string() + "\n";
      final_list += (files / name).string() + "\n";
    }
    write_file_atomic((stage / "list.txt").string(), staged_list);
    trace::check_ti_trace((stage / "list.txt").string(), static_cast<int>(r.rank_texts.size()));
    fs::remove(stage / "list.txt");
    throw_if_interrupted();
    if (o.force) {
      fs::remove_all(files);
      fs::remove(list);
    }
    fs::rename(stage, files);
    write_file_atomic(list.string(), final_list);
  } catch (...) {
    fs::remove_all(stage, ec);
    throw;
  }
  std::printf("%s: %d waitall rewritten (%d waits written), %d non-blocking collectives as haec_* actions, %d "
              "wildcard receives given their source\n",
              o.trace.c_str(), r.waitalls_rewritten, r.waits_written, r.collectives, r.wildcards);
  std::printf("wrote %s (%zu ranks, files in %s)%s\n", o.out.c_str(), r.rank_texts.size(), files.string().c_str(),
              r.collectives ? "; its haec_* actions replay with haec run --replay, not with plain smpirun -replay" : "");
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
  auto* chk  = trace->add_subcommand("check", "Check a TI trace as every replay does first: each line, each rank's "
                                              "sequence, and a matching simulation of its messages and collectives "
                                              "(exit 2: bad trace, 4: deadlock)");
  chk->add_option("trace", *path, "TI trace (list file or single trace)")->required();
  chk->add_option("-n,--np", *ranks, "Number of ranks of the replay (default: from the list)");
  chk->callback([chk, path, ranks] {
    check_np_option(*chk, *ranks);
    trace::check_ti_trace(*path, *ranks);
    std::printf("%s: ok\n", path->c_str());
  });

  auto rep = std::make_shared<RepairOptions>();
  auto* rp = trace->add_subcommand("repair", "Rewrite a trace of SimGrid's own tracer (smpirun -trace-ti) into one "
                                             "that replays, where the trace holds the information (libs/trace/README.md)");
  rp->add_option("trace", rep->trace, "TI trace written by smpirun -trace-ti (list file or single trace)")->required();
  rp->add_option("-n,--np", rep->ranks, "Number of ranks (default: from the list)");
  rp->add_option("--out", rep->out, "The repaired trace: a list file, its rank files in OUT_files/")->required();
  rp->add_flag("--force", rep->force, "Replace an existing OUT");
  rp->callback([rp, rep] {
    check_np_option(*rp, rep->ranks);
    exit_code() = repair(*rep);
  });

  add_otf2_commands(*trace);
}

} // namespace haec::cli
