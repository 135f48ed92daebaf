// Runs SimGrid work (loading an XML platform, parsing --cfg settings) in a child process: SimGrid
// aborts on many bad inputs, and the CLI must turn those into one line of its own instead.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace haec::cli {

struct ChildOutput {
  bool ok = false;
  std::string out;         // what the child wrote to stdout
  std::string first_error; // first non-empty line of its stderr
};

// `work` runs in the child with an Engine built from `cfg` ("--cfg=key:value" arguments).
ChildOutput in_simgrid_child(const std::vector<std::string>& cfg, const std::function<void()>& work);

// Throws InputError when SimGrid rejects one of the settings ("KEY:VALUE", haec/ keys excluded).
void check_simgrid_settings(const std::vector<std::string>& settings);

} // namespace haec::cli
