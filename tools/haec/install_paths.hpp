// Where the haec tool finds its siblings: build/bin/haec -> build/lib/libhaec_suite.so, ...
#pragma once
#include <string>

namespace haec::cli {

std::string self_dir();   // directory of the running haec executable
std::string lib_dir();    // <self_dir>/../lib
std::string suite_library();
std::string pmpi_library_dir();
// <self_dir>/../simgrid-prefix when scripts/build-simgrid.sh built and checked a patched SimGrid 3.32
// there (its CHECKED mark), else "".
std::string checked_patched_simgrid();

} // namespace haec::cli
