// `haec campaign run FILE --out DIR` and `haec campaign report DIR` (docs/guide/campaigns.md).
// Every run of the campaign passes haec run's own checks before anything is written.
#include "atomic_file.hpp"
#include "campaign_exec.hpp"
#include "campaign_inputs.hpp"
#include "input_error.hpp"
#include "install_paths.hpp"
#include "process.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace haec::cli {
namespace {

struct CampaignOptions {
  std::string file, out, executor = "local", report_dir;
  int jobs = 0;
};

// "platform=cluster:4 map=xyz", each value at most 40 characters (an error line quotes it).
std::string run_label(const CampaignRun& run)
{
  std::string s;
  for (const auto& [axis, value] : run.axes)
    s += (s.empty() ? "" : " ") + axis + "=" + (value.size() <= 40 ? value : value.substr(0, 37) + "...");
  return s;
}

// Each run through haec run's checks (a failing one names its axis values).
std::vector<RunPreview> check_runs(const CampaignPlan& p)
{
  std::vector<RunPreview> previews;
  for (size_t i = 0; i < p.campaign.runs.size(); ++i) {
    std::vector<std::string> args = p.campaign.runs[i].args;
    args.insert(args.begin(), "--out=" + run_dir(p, i).string());
    try {
      previews.push_back(check_run_arguments(args));
    } catch (const InputError& e) {
      throw InputError(p.campaign.file + ": run " + run_label(p.campaign.runs[i]), e.what(), "");
    }
  }
  return previews;
}

void check_out_dir(const CampaignOptions& o)
{
  const fs::path out(o.out);
  if (fs::exists(out) && !fs::is_directory(out))
    throw InputError("--out " + o.out, "is not a directory", "choose a new directory");
  if (fs::is_directory(out) && !fs::is_empty(out) && !fs::exists(out / "campaign.json"))
    throw InputError("--out " + o.out, "exists and is not a campaign directory", "choose a new directory");
}

// One campaign per directory at a time; then the staging directories of runs killed with an
// earlier campaign are stale and go.
int lock_out_dir(const CampaignPlan& p)
{
  fs::create_directories(p.out / "runs");
  const int fd = ::open((p.out / ".lock").c_str(), O_RDWR | O_CREAT, 0644);
  if (fd < 0 || ::flock(fd, LOCK_EX | LOCK_NB) != 0)
    throw InputError("--out " + p.out.string(), "another campaign is running in this directory", "wait for it to end");
  for (const auto& e : fs::directory_iterator(p.out / "runs"))
    if (e.path().filename().string().find(".tmp-") != std::string::npos)
      fs::remove_all(e.path());
  return fd;
}

void write_campaign_json(const CampaignPlan& p)
{
  nlohmann::ordered_json j;
  j["file"] = fs::absolute(p.campaign.file).string();
  j["axes"] = p.campaign.axis_names;
  for (size_t i = 0; i < p.campaign.runs.size(); ++i)
    j["runs"].push_back({{"id", p.campaign.runs[i].id}, {"command", shell_line({}, run_argv(p, i))}});
  write_file_atomic((p.out / "campaign.json").string(), j.dump(2) + "\n");
}

// What defines every run's result besides its own inputs: haec's version and the build of its
// suite, and the SimGrid library (a rebuilt or upgraded one may give other figures).
std::string result_environment()
{
  return std::string("haec ") + HAEC_VERSION + ", suite " + content_digest(suite_library()) + ", SimGrid " +
         content_digest(HAEC_SIMGRID_LIBRARY);
}

// A campaign directory this command created: removed again when the campaign fails before any run
// finished (an sbatch refusal, a full disk at campaign.json), so that nothing is left that a later
// campaign would take for progress. A directory that held a campaign already is left as it was,
// its finished runs included.
class NewDirectory {
public:
  explicit NewDirectory(const fs::path& out) : out_(out)
  {
    std::error_code ec;
    is_new_    = !fs::exists(out, ec) || fs::is_empty(out, ec);
    had_slurm_ = fs::exists(out / "slurm", ec);
  }
  void remove_unless_progress(const CampaignPlan& p) const
  {
    std::error_code ec;
    if (!is_new_) {
      if (!had_slurm_)
        fs::remove_all(out_ / "slurm", ec);
      return;
    }
    for (size_t i = 0; i < p.states.size(); ++i)
      if (p.states[i] == RunState::done)
        return; // a run finished: the directory is progress now
    fs::remove_all(out_, ec);
  }

private:
  fs::path out_;
  bool is_new_ = false, had_slurm_ = false;
};

int execute(const CampaignOptions& o, CampaignPlan& p)
{
  const int lock = lock_out_dir(p);
  size_t finished = 0;
  for (size_t i = 0; i < p.campaign.runs.size(); ++i) {
    p.states.push_back(run_finished(p, i) ? RunState::done : RunState::pending);
    finished += p.states.back() == RunState::done;
  }
  p.finished_before = finished; // the executor says it once the runs are under way (an sbatch refusal is one line)
  write_campaign_json(p);
  const int jobs   = o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int status = o.executor == "slurm" ? run_slurm(p, jobs) : run_local(p, jobs);
  write_results(p);
  ::close(lock);
  return status;
}

int run_campaign(const CampaignOptions& o)
{
  InterruptHandlers interrupts; // every signal that ends haec: one line, its runs stopped (process.hpp)
  CampaignPlan p;
  p.campaign = read_campaign(o.file, result_environment());
  p.out      = fs::absolute(o.out);
  check_out_dir(o);
  if (o.executor == "slurm")
    check_slurm_reachable();
  p.previews = check_runs(p);
  DeferInterrupts defer; // from here on the directory exists: an interrupt stops the runs first
  NewDirectory created(p.out);
  int status = 0;
  try {
    status = execute(o, p);
  } catch (...) {
    created.remove_unless_progress(p);
    throw;
  }
  if (status != 0)
    return status;
  size_t failed = 0;
  for (auto s : p.states)
    failed += s == RunState::failed;
  if (failed) {
    std::fprintf(stderr, "haec: %s: %zu of %zu runs failed; see their logs in %s/logs\n", o.file.c_str(), failed,
                 p.states.size(), o.out.c_str());
    return 3;
  }
  std::printf("%s/results.csv: %zu runs\n", o.out.c_str(), p.states.size());
  return 0;
}

std::string shell_quote(const std::string& s)
{
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The report itself is scripts/campaign_report.py (matplotlib): it checks results.csv and prints
// its own line for bad input (exit 2) or an output it cannot write (exit 3).
int report_campaign(const CampaignOptions& o)
{
  if (!fs::is_regular_file(fs::path(o.report_dir) / "results.csv"))
    throw InputError(o.report_dir, "holds no results.csv", "give the --out directory of `haec campaign run`");
  const fs::path script = fs::path(self_dir()) / ".." / "share" / "haec" / "campaign" / "report.py";
  const char* py        = std::getenv("HAEC_PYTHON");
  const std::string python = py && *py ? py : "/usr/bin/python3";
  const std::string cmd = shell_quote(python) + " " + shell_quote(script.string()) + " " + shell_quote(o.report_dir);
  const int rc = std::system(cmd.c_str());
  if (rc != -1 && WIFEXITED(rc) && (WEXITSTATUS(rc) == 0 || WEXITSTATUS(rc) == 2 || WEXITSTATUS(rc) == 3 ||
                                    WEXITSTATUS(rc) == 130))
    return WEXITSTATUS(rc); // the script said why
  const std::string how = rc == -1 || (WIFEXITED(rc) && WEXITSTATUS(rc) == 127) ? "could not be started"
                          : WIFEXITED(rc) ? "ended with status " + std::to_string(WEXITSTATUS(rc))
                                          : "was killed by " + signal_name(WTERMSIG(rc));
  throw std::runtime_error(python + " " + how + " (campaign report); install python3-matplotlib or set HAEC_PYTHON");
}

// --jobs N: a whole number from 1 to kMaxJobs (CLI11's range check printed a 380-character line
// that contradicted itself for 0).
constexpr long kMaxJobs = 100000;
std::string jobs_check(std::string& value)
{
  errno      = 0;
  char* end  = nullptr;
  const long n = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno == ERANGE)
    return "'" + value + "' is not a whole number; give N >= 1";
  if (n < 1)
    return "must be at least 1";
  if (n > kMaxJobs)
    return "must be at most " + std::to_string(kMaxJobs);
  return "";
}

} // namespace

void add_campaign_command(CLI::App& app)
{
  auto o         = std::make_shared<CampaignOptions>();
  auto* campaign = app.add_subcommand("campaign", "Parameter sweeps of haec run: run a campaign file locally in "
                                                  "parallel or as a Slurm job array, and report its results");
  campaign->require_subcommand(1);
  auto* run = campaign->add_subcommand("run", "Run every run of a campaign file not finished yet into DIR/runs, "
                                              "then write DIR/results.csv");
  run->add_option("file", o->file, "Campaign file (JSON; docs/guide/campaigns.md)")->required();
  run->add_option("--out", o->out, "Campaign directory (results.csv, runs/, logs/)")->required();
  run->add_option("-j,--jobs", o->jobs, "Runs at a time (default: the number of cores)")
      ->check(CLI::Validator(jobs_check, "N >= 1"));
  run->add_option("--executor", o->executor, "local (child processes here) or slurm (one sbatch --array job)")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str();
  run->callback([o] { exit_code() = run_campaign(*o); });
  auto* report = campaign->add_subcommand("report", "Plots and DIR/report/index.html from DIR/results.csv");
  report->add_option("dir", o->report_dir, "Campaign directory")->required();
  report->callback([o] { exit_code() = report_campaign(*o); });
}

} // namespace haec::cli
