// haec-exec: passes every word of an smpirun command line whole (smpirun_words.hpp).
//
//   haec-exec SMPIRUN [ARG...]
//       Runs smpirun with ARGs rewritten so that smpirun cannot split them, waits for it, removes
//       the private directory of the rewriting and ends as smpirun ended (its exit status, or the
//       signal that killed it). haec run starts a run this way when a word needs it, and its
//       command.txt shows this line: pasted in a shell, it runs the same simulation.
//   haec-exec --restore WORDS PROGRAM [ARG...]
//       Put first in smpirun's -wrapper by the rewriting: runs PROGRAM with every @@haec-N@@ in
//       its arguments replaced by word N of the file WORDS (NUL-separated).
#include "process.hpp"
#include "smpirun_words.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using haec::cli::SmpirunWords;

std::vector<std::string> read_words(const char* path)
{
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> words;
  for (size_t b = 0; b < text.size();) {
    size_t e = text.find('\0', b);
    if (e == std::string::npos)
      e = text.size();
    words.push_back(text.substr(b, e - b));
    b = e + 1;
  }
  return words;
}

// One pass: the words put back are not searched again.
std::string restore(const std::string& arg, const std::vector<std::string>& words)
{
  static const std::string open = "@@haec-";
  std::string out;
  size_t at = 0;
  for (size_t p = arg.find(open); p != std::string::npos; p = arg.find(open, at)) {
    size_t d = p + open.size(), n = 0;
    while (d < arg.size() && arg[d] >= '0' && arg[d] <= '9' && n < words.size())
      n = n * 10 + static_cast<size_t>(arg[d++] - '0');
    if (d == p + open.size() || arg.compare(d, 2, "@@") != 0 || n >= words.size()) {
      out += arg.substr(at, d - at);
      at = d;
      continue;
    }
    out += arg.substr(at, p - at) + words[n];
    at = d + 2;
  }
  return out + arg.substr(at);
}

[[noreturn]] void exec(std::vector<std::string> args)
{
  std::vector<char*> c_args;
  for (auto& a : args)
    c_args.push_back(a.data());
  c_args.push_back(nullptr);
  ::execvp(c_args[0], c_args.data());
  std::fprintf(stderr, "haec-exec: cannot start %s: %s\n", c_args[0], std::strerror(errno));
  ::_exit(127);
}

int restore_and_exec(int argc, char** argv)
{
  if (argc < 4) {
    std::fprintf(stderr, "haec-exec: usage: haec-exec --restore WORDS PROGRAM [ARG...]\n");
    return 127;
  }
  const std::vector<std::string> words = read_words(argv[2]);
  std::vector<std::string> args;
  for (int i = 3; i < argc; ++i)
    args.push_back(restore(argv[i], words));
  exec(args);
}

void ignore_signal(int) {}

// Ends this process the way smpirun ended, once the private directory is gone.
[[noreturn]] void end_like(int status)
{
  if (WIFSIGNALED(status)) {
    ::signal(WTERMSIG(status), SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, WTERMSIG(status));
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(WTERMSIG(status));
  }
  ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

int launch(int argc, char** argv)
{
  std::unique_ptr<SmpirunWords> words;
  try {
    words = std::make_unique<SmpirunWords>(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "haec-exec: %s\n", e.what());
    return 127;
  }
  // An interrupt reaches smpirun and the simulator too (one process group, or haec forwards it to
  // the group): they stop, and this process removes the private directory after them.
  for (int s : haec::cli::kInterruptSignals)
    ::signal(s, ignore_signal); // a handler, not SIG_IGN: smpirun gets the default action back
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child == 0) {
    for (const auto& kv : words->env())
      ::putenv(const_cast<char*>(kv.c_str()));
    exec(words->argv());
  }
  int status = 127 << 8;
  while (child > 0 && ::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  words.reset();
  end_like(status);
}

} // namespace

int main(int argc, char** argv)
{
  if (argc >= 2 && std::strcmp(argv[1], "--restore") == 0)
    return restore_and_exec(argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "haec-exec: usage: haec-exec SMPIRUN [ARG...] (the line of a run's command.txt)\n");
    return 127;
  }
  return launch(argc, argv);
}
