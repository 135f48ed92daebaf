// Iteration boundaries in a rank's MPI call stream: user-given modes here, automatic detection
// through IterationDetector.
#include "iteration_modes.hpp"
#include "input_error.hpp"
#include "iteration_detector.hpp"
#include "units.hpp"

#include <algorithm>
#include <cctype>

namespace haec::iterations {
namespace {

// Every MPI function SimGrid 3.32 declares (smpi.h, sampi.h), listed at build time.
const char* const kMpiFunctions[] = {
#include "mpi_function_names.inc"
};

std::string lower(std::string s)
{
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

} // namespace

bool is_mpi_function(const std::string& name)
{
  // Replayed actions are named after SimGrid's action names ("MPI_AllToAll"): case does not matter.
  const std::string wanted = lower(name);
  for (const char* f : kMpiFunctions)
    if (lower(f) == wanted)
      return true;
  return false;
}

IterationMode parse_iteration_mode(const std::string& text, const std::string& what)
{
  const std::string fix = "use auto, marker, site:MPI_Send@app+0x1a2b or every:K:MPI_Waitall";
  IterationMode m;
  if (text == "auto")
    return m;
  if (text == "marker") {
    m.kind = IterationMode::Marker;
    return m;
  }
  if (text.rfind("site:", 0) == 0 && text.size() > 5) {
    m.kind = IterationMode::Site;
    m.site = text.substr(5);
    if (!is_mpi_function(m.site.substr(0, m.site.find('@'))))
      throw InputError(what, "'" + m.site + "' does not start with an MPI function (unknown MPI function)", fix);
    return m;
  }
  if (text.rfind("every:", 0) == 0) {
    const size_t colon = text.find(':', 6);
    if (colon != std::string::npos && colon + 1 < text.size()) {
      long long k = 0;
      try {
        k = units::parse_integer(text.substr(6, colon - 6), what);
      } catch (const InputError&) {
        k = 0;
      }
      if (k < 1)
        throw InputError(what, "'" + text + "': K must be a positive integer", fix);
      m.kind  = IterationMode::Every;
      m.every = static_cast<long>(k);
      m.site  = text.substr(colon + 1);
      if (!is_mpi_function(m.site))
        throw InputError(what, "'" + m.site + "' is not an MPI function (unknown MPI function)", fix);
      return m;
    }
  }
  throw InputError(what, "'" + text + "' is not an iteration mode", fix);
}

IterationSplitter::IterationSplitter(IterationMode mode) : mode_(std::move(mode))
{
  if (mode_.kind == IterationMode::Auto)
    auto_ = std::make_unique<IterationDetector>();
}

IterationSplitter::~IterationSplitter() = default;

bool IterationSplitter::boundary(const std::string& site_text, uint32_t site)
{
  switch (mode_.kind) {
    case IterationMode::Marker: // SMPI's MPI_Iteration_in (sampi.h), reported by our PMPI layer
      return site_text.rfind("MPI_Iteration_in@", 0) == 0;
    case IterationMode::Site:
      return site_text == mode_.site;
    case IterationMode::Every:
      if (site_text.size() > mode_.site.size() && site_text.compare(0, mode_.site.size(), mode_.site) == 0 &&
          site_text[mode_.site.size()] == '@')
        return ++count_ % mode_.every == 0;
      return false;
    case IterationMode::Auto:
      break;
  }
  return auto_->feed(site);
}

} // namespace haec::iterations
