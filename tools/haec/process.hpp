// Runs a child program with extra environment and its output sent to files.
#pragma once
#include <string>
#include <vector>

namespace haec::cli {

struct ChildResult {
  int exit_code = -1;   // exit status, or -1 when killed
  int signal    = 0;    // terminating signal, 0 if none
};

// argv[0] is looked up in PATH. `env` entries are "NAME=value" added to (or replacing in) the
// current environment. stdout/stderr go to the given files ("" = inherit).
ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      const std::string& stdout_path, const std::string& stderr_path);

// Shell-quotes argv into one line (for command.txt).
std::string shell_line(const std::vector<std::string>& env, const std::vector<std::string>& argv);

} // namespace haec::cli
