// What the generated Fortran entry points (fortran_wrappers.cpp) need besides SMPI's f2c functions:
// SMPI's Fortran constants MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS(ES)_IGNORE are the addresses of
// libsimgrid's variables below; requests (and alltoallw's datatypes) in Fortran arrays are converted one by
// one; indices are 1-based.
#pragma once
#include <mpi.h>

#include <vector>

extern "C" {
extern int mpi_bottom_;
extern int mpi_in_place_;
extern int mpi_status_ignore_;
extern int mpi_statuses_ignore_;
}

namespace haec::pmpi::fortran {

inline void* buffer(void* p)
{
  if (p == &mpi_bottom_)
    return MPI_BOTTOM;
  if (p == &mpi_in_place_)
    return MPI_IN_PLACE;
  return p;
}

// A Fortran status is MPI_STATUS_SIZE (5) integers laid out as SMPI's MPI_Status.
inline MPI_Status* status(MPI_Fint* s)
{
  return s == &mpi_status_ignore_ ? MPI_STATUS_IGNORE : reinterpret_cast<MPI_Status*>(s);
}

inline MPI_Status* statuses(MPI_Fint* s)
{
  return s == &mpi_statuses_ignore_ || s == &mpi_status_ignore_ ? MPI_STATUSES_IGNORE
                                                                 : reinterpret_cast<MPI_Status*>(s);
}

inline std::vector<MPI_Request> requests(const MPI_Fint* f, int count)
{
  std::vector<MPI_Request> c(static_cast<size_t>(count > 0 ? count : 0));
  for (size_t i = 0; i < c.size(); ++i)
    c[i] = PMPI_Request_f2c(f[i]);
  return c;
}

// Completed (freed) requests become MPI_REQUEST_NULL in Fortran too.
inline void null_completed(MPI_Fint* f, const std::vector<MPI_Request>& c)
{
  for (size_t i = 0; i < c.size(); ++i)
    if (c[i] == MPI_REQUEST_NULL)
      f[i] = MPI_FORTRAN_REQUEST_NULL;
}

// A handle the call created (inout: read and maybe freed by the call).
inline void set_handle(MPI_Fint* f, MPI_Request c, int rc, bool inout)
{
  if (inout)
    *f = c == MPI_REQUEST_NULL ? MPI_FORTRAN_REQUEST_NULL : *f;
  else
    *f = rc == MPI_SUCCESS && c != MPI_REQUEST_NULL ? PMPI_Request_c2f(c) : MPI_FORTRAN_REQUEST_NULL;
}

inline void set_handle(MPI_Fint* f, MPI_Win c, int rc, bool inout)
{
  if (inout)
    *f = c == MPI_WIN_NULL ? -1 : *f;
  else if (rc == MPI_SUCCESS)
    *f = PMPI_Win_c2f(c);
}

// A communicator the call created (-1 is Fortran's MPI_COMM_NULL in SMPI), or freed (inout).
inline void set_handle(MPI_Fint* f, MPI_Comm c, int rc, bool inout)
{
  if (inout)
    *f = c == MPI_COMM_NULL ? -1 : *f;
  else if (rc == MPI_SUCCESS)
    *f = PMPI_Comm_c2f(c);
}

// A Fortran array of datatypes, one per rank of `comm` (MPI_Alltoallw).
inline std::vector<MPI_Datatype> types(const MPI_Fint* f, MPI_Comm comm)
{
  int n = 0;
  if (f == nullptr || PMPI_Comm_size(comm, &n) != MPI_SUCCESS || n < 0)
    n = 0;
  std::vector<MPI_Datatype> c(static_cast<size_t>(n));
  for (size_t i = 0; i < c.size(); ++i)
    c[i] = PMPI_Type_f2c(f[i]);
  return c;
}

inline void one_based_index(MPI_Fint* index)
{
  if (*index != MPI_UNDEFINED && *index >= 0)
    *index += 1;
}

inline void one_based_indices(MPI_Fint* indices, const MPI_Fint* outcount)
{
  for (int k = 0; *outcount != MPI_UNDEFINED && k < *outcount; ++k)
    indices[k] += 1;
}

} // namespace haec::pmpi::fortran
