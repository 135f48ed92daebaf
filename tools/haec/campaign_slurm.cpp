// The Slurm executor: the pending runs become one job array (one array task per run, at most
// `jobs` at a time); each task runs its haec run line from DIR/slurm/commands.txt. The campaign
// polls squeue until the array has left the queue, then collects like the local executor.
#include "atomic_file.hpp"
#include "campaign_exec.hpp"
#include "input_error.hpp"
#include "process.hpp"

#include <csignal>
#include <cstdio>
#include <memory>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace haec::cli {
namespace {

// Runs a shell command; returns its exit status and fills `out` with its stdout and stderr.
int capture(const std::string& command, std::string& out)
{
  out.clear();
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen((command + " 2>&1").c_str(), "r"), ::pclose);
  if (!pipe)
    return -1;
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe.get()))
    out += buf;
  const int rc = ::pclose(pipe.release());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::string first_line(const std::string& s)
{
  const std::string line = s.substr(0, s.find('\n'));
  return line.empty() ? "no output" : line.substr(0, 120);
}

std::string array_script(const CampaignPlan& p)
{
  const fs::path slurm = p.out / "slurm";
  return "#!/bin/bash\n"
         "# One array task per run (written by haec campaign run --executor slurm).\n"
         "#SBATCH --job-name=haec-campaign\n"
         "#SBATCH --ntasks=1\n"
         "#SBATCH --output=" + (slurm / "task-%a.out").string() + "\n"
         "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " + shell_line({}, {(slurm / "commands.txt").string()}) + ")\n"
         "eval \"$line\"\n";
}

// The pending runs' command lines, one per array task; returns their run indices.
std::vector<size_t> write_commands(const CampaignPlan& p)
{
  std::vector<size_t> tasks;
  std::string lines;
  for (size_t i = 0; i < p.states.size(); ++i) {
    if (p.states[i] != RunState::pending)
      continue;
    tasks.push_back(i);
    lines += "cd " + shell_line({}, {p.campaign.workdir}) + " && " + shell_line({}, run_argv(p, i)) + " > " + shell_line({}, {log_path(p, i).string()}) + " 2>&1\n";
  }
  fs::create_directories(p.out / "slurm");
  fs::create_directories(p.out / "logs");
  write_file_atomic((p.out / "slurm" / "commands.txt").string(), lines);
  write_file_atomic((p.out / "slurm" / "array.sh").string(), array_script(p));
  return tasks;
}

bool in_queue(const std::string& job)
{
  std::string out;
  return capture("squeue -h -j " + job + " -o %i", out) == 0 && out.find_first_not_of(" \n") != std::string::npos;
}

void show(const CampaignPlan& p, const std::vector<size_t>& tasks, const std::string& job)
{
  size_t done = 0;
  for (size_t i : tasks)
    done += run_finished(p, i);
  std::fprintf(stderr, "%scampaign: Slurm job %s: %zu/%zu done%s", ::isatty(2) ? "\r\033[K" : "", job.c_str(), done,
               tasks.size(), ::isatty(2) ? "" : "\n");
}

} // namespace

void check_slurm_reachable()
{
  std::string out;
  // Without a slurm.conf, scontrol looks for a configuration server in DNS for a minute.
  const int rc = capture("timeout 10 scontrol ping", out);
  if (rc == 124)
    out = "no answer within 10 s";
  if (rc != 0 || out.find("is UP") == std::string::npos)
    throw InputError("--executor slurm", "no Slurm controller is reachable (scontrol ping: " + first_line(out) + ")",
                     "start Slurm or use --executor local");
}

int run_slurm(CampaignPlan& p, int jobs)
{
  const std::vector<size_t> tasks = write_commands(p);
  if (tasks.empty()) {
    announce(p);
    return 0;
  }
  const std::string script = (p.out / "slurm" / "array.sh").string();
  std::string job;
  const std::string cmd = "sbatch --parsable --array=0-" + std::to_string(tasks.size() - 1) + "%" +
                          std::to_string(jobs) + " " + shell_line({}, {script});
  if (capture(cmd, job) != 0)
    throw std::runtime_error("sbatch refused the job array: " + first_line(job));
  job = job.substr(0, job.find_first_of(";\n"));
  announce(p);
  int interrupted = 0; // haec's handlers (cmd_campaign.cpp) record the signal; sleep() returns early
  while ((interrupted = pending_interrupt()) == 0 && in_queue(job)) {
    show(p, tasks, job);
    ::sleep(1);
  }
  if (interrupted == 0) // a signal that came while squeue ran (and ended it)
    interrupted = pending_interrupt();
  std::string ignored;
  if (interrupted) {
    capture("scancel " + job, ignored);
    std::fprintf(stderr, "\nhaec: campaign interrupted (%s); Slurm job %s cancelled, finished runs are kept\n",
                 signal_name(interrupted).c_str(), job.c_str());
  } else {
    show(p, tasks, job);
    std::fprintf(stderr, ::isatty(2) ? "\n" : "");
  }
  for (size_t i : tasks) {
    p.states[i] = run_finished(p, i) ? RunState::done : interrupted ? RunState::pending : RunState::failed;
    if (p.states[i] == RunState::failed)
      std::fprintf(stderr, "haec: run %s failed; see %s\n", p.campaign.runs[i].id.c_str(), log_path(p, i).c_str());
  }
  return interrupted ? 128 + interrupted : 0;
}

} // namespace haec::cli
