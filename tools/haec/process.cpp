#include "process.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace haec::cli {

ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      const std::string& stdout_path, const std::string& stderr_path)
{
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0)
    return {};
  if (pid == 0) {
    for (auto const& kv : env)
      ::putenv(const_cast<char*>(kv.c_str()));
    auto redirect = [](const std::string& path, int fd) {
      if (path.empty())
        return;
      int f = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (f < 0)
        ::_exit(127);
      ::dup2(f, fd);
      ::close(f);
    };
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
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ChildResult r;
  if (WIFEXITED(status))
    r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.signal = WTERMSIG(status);
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

} // namespace haec::cli
