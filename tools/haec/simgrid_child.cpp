#include "simgrid_child.hpp"
#include "input_error.hpp"
#include "install_paths.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace haec::cli {
namespace {

std::string slurp(int fd)
{
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      text.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return text;
}

// SimGrid's message, not its location prefix nor its backtrace.
std::string first_error_line(const std::string& errs)
{
  std::istringstream es(errs);
  for (std::string line; std::getline(es, line);)
    if (!line.empty() && line.find("Backtrace") == std::string::npos) {
      auto crit = line.find("CRITICAL] ");
      return crit == std::string::npos ? line : line.substr(crit + 10);
    }
  return {};
}

} // namespace

std::string simgrid_probe_program()
{
  return self_dir() + "/haec-simgrid-probe";
}

ChildOutput run_simgrid_probe(const std::vector<std::string>& args)
{
  const std::string program = simgrid_probe_program();
  if (::access(program.c_str(), X_OK) != 0)
    throw std::runtime_error(program + " is missing: haec needs it next to itself (rebuild: scripts/build.sh)");
  int out_pipe[2], err_pipe[2];
  if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0)
    throw std::runtime_error("cannot create a pipe");
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]})
      ::close(fd);
    std::vector<char*> argv = {const_cast<char*>(program.c_str())};
    for (auto const& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(program.c_str(), argv.data());
    std::fprintf(stderr, "cannot start %s: %s (rebuild haec)\n", program.c_str(), std::strerror(errno));
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  ChildOutput r;
  r.out            = slurp(out_pipe[0]); // the probe writes little to stderr: no deadlock
  std::string errs = slurp(err_pipe[0]);
  int status       = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.ok          = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  r.first_error = first_error_line(errs);
  return r;
}

void check_simgrid_settings(const std::vector<std::string>& settings)
{
  std::vector<std::string> args = {"settings"};
  for (auto const& kv : settings)
    if (kv.rfind("haec/", 0) != 0)
      args.push_back("--cfg=" + kv);
  if (args.size() == 1)
    return;
  ChildOutput r = run_simgrid_probe(args);
  if (auto list = r.first_error.find("! Valid algorithms"); list != std::string::npos) // too long for one line
    r.first_error = r.first_error.substr(0, list) + " (the valid names: SimGrid's SMPI documentation)";
  if (!r.ok)
    throw InputError("--cfg", "SimGrid rejects a setting (" + (r.first_error.empty() ? "no message" : r.first_error) + ")",
                     "check the key and value against `smpirun ... APP --cfg-help`");
}

} // namespace haec::cli
