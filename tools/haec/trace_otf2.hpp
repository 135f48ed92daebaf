// haec trace import / export (OTF2 through libotf2): see libs/trace/README.md.
#pragma once
#include <CLI/CLI.hpp>

namespace haec::cli {
void add_otf2_commands(CLI::App& trace);
}
