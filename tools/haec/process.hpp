// Runs a child program (smpirun, smpicc, `haec run` under `haec trace record`) with extra
// environment and its output sent to files, in a process group of its own, so that an interrupted
// or killed `haec` never leaves a simulator running (docs/guide/errors.md).
#pragma once
#include <csignal>
#include <stdexcept>
#include <string>
#include <vector>

namespace haec::cli {

struct ChildResult {
  int exit_code      = -1; // exit status, or -1 when killed
  int signal         = 0;  // terminating signal, 0 if none
  int interrupted_by = 0;  // interrupt signal received by haec while the child ran, 0 if none
};

// argv[0] is looked up in PATH. `env` entries are "NAME=value" added to (or replacing in) the
// current environment. stdout/stderr go to the given files ("" = inherit); stdin is inherited,
// except a terminal, which the child (in a background process group) could not read: it gets
// /dev/null instead.
// The child and all its descendants form one process group, watched by a supervisor process:
// when the child ends, whatever is left of the group is killed; if haec dies, even by SIGKILL,
// the supervisor kills the group and removes `cleanup_path` (e.g. a staging directory) and the
// private directories of haec-exec processes it killed (smpirun_words.hpp). When haec
// receives an interrupt signal (kInterruptSignals) while the child runs (see DeferInterrupts), the signal is
// forwarded to the group, which is killed after a grace period of 2 s. Nothing of the group
// outlives this call.
ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      const std::string& stdout_path, const std::string& stderr_path,
                      const std::string& cleanup_path = "");

// Shell-quotes argv into one line (for command.txt).
std::string shell_line(const std::vector<std::string>& env, const std::vector<std::string>& argv);

// The signals that end haec by default and that a user or the system sends to stop it (the
// profilers' SIGPROF and SIGVTALRM excepted): each is an interrupt, haec stops its children,
// removes its staging directories and exits 128 + signal.
constexpr int kInterruptSignals[] = {SIGINT, SIGTERM, SIGHUP,  SIGQUIT, SIGPIPE,
                                     SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ};
constexpr bool is_interrupt_signal(int sig)
{
  for (int s : kInterruptSignals)
    if (s == sig)
      return true;
  return false;
}

// haec stopped by an interrupt signal; main() prints "interrupted" and exits 128 + signal.
struct Interrupted : std::runtime_error {
  explicit Interrupted(int sig);
  int signal;
};

// Catches the interrupt signals for the lifetime of a command. Outside a DeferInterrupts
// scope, the signal ends haec at once (exit 128 + signal, one line): nothing is on disk yet. Inside
// one (a staging directory exists, a child runs), the signal is only recorded: run_child stops its
// child and returns, and throw_if_interrupted() lets the caller clean up before exiting.
class InterruptHandlers {
public:
  InterruptHandlers();
  ~InterruptHandlers();
  InterruptHandlers(const InterruptHandlers&)            = delete;
  InterruptHandlers& operator=(const InterruptHandlers&) = delete;
};

class DeferInterrupts {
public:
  DeferInterrupts();
  ~DeferInterrupts();
  DeferInterrupts(const DeferInterrupts&)            = delete;
  DeferInterrupts& operator=(const DeferInterrupts&) = delete;
};

// The signal received inside a DeferInterrupts scope, 0 if none.
int pending_interrupt();
// Throws Interrupted when a signal was received.
void throw_if_interrupted();
// "SIGINT" for 2, ...
std::string signal_name(int sig);

} // namespace haec::cli
