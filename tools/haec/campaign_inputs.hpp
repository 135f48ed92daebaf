// What defines a campaign run's result, as one key for its id: its haec run arguments with every
// file they name replaced by a digest of the file's content (a trace list's rank files included),
// and the versions of what computes the result (haec's suite, SimGrid). Two runs whose traces,
// platforms, hostfiles, mappings, workloads or coefficient files differ in content never share an
// id, even when the campaign files name them by the same path; a campaign moved elsewhere keeps
// its ids.
#pragma once
#include <string>
#include <vector>

namespace haec::cli {

// The key of a run with these haec run options (each file they name replaced by its content, each
// number in one spelling: --seed=01 is --seed=1) and this program or trace with its arguments (as
// written, files replaced by their content), started in `workdir` (relative paths are relative to it).
std::string run_inputs_key(const std::vector<std::string>& options, const std::vector<std::string>& tail,
                           const std::string& workdir);

// "<64-bit FNV-1a hex>/<size>" of a file's bytes, "" when it is not a readable regular file. Each
// file is read once per process while its size and modification time stay the same.
std::string content_digest(const std::string& path);

} // namespace haec::cli
