// What `haec run` says and keeps when the simulation did not succeed (docs/guide/errors.md):
// exit 2 for bad input the simulator found, 3 when the simulation failed (the program
// crashed, returned non-zero, called MPI_Abort, or SimGrid aborted), 4 for a deadlock.
#pragma once
#include "process.hpp"

#include <filesystem>
#include <string>

namespace haec::cli {

struct FailedRun {
  ChildResult child;
  std::filesystem::path stage; // staging directory: simgrid.log, stdout.txt, summary.json if written
  std::filesystem::path out;   // the result directory that was not produced
  int ranks        = 0;
  bool keep_failed = false;    // --keep-failed: keep the directory, summary.json marked failed
};

// True when the run did not succeed: a non-zero exit, no summary.json, or a rank that called
// MPI_Abort (SimGrid 3.32 then ends the simulation with status 0).
bool simulation_failed(const ChildResult& child, const std::filesystem::path& stage);

// Prints one line (and, after a crash, the program's last lines of output as a marked block),
// keeps the log (<out>.failed.log) or the directory (--keep-failed), removes the staging
// directory, and returns the exit status.
int report_failed_run(const FailedRun& run);

} // namespace haec::cli
