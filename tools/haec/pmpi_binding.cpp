#include "pmpi_binding.hpp"
#include "elf_needed.hpp"
#include "input_error.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace haec::cli {
namespace {

#include "pmpi_functions.inc" // HAEC_PMPI_FUNCTIONS(X): every function the layer wraps

// The symbols a program calls those functions by: C (MPI_Send), and Fortran in its three
// manglings (mpi_send_, mpi_send__, MPI_SEND).
std::set<std::string> wrapped_symbols()
{
  std::set<std::string> names;
  for (std::string name : {
#define HAEC_PMPI_NAME(name) #name,
           HAEC_PMPI_FUNCTIONS(HAEC_PMPI_NAME)
#undef HAEC_PMPI_NAME
       }) {
    std::string lower = name, upper = name;
    std::transform(name.begin(), name.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    std::transform(name.begin(), name.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
    names.insert({"MPI_" + name, "mpi_" + lower + "_", "mpi_" + lower + "__", "MPI_" + upper});
  }
  return names;
}

} // namespace

bool checked_pmpi_binding(const std::string& program)
{
  const auto needed = elf_needed_libraries(program);
  if (std::find(needed.begin(), needed.end(), "libhaec_pmpi.so") == needed.end())
    return false;
  const std::set<std::string> wrapped = wrapped_symbols();
  for (auto const& symbol : elf_undefined_symbols(program))
    if (wrapped.count(symbol))
      throw InputError(program, "its MPI calls would bypass the haec PMPI layer (it takes " + symbol +
                                    " from SimGrid: built by an older haec cc, or calling MPI from a library)",
                       "rebuild it with haec cc, cxx or fc of this build");
  return true;
}

} // namespace haec::cli
