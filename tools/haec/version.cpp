// `haec --version`: haec's version, the SimGrid it runs (version, where, patched or stock: what
// the suite was built against; install_paths.cpp) and the PAPI it would count with (papi_api.hpp).
#include "commands.hpp"
#include "install_paths.hpp"
#include "papi_api.hpp"

namespace haec::cli {

std::string version_text()
{
  return std::string("haec ") + HAEC_VERSION + "\n" + simgrid_description() + "\n" + papi::library_description();
}

} // namespace haec::cli
