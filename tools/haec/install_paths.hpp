// Where the haec tool finds its siblings: build/bin/haec -> build/lib/libhaec_suite.so, ...
#pragma once
#include <string>

namespace haec::cli {

std::string self_dir();   // directory of the running haec executable
std::string lib_dir();    // <self_dir>/../lib
std::string suite_library();
std::string pmpi_library_dir();
std::string replay_program(); // <lib_dir>/haec-replay: the trace replayer haec run gives smpirun
// SimGrid's program `name` (smpirun, smpicc, ...) of the installation the suite is built against.
std::string simgrid_program(const std::string& name);
// That installation, in one line: "SimGrid 4.1.0 in PREFIX, patched: 0001-..., 0002-..." (the
// patches scripts/build-simgrid.sh applied, listed in the prefix's share/haec-simgrid/build-info.txt) or "..., stock".
std::string simgrid_description();

} // namespace haec::cli
