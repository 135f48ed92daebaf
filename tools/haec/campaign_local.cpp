// The local executor: `jobs` haec run children at a time, each in its own process group so an
// interrupted campaign stops whole runs (haec run, smpirun and the simulator). Each child also
// gets SIGTERM when the campaign dies, even by SIGKILL (PR_SET_PDEATHSIG): haec run then stops its
// simulation and removes its staging directory as on any interrupt.
#include "campaign_exec.hpp"
#include "install_paths.hpp"
#include "process.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;
namespace fs = std::filesystem;

namespace haec::cli {

fs::path run_dir(const CampaignPlan& p, size_t i)
{
  return p.out / "runs" / p.campaign.runs[i].id;
}

fs::path log_path(const CampaignPlan& p, size_t i)
{
  return p.out / "logs" / (p.campaign.runs[i].id + ".log");
}

std::vector<std::string> run_argv(const CampaignPlan& p, size_t i)
{
  std::vector<std::string> argv = {self_dir() + "/haec", "run", "--quiet", "--out=" + run_dir(p, i).string()};
  const auto& args = p.campaign.runs[i].args;
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

bool run_finished(const CampaignPlan& p, size_t i)
{
  return fs::is_regular_file(run_dir(p, i) / "summary.json");
}

namespace {

using Clock = std::chrono::steady_clock;

// The interrupt signals (process.hpp) and SIGCHLD are blocked and taken with sigtimedwait: the loop
// wakes the moment a run ends or the user interrupts (a sleeping poll left a core idle between
// short runs).
struct BlockedSignals {
  sigset_t set{}, before{};
  BlockedSignals()
  {
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    for (int s : kInterruptSignals)
      sigaddset(&set, s);
    sigprocmask(SIG_BLOCK, &set, &before);
  }
  ~BlockedSignals() { sigprocmask(SIG_SETMASK, &before, nullptr); }
  // The next of them, waiting at most `seconds` (0 when none came: nothing is lost by it).
  int wait(int seconds) const
  {
    siginfo_t info;
    const timespec limit{seconds, 0};
    const int sig = sigtimedwait(&set, &info, &limit);
    return sig < 0 ? 0 : sig;
  }
};

[[noreturn]] void exec_run(const CampaignPlan& p, size_t i, const std::vector<std::string>& argv,
                           const sigset_t& child_mask, pid_t campaign)
{
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != campaign) // the campaign died before the line above
    ::_exit(127);
  const int log = ::open(log_path(p, i).c_str(), O_WRONLY | O_APPEND);
  if (log < 0 || ::dup2(log, 1) < 0 || ::dup2(log, 2) < 0 || ::chdir(p.campaign.workdir.c_str()) != 0)
    ::_exit(127);
  ::close(log);
  ::sigprocmask(SIG_SETMASK, &child_mask, nullptr); // the run sees the signal mask haec was given
  std::vector<char*> args;
  for (const auto& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::execve(args[0], args.data(), environ);
  ::_exit(127);
}

pid_t spawn_run(const CampaignPlan& p, size_t i, const sigset_t& child_mask)
{
  const auto argv = run_argv(p, i);
  std::ofstream(log_path(p, i)) << "# " << shell_line({}, argv) << "\n";
  const pid_t campaign = ::getpid();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0)
    exec_run(p, i, argv, child_mask, campaign);
  if (pid > 0)
    ::setpgid(pid, pid); // whichever runs first: the group exists before anyone signals it
  return pid;
}

struct Progress {
  size_t total = 0, done = 0, failed = 0, running = 0;
  double run_seconds = 0; // summed wall time of the runs that ended
  int jobs           = 1;
  std::string last;

  std::string eta() const
  {
    const size_t ended = done + failed, left = total - ended;
    if (ended == 0)
      return "?";
    const long s = static_cast<long>(run_seconds / static_cast<double>(ended) * static_cast<double>(left) / jobs + 0.5);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
  }

  void show(bool final = false)
  {
    char line[160];
    std::snprintf(line, sizeof line, "campaign: %zu/%zu done, %zu running, %zu failed, ETA %s", done, total, running,
                  failed, eta().c_str());
    const bool tty = ::isatty(2);
    if (line == last && !final)
      return;
    last = line;
    std::fprintf(stderr, tty ? "\r\033[K%s%s" : "%s%s", line, tty && !final ? "" : "\n");
    std::fflush(stderr);
  }
};

struct RunningRun {
  size_t run;              // index in the campaign
  Clock::time_point start; // for the ETA
};

void stop_children(const std::map<pid_t, RunningRun>& running)
{
  for (const auto& [pid, run] : running)
    ::kill(-pid, SIGTERM);
  for (const auto& [pid, run] : running) {
    int status = 0;
    ::waitpid(pid, &status, 0);
  }
}

void report_failure(const CampaignPlan& p, size_t i, int status)
{
  const std::string how = WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                            : "signal " + std::to_string(WTERMSIG(status));
  std::fprintf(stderr, "%shaec: run %s failed (%s); see %s\n", ::isatty(2) ? "\r\033[K" : "",
               p.campaign.runs[i].id.c_str(), how.c_str(), log_path(p, i).c_str());
}

// Records how run i ended (its child reaped with this status).
void end_run(CampaignPlan& p, size_t i, int status, Progress& bar)
{
  const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && run_finished(p, i);
  p.states[i]   = ok ? RunState::done : RunState::failed;
  ++(ok ? bar.done : bar.failed);
  if (!ok)
    report_failure(p, i, status);
}

} // namespace

void announce(const CampaignPlan& p)
{
  std::fprintf(stderr, "campaign: %zu runs, %zu already finished\n", p.states.size(), p.finished_before);
}

int run_local(CampaignPlan& p, int jobs)
{
  fs::create_directories(p.out / "logs");
  announce(p);
  std::vector<size_t> queue;
  for (size_t i = 0; i < p.states.size(); ++i)
    if (p.states[i] == RunState::pending)
      queue.push_back(i);
  Progress bar;
  bar.total = queue.size();
  bar.jobs  = jobs;
  const BlockedSignals signals;
  std::map<pid_t, RunningRun> running;
  size_t next     = 0;
  int interrupted = 0;
  while ((next < queue.size() || !running.empty()) && !interrupted) {
    while (next < queue.size() && running.size() < static_cast<size_t>(jobs) && pending_interrupt() == 0) {
      const size_t i  = queue[next++];
      const pid_t pid = spawn_run(p, i, signals.before);
      if (pid < 0) {
        p.states[i] = RunState::failed;
        ++bar.failed;
        report_failure(p, i, 127 << 8);
        continue;
      }
      running[pid] = {i, Clock::now()};
    }
    bar.running = running.size();
    bar.show();
    int status = 0;
    pid_t pid  = 0;
    bool ended = false;
    while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
      auto it = running.find(pid);
      if (it == running.end())
        continue;
      bar.run_seconds += std::chrono::duration<double>(Clock::now() - it->second.start).count();
      end_run(p, it->second.run, status, bar);
      running.erase(it);
      ended = true;
    }
    // Sleep only while runs are going and none has just ended; an interrupt is seen either way
    // (one that came before the signals were blocked was recorded by haec's handler).
    const int sig = signals.wait(ended || running.empty() ? 0 : 1);
    if (is_interrupt_signal(sig))
      interrupted = sig;
    else if (pending_interrupt() != 0)
      interrupted = pending_interrupt();
  }
  bar.running = running.size();
  bar.show(true);
  if (interrupted) {
    stop_children(running);
    std::fprintf(stderr, "haec: campaign interrupted (%s); finished runs are kept, run the same command again to resume\n",
                 signal_name(interrupted).c_str());
    return 128 + interrupted;
  }
  return 0;
}

} // namespace haec::cli
