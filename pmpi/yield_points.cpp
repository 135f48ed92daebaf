// The SMPI functions an application calls between MPI calls that can switch to another rank
// (each ends SMPI's benchmark and runs a simcall: a computation, a sleep), and the C MPI calls
// the wrappers' table does not hold that communicate (communicator constructors): not reported
// to the suite, they only pause the rank's counting. While the calling rank
// is switched out, other ranks run on the same OS thread, so its burst counting pauses
// (counting.hpp). Each definition here comes before libsimgrid's for the application (it is
// linked first, pmpi/README.md) and calls libsimgrid's own.
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

// Communicator constructors (collective: every rank of the communicator switches out in them).
HAEC_YIELD_POINT(int, MPI_Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm* out), (comm, color, key, out))
HAEC_YIELD_POINT(int, MPI_Comm_split_type, (MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm* out),
                 (comm, type, key, info, out))
HAEC_YIELD_POINT(int, MPI_Comm_dup, (MPI_Comm comm, MPI_Comm* out), (comm, out))
HAEC_YIELD_POINT(int, MPI_Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm* out), (comm, group, out))
HAEC_YIELD_POINT(int, MPI_Cart_create, (MPI_Comm comm, int ndims, const int* dims, const int* periods, int reorder,
                                        MPI_Comm* out),
                 (comm, ndims, dims, periods, reorder, out))
HAEC_YIELD_POINT(int, MPI_Cart_sub, (MPI_Comm comm, const int* remain, MPI_Comm* out), (comm, remain, out))
HAEC_YIELD_POINT(int, MPI_Intercomm_create, (MPI_Comm local, int leader, MPI_Comm peer, int remote, int tag,
                                             MPI_Comm* out),
                 (local, leader, peer, remote, tag, out))
HAEC_YIELD_POINT(int, MPI_Intercomm_merge, (MPI_Comm comm, int high, MPI_Comm* out), (comm, high, out))
HAEC_YIELD_POINT(int, MPI_Reduce_scatter_block, (const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                                                 MPI_Comm comm),
                 (send, recv, count, type, op, comm))

// Their Fortran entry points (SMPI's own, single underscore; every argument is a pointer, passed on).
using F = int*;
HAEC_FORTRAN_YIELD_POINT(void, mpi_comm_split, MPI_COMM_SPLIT, (F comm, F color, F key, F out, F ierr),
                         (comm, color, key, out, ierr))
HAEC_FORTRAN_YIELD_POINT(void, mpi_comm_split_type, MPI_COMM_SPLIT_TYPE, (F comm, F type, F key, F info, F out, F ierr),
                         (comm, type, key, info, out, ierr))
HAEC_FORTRAN_YIELD_POINT(void, mpi_comm_dup, MPI_COMM_DUP, (F comm, F out, F ierr), (comm, out, ierr))
HAEC_FORTRAN_YIELD_POINT(void, mpi_comm_create, MPI_COMM_CREATE, (F comm, F group, F out, F ierr),
                         (comm, group, out, ierr))
HAEC_FORTRAN_YIELD_POINT(void, mpi_cart_create, MPI_CART_CREATE,
                         (F comm, F ndims, F dims, F periods, F reorder, F out, F ierr),
                         (comm, ndims, dims, periods, reorder, out, ierr))
HAEC_FORTRAN_YIELD_POINT(void, mpi_cart_sub, MPI_CART_SUB, (F comm, F remain, F out, F ierr), (comm, remain, out, ierr))
HAEC_FORTRAN_YIELD_POINT(void, mpi_intercomm_create, MPI_INTERCOMM_CREATE,
                         (F local, F leader, F peer, F remote, F tag, F out, F ierr),
                         (local, leader, peer, remote, tag, out, ierr))
HAEC_FORTRAN_YIELD_POINT(void, mpi_intercomm_merge, MPI_INTERCOMM_MERGE, (F comm, F high, F out, F ierr),
                         (comm, high, out, ierr))
HAEC_FORTRAN_YIELD_POINT(void, mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK,
                         (F send, F recv, F count, F type, F op, F comm, F ierr),
                         (send, recv, count, type, op, comm, ierr))
