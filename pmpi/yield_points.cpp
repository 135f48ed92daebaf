// The SMPI functions an application calls between MPI calls that can switch to another rank
// (each ends SMPI's benchmark and runs a simcall: a computation, a sleep): not reported to the
// suite, they only pause the rank's counting. While the calling rank
// is switched out, other ranks run on the same OS thread, so its burst counting pauses
// (counting.hpp). Each definition here is linked into the program with the other entry points
// (libhaec_pmpi_entry.a, pmpi/README.md), so the program's calls bind to it, and calls libsimgrid's own.
#include "call_reporting.hpp"
#include "counting.hpp"

#include <smpi/smpi_helpers_internal.h>

namespace haec::pmpi {
namespace {
template <class F> F simgrid_function(const char* name)
{
  return reinterpret_cast<F>(simgrid_symbol(name));
}
} // namespace
} // namespace haec::pmpi

#define HAEC_YIELD_POINT(ret, name, params, args)                                                                      \
  extern "C" ret name params                                                                                           \
  {                                                                                                                    \
    static const auto next = haec::pmpi::simgrid_function<ret(*) params>(#name);                                       \
    haec::pmpi::CountingPause pause(#name);                                                                            \
    return next args;                                                                                                  \
  }

// Fortran: SMPI exports `name_` only; as for the table's functions (fortran_wrappers.cpp), the
// other two manglings are aliases of it.
#define HAEC_FORTRAN_YIELD_POINT(ret, name, NAME, params, args)                                                       \
  HAEC_YIELD_POINT(ret, name##_, params, args)                                                                         \
  extern "C" ret name##__ params __attribute__((alias(#name "_")));                                                    \
  extern "C" ret NAME params __attribute__((alias(#name "_")));

HAEC_YIELD_POINT(double, MPI_Wtime, (void), ())
HAEC_FORTRAN_YIELD_POINT(double, mpi_wtime, MPI_WTIME, (void), ())
HAEC_YIELD_POINT(void, smpi_execute_flops, (double flops), (flops))
HAEC_YIELD_POINT(void, smpi_execute_flops_benched, (double flops), (flops))
HAEC_YIELD_POINT(void, smpi_execute, (double duration), (duration))
HAEC_YIELD_POINT(void, smpi_execute_benched, (double duration), (duration))
HAEC_YIELD_POINT(unsigned int, smpi_sleep, (unsigned int secs), (secs))
HAEC_YIELD_POINT(int, smpi_usleep, (useconds_t usecs), (usecs))
HAEC_YIELD_POINT(int, smpi_nanosleep, (const struct timespec* tp, struct timespec* t), (tp, t))
HAEC_YIELD_POINT(int, smpi_gettimeofday, (struct timeval* tv, struct timezone* tz), (tv, tz))
HAEC_YIELD_POINT(int, smpi_clock_gettime, (clockid_t clk_id, struct timespec* tp), (clk_id, tp))
