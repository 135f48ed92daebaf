// Child processes of haec and what happens to them when haec is interrupted or killed
// (process.hpp). The child runs under a supervisor that leads its process group:
//
//   haec (subreaper) -> supervisor (group leader, dies with haec) -> smpirun -> smpimain ...
//
// haec waits with the interrupt signals blocked (sigtimedwait), so a signal can never slip in
// between "is there a signal?" and "wait for the child".
#include "process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace haec::cli {
namespace {

constexpr int kInterruptSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr auto kGrace             = std::chrono::seconds(2); // forwarded signal -> SIGKILL
constexpr auto kReapLimit         = std::chrono::seconds(5); // SIGKILL -> every member reaped

volatile sig_atomic_t g_signal    = 0; // first interrupt received while deferred
volatile sig_atomic_t g_deferring = 0; // DeferInterrupts depth
int g_handlers_installed          = 0;
struct sigaction g_previous[3];

void write_interrupted(int sig)
{
  // Async-signal-safe: fixed texts and write(2) only.
  const char* text = sig == SIGINT    ? "haec: interrupted (SIGINT): nothing was written\n"
                     : sig == SIGTERM ? "haec: interrupted (SIGTERM): nothing was written\n"
                                      : "haec: interrupted (SIGHUP): nothing was written\n";
  ssize_t ignored = ::write(2, text, std::strlen(text));
  (void)ignored;
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

// Supervisor side: haec died (parent-death signal); take the whole group down with it.
void kill_own_group(int)
{
  ::kill(0, SIGKILL);
  ::_exit(137);
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

// The supervisor: leads the group, dies with haec (taking the group along), runs the program and
// ends the way it ended.
[[noreturn]] void supervise(pid_t haec, const std::vector<std::string>& argv, const std::vector<std::string>& env,
                            const std::string& stdout_path, const std::string& stderr_path)
{
  ::setpgid(0, 0);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int s : kInterruptSignals)
    ::signal(s, SIG_DFL);
  ::signal(SIGUSR1, kill_own_group);
  ::prctl(PR_SET_PDEATHSIG, SIGUSR1);
  if (::getppid() != haec) // haec died before the line above
    kill_own_group(0);
  if (::isatty(0)) { // a background group reading the terminal would stop (SIGTTIN)
    int null = ::open("/dev/null", O_RDONLY);
    ::dup2(null, 0);
    ::close(null);
  }
  pid_t program = ::fork();
  if (program < 0)
    ::_exit(127);
  if (program == 0)
    exec_program(argv, env, stdout_path, stderr_path);
  int status = 0;
  while (::waitpid(program, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status))
    ::_exit(WEXITSTATUS(status));
  const int sig = WTERMSIG(status);
  if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGKILL || sig == SIGPIPE) {
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

// Waits for the supervisor; forwards an interrupt to its group, then SIGKILLs the group when the
// grace period is over. Returns the supervisor's wait status.
int wait_for_group(pid_t leader, int& interrupted_by)
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
    pid_t w = ::waitpid(leader, &status, WNOHANG);
    if (w == leader || (w < 0 && errno != EINTR))
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
      ::kill(-leader, sig);
      forwarded    = true;
      forwarded_at = std::chrono::steady_clock::now();
    }
    if (forwarded && !killed && since(forwarded_at) > kGrace) {
      ::kill(-leader, SIGKILL);
      killed = true;
    }
  }
  ::sigprocmask(SIG_SETMASK, &previous, nullptr);
  return status;
}

// Nothing of the group may outlive run_child: SIGKILL what is left and reap the members haec
// adopted as their parents died (haec is a child subreaper).
void end_group(pid_t leader)
{
  ::kill(-leader, SIGKILL);
  const auto start = std::chrono::steady_clock::now();
  while (::kill(-leader, 0) == 0 && since(start) < kReapLimit) {
    while (::waitpid(-leader, nullptr, WNOHANG) > 0) {
    }
    ::usleep(2000);
  }
}

} // namespace

ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      const std::string& stdout_path, const std::string& stderr_path)
{
  ChildResult r;
  if (g_signal != 0) {
    r.interrupted_by = g_signal;
    return r;
  }
  static const bool subreaper = ::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
  (void)subreaper;
  std::fflush(nullptr);
  const pid_t haec = ::getpid();
  pid_t pid        = ::fork();
  if (pid < 0)
    return r;
  if (pid == 0)
    supervise(haec, argv, env, stdout_path, stderr_path);
  ::setpgid(pid, pid); // also done by the child: whichever runs first
  int status = wait_for_group(pid, r.interrupted_by);
  end_group(pid);
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
  switch (sig) {
  case SIGINT: return "SIGINT";
  case SIGTERM: return "SIGTERM";
  case SIGHUP: return "SIGHUP";
  case SIGKILL: return "SIGKILL";
  case SIGSEGV: return "SIGSEGV";
  case SIGABRT: return "SIGABRT";
  case SIGBUS: return "SIGBUS";
  case SIGFPE: return "SIGFPE";
  case SIGILL: return "SIGILL";
  case SIGPIPE: return "SIGPIPE";
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
  for (int i = 0; i < 3; ++i)
    ::sigaction(kInterruptSignals[i], &sa, &g_previous[i]);
}

InterruptHandlers::~InterruptHandlers()
{
  if (--g_handlers_installed > 0)
    return;
  for (int i = 0; i < 3; ++i)
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
