// How the core finds iterations in a rank's stream of MPI call sites (haec/iterations; the DVFS
// and balancing plugins subscribe to the boundaries): automatically (IterationDetector), or as the user
// says. Pure C++.
#pragma once
#include "iteration_detector.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace haec::iterations {

struct IterationMode {
  enum Kind { Auto, Marker, Site, Every } kind = Auto;
  std::string site; // Site: the call site text; Every: the function name ("MPI_Waitall")
  long every = 1;   // Every: each k-th call
};
// "auto" | "marker" | "site:SITE" | "every:K:MPI_Function"; throws haec::InputError naming `what`
// (also for a function SimGrid does not declare).
IterationMode parse_iteration_mode(const std::string& text, const std::string& what);
// True for an MPI function SimGrid declares (any case: replayed actions are "MPI_AllToAll").
bool is_mpi_function(const std::string& name);

class IterationSplitter {
public:
  explicit IterationSplitter(IterationMode mode);
  ~IterationSplitter();
  // True when the call entering `site` (interned id, its text) starts a new iteration.
  bool boundary(const std::string& site_text, uint32_t site);
  // Whether boundary() reads the site's text (the user's modes) or only its id (auto).
  bool needs_site_text() const { return mode_.kind != IterationMode::Auto; }

private:
  IterationMode mode_;
  long count_ = 0;
  std::unique_ptr<IterationDetector> auto_;
};

} // namespace haec::iterations
