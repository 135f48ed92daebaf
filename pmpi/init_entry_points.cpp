// The Fortran MPI_INIT and MPI_INIT_THREAD (the table's Init and Init_thread have no generated
// Fortran entry point: Fortran passes no argc/argv). Linked into the program with the generated
// entry points (libhaec_pmpi_entry.a). SMPI's own MPI_Init sets up the Fortran handles
// (smpi_init_fortran_types).
#include "wrappers.hpp"

extern "C" {

void mpi_init_(MPI_Fint* ierr)
{
  *ierr = haec::pmpi::wrap::Init(__builtin_return_address(0), nullptr, nullptr);
}
void mpi_init__(MPI_Fint* ierr) __attribute__((alias("mpi_init_")));
void MPI_INIT(MPI_Fint* ierr) __attribute__((alias("mpi_init_")));

void mpi_init_thread_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr)
{
  *ierr = haec::pmpi::wrap::Init_thread(__builtin_return_address(0), nullptr, nullptr, *required, provided);
}
void mpi_init_thread__(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr)
    __attribute__((alias("mpi_init_thread_")));
void MPI_INIT_THREAD(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) __attribute__((alias("mpi_init_thread_")));

} // extern "C"
