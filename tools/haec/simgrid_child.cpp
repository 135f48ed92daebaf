#include "simgrid_child.hpp"
#include "input_error.hpp"

#include <simgrid/s4u.hpp>

#include <cstdio>
#include <sstream>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>

extern "C" void smpi_init_options(); // smpi/smpi.h: declares smpirun's own settings (smpi/...)
namespace simgrid::smpi::colls {
void set_collectives(); // SimGrid 3.32 (exported): selects every collective from smpi/<collective>, dies on a bad name
}

namespace haec::cli {
namespace {
std::string slurp(int fd)
{
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0)
    text.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return text;
}
} // namespace

ChildOutput in_simgrid_child(const std::vector<std::string>& cfg, const std::function<void()>& work)
{
  int out_pipe[2], err_pipe[2];
  if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0)
    throw std::runtime_error("cannot create a pipe");
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    std::vector<std::string> args = {"haec", "--log=root.thresh:error"};
    args.insert(args.end(), cfg.begin(), cfg.end());
    std::vector<char*> argv;
    for (auto& a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    int argc = static_cast<int>(args.size());
    try {
      smpi_init_options(); // as smpirun's simulator does, so that smpi/... settings are known
      simgrid::s4u::Engine engine(&argc, argv.data());
      work();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      std::fflush(nullptr);
      ::_exit(1);
    }
    std::fflush(nullptr);
    ::_exit(0);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  ChildOutput r;
  r.out            = slurp(out_pipe[0]);
  std::string errs = slurp(err_pipe[0]);
  int status       = 0;
  ::waitpid(pid, &status, 0);
  r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::istringstream es(errs);
  for (std::string line; std::getline(es, line);)
    if (!line.empty() && line.find("Backtrace") == std::string::npos) {
      // Keep SimGrid's message, not its location prefix.
      auto crit = line.find("CRITICAL] ");
      r.first_error = crit == std::string::npos ? line : line.substr(crit + 10);
      break;
    }
  return r;
}

void check_simgrid_settings(const std::vector<std::string>& settings)
{
  std::vector<std::string> cfg;
  for (auto const& kv : settings)
    if (kv.rfind("haec/", 0) != 0)
      cfg.push_back("--cfg=" + kv);
  if (cfg.empty())
    return;
  ChildOutput r = in_simgrid_child(cfg, [] { simgrid::smpi::colls::set_collectives(); });
  if (auto list = r.first_error.find("! Valid algorithms"); list != std::string::npos) // too long for one line
    r.first_error = r.first_error.substr(0, list) + " (the valid names: SimGrid's SMPI documentation)";
  if (!r.ok)
    throw InputError("--cfg", "SimGrid rejects a setting (" + (r.first_error.empty() ? "no message" : r.first_error) + ")",
                     "check the key and value against `smpirun ... APP --cfg-help`");
}

} // namespace haec::cli
