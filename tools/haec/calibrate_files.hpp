// Output helpers of `haec calibrate`: result directories written whole or not at all, and the
// optional plots (a missing matplotlib costs the PNG, not the fit).
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace haec::cli {

// Creates DIR.tmp-PID, lets `fill` write into it, renames it to DIR; removes it on any failure.
// An existing DIR is an input error.
void write_dir_atomic(const std::string& dir, const std::function<void(const std::filesystem::path&)>& fill);

// Runs share/haec/calibration/SCRIPT with ARGS; prints a `# note:` line when no PNG came out.
void plot(const std::string& script, const std::vector<std::string>& args, const std::filesystem::path& png);

} // namespace haec::cli
