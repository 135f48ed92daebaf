// `haec cc|cxx|f77`: SMPI's compiler wrappers plus our PMPI library. --no-as-needed keeps
// libhaec_pmpi.so in the program's needed list ahead of libsimgrid, so its MPI_* wrappers are the
// ones the (privatized) program binds to.
#include "commands.hpp"
#include "install_paths.hpp"
#include "process.hpp"

#include <algorithm>

namespace haec::cli {

static int compile(const std::string& driver, const std::vector<std::string>& args)
{
  std::vector<std::string> argv = {driver};
  argv.insert(argv.end(), args.begin(), args.end());
  bool links = std::none_of(args.begin(), args.end(), [](const std::string& a) { return a == "-c" || a == "-S" || a == "-E"; });
  if (links) {
    std::string lib = pmpi_library_dir();
    argv.insert(argv.end(), {"-L" + lib, "-Wl,--no-as-needed", "-lhaec_pmpi", "-Wl,--as-needed", "-Wl,-rpath," + lib});
  }
  ChildResult r = run_child(argv, {}, "", "");
  return r.exit_code < 0 ? 3 : r.exit_code;
}

void add_compile_commands(CLI::App& app)
{
  struct Tool {
    const char* name;
    const char* driver;
    const char* what;
  };
  for (Tool t : {Tool{"cc", "smpicc", "C"}, Tool{"cxx", "smpicxx", "C++"}, Tool{"f77", "smpiff", "Fortran"}}) {
    auto args = std::make_shared<std::vector<std::string>>();
    auto* cmd = app.add_subcommand(t.name, std::string("Compile and link an MPI ") + t.what + " program with " +
                                               t.driver + " and the haec PMPI library (arguments go to " + t.driver +
                                               ", e.g. haec " + t.name + " -O2 app.c -o app)");
    cmd->allow_extras();
    cmd->prefix_command();
    std::string driver = t.driver;
    cmd->callback([cmd, driver] { exit_code() = compile(driver, cmd->remaining()); });
  }
}

} // namespace haec::cli
