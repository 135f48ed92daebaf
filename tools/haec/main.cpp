// haec: the command-line front end of haec-smpi.
#include "cli_reference.hpp"
#include "commands.hpp"
#include "input_error.hpp"
#include "process.hpp"
#include "text.hpp"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <string>

namespace haec::cli {
int& exit_code()
{
  static int code = 0;
  return code;
}
} // namespace haec::cli

int main(int argc, char** argv)
{
  CLI::App app{"haec: predict time and energy of MPI applications on HAEC boxes, tori, meshes and clusters "
               "with SimGrid/SMPI and the haec-smpi plugins"};
  app.require_subcommand(1);
  // One line, like every other error of ours.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return "haec: " + haec::text::one_line(e.what()) + "; see haec --help\n";
  });
  haec::cli::add_run_command(app);
  haec::cli::add_platform_command(app);
  haec::cli::add_map_command(app);
  haec::cli::add_compile_commands(app);
  haec::cli::add_trace_command(app);
  haec::cli::add_calibrate_command(app);
  haec::cli::add_settings_command(app);
  haec::cli::add_campaign_command(app);
  app.set_version_flag("--version", haec::cli::version_text, "Print haec's version, the SimGrid and the PAPI it uses");
  haec::cli::add_manual_footers(app);
  // haec-cc ARGS is haec cc ARGS: a link to haec named as a one-word compiler (cmd_compile.cpp).
  const std::string compiler = haec::cli::one_word_compiler(argv[0]);
  // The command tree for the manual's reference page (docs/_ext/haec_reference.py).
  if (compiler.empty() && argc == 2 && std::string(argv[1]) == "--help-json") {
    haec::cli::print_help_json(app);
    return 0;
  }
  // smpirun spells the rank count "-np"; CLI11 would read it as "-n p".
  std::vector<std::string> args;
  for (int i = argc - 1; i >= 1; --i)
    args.emplace_back(argv[i]);
  if (!compiler.empty()) // last: CLI11 takes the arguments from the back
    args.push_back(compiler);
  for (auto it = args.rbegin(); it != args.rend() && *it != "--"; ++it)
    if (*it == "-np")
      *it = "--np";
  if (compiler.empty() && argc > 1 && argv[1][0] != '-') {
    std::string valid;
    for (const auto* sub : app.get_subcommands({}))
      valid += (valid.empty() ? "" : ", ") + sub->get_name();
    bool known = false;
    for (const auto* sub : app.get_subcommands({}))
      known = known || sub->get_name() == argv[1];
    if (!known) {
      std::fprintf(stderr, "haec: %s\n",
                   haec::text::error_line("'" + std::string(argv[1]) + "'", "unknown subcommand", "use one of " + valid).c_str());
      return 2;
    }
  }
  try {
    app.parse(std::move(args));
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  } catch (const haec::InputError& e) {
    std::fprintf(stderr, "haec: %s\n", haec::text::one_line(e.what()).c_str());
    return 2;
  } catch (const haec::DeadlockError& e) {
    std::fprintf(stderr, "haec: %s\n", haec::text::one_line(e.what()).c_str());
    return 4;
  } catch (const haec::cli::Interrupted& e) {
    std::fprintf(stderr, "haec: %s\n", e.what());
    return 128 + e.signal;
  } catch (const std::filesystem::filesystem_error& e) { // a path haec may not read or write
    const int err  = e.code().value();
    const bool env = err == ENOSPC || err == EIO || err == EDQUOT;
    std::fprintf(stderr, "haec: %s\n",
                 haec::text::error_line(e.path1().string(), e.code().message(),
                                        env ? "free space or use another disk" : "check the path and its permissions")
                     .c_str());
    return env ? 3 : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "haec: %s\n", haec::text::one_line(e.what()).c_str());
    return 3;
  }
  return haec::cli::exit_code();
}
