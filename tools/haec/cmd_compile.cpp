// `haec cc|cxx|f77|fc`: SMPI's compiler wrappers (of the SimGrid the suite is built against) plus
// our PMPI layer: its entry points (libhaec_pmpi_entry.a, every member, hidden) go into the program,
// so the program's MPI_* (and Fortran mpi_*_) calls bind to them when it is linked, under any
// privatization and SimGrid version; they call the wrappers of libhaec_pmpi.so (pmpi/README.md).
// --no-as-needed keeps libhaec_pmpi.so in the program's needed list. For Fortran, gfortran 10 and
// later refuse what legacy MPI codes do everywhere (one buffer argument of several types, BOZ
// constants in DATA statements) unless told otherwise: haec adds -fallow-argument-mismatch and
// -fallow-invalid-boz for them. haec-cc, haec-cxx, haec-f77 and haec-fc are links to haec that
// run these same commands (one_word_compiler), for build systems that take one compiler word.
#include "commands.hpp"
#include "install_paths.hpp"
#include "process.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace haec::cli {
namespace {

// The Fortran compiler smpiff runs (its REAL_FORTRAN_COMPILER line), "" when it cannot be told.
std::string fortran_compiler(const std::string& driver)
{
  std::ifstream script(simgrid_program(driver));
  std::string line;
  const std::string key = "REAL_FORTRAN_COMPILER=";
  while (std::getline(script, line))
    if (line.rfind(key, 0) == 0)
      return line.substr(key.size());
  return "";
}

// gfortran's major version, 0 for another compiler or when it cannot be run.
int gfortran_major(const std::string& compiler)
{
  if (compiler.find("gfortran") == std::string::npos)
    return 0;
  FILE* out = popen(("'" + compiler + "' -dumpversion 2>/dev/null").c_str(), "r");
  if (out == nullptr)
    return 0;
  char version[64] = "";
  if (std::fgets(version, sizeof version, out) == nullptr)
    version[0] = '\0';
  pclose(out);
  return std::atoi(version);
}

bool mentions(const std::vector<std::string>& args, const std::string& what)
{
  return std::any_of(args.begin(), args.end(), [&](const std::string& a) { return a.find(what) != std::string::npos; });
}

// The flags legacy Fortran MPI codes need with gfortran >= 10, unless the user chose otherwise.
std::vector<std::string> legacy_fortran_flags(const std::string& driver, const std::vector<std::string>& args)
{
  std::vector<std::string> flags;
  if (gfortran_major(fortran_compiler(driver)) < 10)
    return flags;
  if (!mentions(args, "allow-argument-mismatch"))
    flags.push_back("-fallow-argument-mismatch");
  if (!mentions(args, "allow-invalid-boz"))
    flags.push_back("-fallow-invalid-boz");
  return flags;
}

int compile(const std::string& driver, bool fortran, const std::vector<std::string>& args)
{
  std::vector<std::string> argv = {simgrid_program(driver)};
  if (fortran) {
    auto flags = legacy_fortran_flags(driver, args);
    argv.insert(argv.end(), flags.begin(), flags.end());
  }
  argv.insert(argv.end(), args.begin(), args.end());
  const bool links =
      std::none_of(args.begin(), args.end(), [](const std::string& a) { return a == "-c" || a == "-S" || a == "-E"; });
  if (links) {
    const std::string lib = pmpi_library_dir();
    // SimGrid's library directory in the run path too: smpicc gives only -L, so a program linked as
    // a plain executable (SMPI_PRETEND_CC=1, as configure scripts run their test programs) would not
    // find a libsimgrid installed outside the loader's directories (a SimGrid 4.1 prefix).
    const std::string simgrid_lib = std::filesystem::path(HAEC_SIMGRID_LIBRARY).parent_path().string();
    // Every entry point, none exported (SMPI's mpi.h declares MPI_* default-visible and weak: the
    // linker hides them), so the program's calls bind to them now. They are C++ (the Fortran ones
    // convert arrays of requests): the C++ library too.
    argv.insert(argv.end(), {"-Wl,--whole-archive", lib + "/libhaec_pmpi_entry.a", "-Wl,--no-whole-archive",
                             "-Wl,--exclude-libs,libhaec_pmpi_entry.a", "-L" + lib, "-Wl,--no-as-needed", "-lhaec_pmpi",
                             "-Wl,--as-needed", "-lstdc++", "-Wl,-rpath," + lib, "-Wl,-rpath," + simgrid_lib});
  }
  ChildResult r = run_child(argv, {}, "", "");
  return r.exit_code < 0 ? 3 : r.exit_code;
}

constexpr const char* kCompilers[] = {"cc", "cxx", "f77", "fc"};

} // namespace

std::string one_word_compiler(const char* argv0)
{
  const std::string name = std::filesystem::path(argv0 != nullptr ? argv0 : "").filename().string();
  for (const char* sub : kCompilers)
    if (name == std::string("haec-") + sub)
      return sub;
  return "";
}

void add_compile_commands(CLI::App& app)
{
  struct Tool {
    const char* name;
    const char* driver;
    const char* what;
    const char* example;
  };
  // smpiff handles fixed and free form alike (smpif90 would not turn a .f file's PROGRAM into
  // SMPI's user_main): f77 and fc both use it.
  for (Tool t : {Tool{"cc", "smpicc", "C", "app.c"}, Tool{"cxx", "smpicxx", "C++", "app.cpp"},
                 Tool{"f77", "smpiff", "Fortran", "app.f"}, Tool{"fc", "smpiff", "Fortran", "app.f90"}}) {
    auto* cmd = app.add_subcommand(t.name, std::string("Compile and link an MPI ") + t.what + " program with " +
                                               t.driver + " and the haec PMPI library (arguments go to " + t.driver +
                                               ", e.g. haec " + t.name + " -O2 " + t.example + " -o app)");
    cmd->allow_extras();
    cmd->prefix_command();
    std::string driver = t.driver;
    bool fortran       = std::string(t.what) == "Fortran";
    cmd->callback([cmd, driver, fortran] { exit_code() = compile(driver, fortran, cmd->remaining()); });
  }
}

} // namespace haec::cli
