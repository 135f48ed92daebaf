! trace_inplace_f: MPI_IN_PLACE in Fortran non-blocking and blocking collectives through haec trace
! record and haec run --replay (tests). Any number of ranks. Prints "No Errors".
program trace_inplace_f
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nranks, req, i, errors, total, v
  integer :: buf(256)
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  errors = 0
  do i = 1, 2 * nranks
    buf(i) = (i - 1) / 2
  end do
  if (rank == 0) then
    call MPI_IGATHER(MPI_IN_PLACE, 0, MPI_INTEGER, buf, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, req, ierr)
  else
    call MPI_IGATHER(buf(2 * rank + 1), 2, MPI_INTEGER, buf, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, req, ierr)
  end if
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  if (rank == 0) then
    do i = 1, 2 * nranks
      if (buf(i) /= (i - 1) / 2) errors = errors + 1
    end do
  end if
  call MPI_IALLTOALL(MPI_IN_PLACE, 0, MPI_INTEGER, buf, 2, MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call MPI_ALLGATHER(MPI_IN_PLACE, 0, MPI_INTEGER, buf, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  v = 1
  call MPI_ALLREDUCE(MPI_IN_PLACE, v, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (v /= nranks) errors = errors + 1
  call MPI_ALLREDUCE(errors, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(A)', ' No Errors'
  call MPI_FINALIZE(ierr)
end program trace_inplace_f
