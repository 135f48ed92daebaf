// Whether a program's MPI calls reach the PMPI layer: `haec cc` links the layer's entry points into
// the program (pmpi/README.md), so such a program imports none of the functions the layer wraps.
#pragma once
#include <string>

namespace haec::cli {

// True when the program was linked with the PMPI layer (it needs libhaec_pmpi.so). Throws
// haec::InputError (exit 2) when it was, but would still call SimGrid's own MPI functions (built by
// an older haec cc, or calling MPI from a library of its own): it would run without the layer.
bool checked_pmpi_binding(const std::string& program);

} // namespace haec::cli
