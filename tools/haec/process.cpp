// Child processes of haec and what happens to them when haec is interrupted or killed
// (process.hpp):
//
//   haec -> supervisor (own group, subreaper, outlives haec) -> smpirun -> smpimain ... (program group)
//
// haec waits with the interrupt signals blocked (sigtimedwait), so a signal can never slip in
// between "is there a signal?" and "wait for the child".
#include "process.hpp"
#include "smpirun_words.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace haec::cli {
namespace {

constexpr auto kGrace = std::chrono::seconds(2); // forwarded signal -> SIGKILL
constexpr size_t kSignalCount = sizeof kInterruptSignals / sizeof kInterruptSignals[0];

volatile sig_atomic_t g_signal    = 0; // first interrupt received while deferred
volatile sig_atomic_t g_deferring = 0; // DeferInterrupts depth
int g_handlers_installed          = 0;
struct sigaction g_previous[kSignalCount];

const char* fixed_signal_name(int sig)
{
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGUSR1: return "SIGUSR1";
    case SIGUSR2: return "SIGUSR2";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    default: return "a signal";
  }
}

void write_interrupted(int sig)
{
  // Async-signal-safe: fixed texts and write(2) only.
  for (const char* part : {"haec: interrupted (", fixed_signal_name(sig), "): nothing was written\n"}) {
    ssize_t ignored = ::write(2, part, std::strlen(part));
    (void)ignored;
  }
}

void on_interrupt(int sig)
{
  if (!g_deferring) {
    write_interrupted(sig);
    ::_exit(128 + sig);
  }
  if (g_signal == 0)
    g_signal = sig;
}

volatile sig_atomic_t g_parent_died = 0; // supervisor: haec is gone

void on_parent_death(int)
{
  g_parent_died = 1;
}

void redirect(const std::string& path, int fd)
{
  if (path.empty())
    return;
  int f = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (f < 0) {
    std::fprintf(stderr, "haec: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
    ::_exit(127);
  }
  ::dup2(f, fd);
  ::close(f);
}

[[noreturn]] void exec_program(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                               const std::string& stdout_path, const std::string& stderr_path)
{
  ::signal(SIGUSR1, SIG_DFL);
  for (auto const& kv : env)
    ::putenv(const_cast<char*>(kv.c_str()));
  redirect(stdout_path, 1);
  redirect(stderr_path, 2);
  std::vector<char*> args;
  for (auto const& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::execvp(args[0], args.data());
  std::fprintf(stderr, "haec: cannot start %s: %s\n", args[0], std::strerror(errno));
  ::_exit(127);
}

// Reaps every child left (the supervisor is the subreaper of the program's descendants, which
// were all sent SIGKILL).
void reap_all()
{
  while (::waitpid(-1, nullptr, 0) > 0 || errno == EINTR) {
  }
}

// The supervisor: in a process group of its own, so that signals sent to haec's group never reach
// it, it starts the program as the leader of another group, tells haec that group, and ends the
// way the program ended once nothing of the group is left. If haec dies (even by SIGKILL), it
// kills the group and removes `cleanup_path` (the staging directory) itself.
[[noreturn]] void supervise(pid_t haec, int report_fd, const std::vector<std::string>& argv,
                            const std::vector<std::string>& env, const std::string& stdout_path,
                            const std::string& stderr_path, const std::string& cleanup_path)
{
  ::setpgid(0, 0);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int s : kInterruptSignals)
    ::signal(s, SIG_DFL);
  struct sigaction sa {};
  sa.sa_handler = on_parent_death; // no SA_RESTART: waitpid returns EINTR
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGUSR1, &sa, nullptr);
  ::prctl(PR_SET_PDEATHSIG, SIGUSR1);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  if (::getppid() != haec) // haec died before the line above
    g_parent_died = 1;
  if (::isatty(0)) { // a background group reading the terminal would stop (SIGTTIN)
    int null = ::open("/dev/null", O_RDONLY);
    ::dup2(null, 0);
    ::close(null);
  }
  pid_t program = g_parent_died ? -1 : ::fork();
  if (program == 0) {
    ::setpgid(0, 0);
    ::close(report_fd);
    exec_program(argv, env, stdout_path, stderr_path);
  }
  if (program > 0) {
    ::setpgid(program, program); // whichever runs first
    ssize_t ignored = ::write(report_fd, &program, sizeof program);
    (void)ignored;
  }
  ::close(report_fd);
  // Wait without reaping, so that the group's id cannot be reused before it is killed.
  siginfo_t info{};
  while (program > 0 && !g_parent_died && ::waitid(P_PID, program, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  int status = 0;
  if (program > 0) {
    ::kill(-program, SIGKILL);
    while (::waitpid(program, &status, 0) < 0 && errno == EINTR) {
    }
    reap_all();
  }
  if (g_parent_died) {
    std::error_code ec;
    if (!cleanup_path.empty())
      std::filesystem::remove_all(cleanup_path, ec);
    remove_stale_words_dirs(); // haec-exec's, killed with the group before it could remove it
    ::_exit(137);
  }
  if (program < 0 || WIFEXITED(status))
    ::_exit(program < 0 ? 127 : WEXITSTATUS(status));
  const int sig = WTERMSIG(status);
  if (is_interrupt_signal(sig) || sig == SIGKILL) {
    ::prctl(PR_SET_PDEATHSIG, 0);
    ::signal(sig, SIG_DFL);
    ::kill(::getpid(), sig); // no core dump for these
  }
  ::_exit(128 + sig);
}

std::chrono::steady_clock::duration since(std::chrono::steady_clock::time_point t)
{
  return std::chrono::steady_clock::now() - t;
}

// Waits for the supervisor; forwards an interrupt to the program's group, then SIGKILLs the group
// when the grace period is over. Returns the supervisor's wait status.
int wait_for_group(pid_t supervisor, pid_t group, int& interrupted_by)
{
  sigset_t wanted, previous;
  sigemptyset(&wanted);
  sigaddset(&wanted, SIGCHLD);
  for (int s : kInterruptSignals)
    sigaddset(&wanted, s);
  ::sigprocmask(SIG_BLOCK, &wanted, &previous);
  int status = 0;
  std::chrono::steady_clock::time_point forwarded_at;
  bool forwarded = false, killed = false;
  for (;;) {
    pid_t w = ::waitpid(supervisor, &status, WNOHANG);
    if (w == supervisor || (w < 0 && errno != EINTR))
      break;
    int sig = g_signal;
    if (sig == 0) {
      timespec step{0, forwarded ? 20'000'000 : 500'000'000};
      siginfo_t info;
      int got = ::sigtimedwait(&wanted, &info, &step);
      if (got > 0 && got != SIGCHLD)
        sig = got;
    }
    if (sig != 0 && !forwarded) {
      interrupted_by = sig;
      g_signal       = sig;
      if (group > 0)
        ::kill(-group, sig);
      forwarded    = true;
      forwarded_at = std::chrono::steady_clock::now();
    }
    if (forwarded && !killed && since(forwarded_at) > kGrace) {
      if (group > 0)
        ::kill(-group, SIGKILL);
      killed = true;
    }
  }
  ::sigprocmask(SIG_SETMASK, &previous, nullptr);
  return status;
}

} // namespace

ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      const std::string& stdout_path, const std::string& stderr_path, const std::string& cleanup_path)
{
  ChildResult r;
  if (g_signal != 0) {
    r.interrupted_by = g_signal;
    return r;
  }
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0)
    return r;
  std::fflush(nullptr);
  const pid_t haec = ::getpid();
  pid_t supervisor = ::fork();
  if (supervisor == 0) {
    ::close(report[0]);
    supervise(haec, report[1], argv, env, stdout_path, stderr_path, cleanup_path);
  }
  ::close(report[1]);
  pid_t group = -1; // the program's process group: its pid
  while (supervisor > 0 && ::read(report[0], &group, sizeof group) < 0 && errno == EINTR) {
  }
  ::close(report[0]);
  if (supervisor < 0)
    return r;
  int status = wait_for_group(supervisor, group, r.interrupted_by);
  if (WIFEXITED(status))
    r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.signal = WTERMSIG(status);
  if (r.interrupted_by != 0 && g_handlers_installed == 0) { // nobody to clean up: act as the default action
    ::signal(r.interrupted_by, SIG_DFL);
    ::raise(r.interrupted_by);
  }
  return r;
}

static std::string quote(const std::string& s)
{
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_") ==
                        std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shell_line(const std::vector<std::string>& env, const std::vector<std::string>& argv)
{
  std::string line;
  for (auto const& e : env) {
    auto eq = e.find('=');
    line += e.substr(0, eq + 1) + quote(e.substr(eq + 1)) + " ";
  }
  for (size_t i = 0; i < argv.size(); ++i)
    line += (i ? " " : "") + quote(argv[i]);
  return line;
}

std::string signal_name(int sig)
{
  if (const std::string name = fixed_signal_name(sig); name != "a signal")
    return name;
  switch (sig) {
  case SIGKILL: return "SIGKILL";
  case SIGSEGV: return "SIGSEGV";
  case SIGABRT: return "SIGABRT";
  case SIGBUS: return "SIGBUS";
  case SIGFPE: return "SIGFPE";
  case SIGILL: return "SIGILL";
  default: return "signal " + std::to_string(sig);
  }
}

Interrupted::Interrupted(int sig)
    : std::runtime_error("interrupted (" + signal_name(sig) + "): the simulation was stopped and nothing was written")
    , signal(sig)
{
}

InterruptHandlers::InterruptHandlers()
{
  if (g_handlers_installed++ > 0)
    return;
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < kSignalCount; ++i)
    ::sigaction(kInterruptSignals[i], &sa, &g_previous[i]);
}

InterruptHandlers::~InterruptHandlers()
{
  if (--g_handlers_installed > 0)
    return;
  for (size_t i = 0; i < kSignalCount; ++i)
    ::sigaction(kInterruptSignals[i], &g_previous[i], nullptr);
}

DeferInterrupts::DeferInterrupts() { ++g_deferring; }
DeferInterrupts::~DeferInterrupts() { --g_deferring; }

int pending_interrupt()
{
  return g_signal;
}

void throw_if_interrupted()
{
  if (g_signal != 0)
    throw Interrupted(g_signal);
}

} // namespace haec::cli
