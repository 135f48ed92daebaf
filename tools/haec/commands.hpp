// The haec subcommands. Each registers its options on the CLI11 app and runs when selected.
#pragma once
#include <CLI/CLI.hpp>

namespace haec::cli {

// Exit status of the subcommand that ran (set by its callback).
int& exit_code();

void add_run_command(CLI::App& app);
void add_platform_command(CLI::App& app);
void add_map_command(CLI::App& app);
void add_compile_commands(CLI::App& app); // cc, cxx, f77, fc
// The subcommand a one-word compiler stands for: "cc" when haec runs as haec-cc (a link to haec,
// for build systems that take one compiler command), likewise cxx, f77, fc; "" otherwise.
std::string one_word_compiler(const char* argv0);
void add_trace_command(CLI::App& app);    // trace record|import|export|check
void add_calibrate_command(CLI::App& app); // calibrate net|power (calibration/README.md)
void add_settings_command(CLI::App& app);  // the haec settings table
void add_campaign_command(CLI::App& app); // campaign run|report (tools/haec/campaign_*.cpp)
std::string version_text();               // haec --version (version.cpp)

// What `haec run ARGS` would run, checked by exactly haec run's own checks without touching the
// disk (an existing --out is allowed). Throws InputError with haec run's one-line message.
struct RunPreview {
  int ranks = 0, platform_nodes = 0, nodes_used = 0;
};
RunPreview check_run_arguments(const std::vector<std::string>& args);

} // namespace haec::cli
