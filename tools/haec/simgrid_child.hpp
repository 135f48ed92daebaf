// Runs SimGrid work (loading an XML platform, parsing --cfg settings) in haec-simgrid-probe, a
// program of its own (simgrid_probe_main.cpp): SimGrid aborts on many bad inputs, and the CLI must
// turn those into one line of its own instead; `haec` itself does not load SimGrid.
#pragma once
#include <string>
#include <vector>

namespace haec::cli {

struct ChildOutput {
  bool ok = false;
  std::string out;         // what the probe wrote to stdout
  std::string first_error; // first non-empty line of its stderr
};

// Runs haec-simgrid-probe with `args` ("platform FILE.xml" or "settings", then "--cfg=key:value"s).
ChildOutput run_simgrid_probe(const std::vector<std::string>& args);

// The probe program next to haec; its identity is part of what a cached probe depends on.
std::string simgrid_probe_program();

// Throws InputError when SimGrid rejects one of the settings ("KEY:VALUE", haec/ keys excluded).
void check_simgrid_settings(const std::vector<std::string>& settings);

} // namespace haec::cli
