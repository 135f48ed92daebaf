// What the haec command line says about itself for its users: the manual page each command's
// --help ends with, and the whole command tree as JSON (`haec --help-json`), from which the
// manual's reference page is generated (docs/_ext/haec_reference.py).
#pragma once
#include <CLI/CLI.hpp>

namespace haec::cli {

// Sets the footer of `app` and of every subcommand: the manual page to read.
void add_manual_footers(CLI::App& app);

// Every command, subcommand and option: name, description, type, default, manual page.
void print_help_json(const CLI::App& app);

} // namespace haec::cli
