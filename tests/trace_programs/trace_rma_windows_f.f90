! trace_rma_windows_f: request-based one-sided transfers on a window of a split communicator, from
! Fortran, through haec trace record and haec run --replay (tests). Two ranks or more. Prints
! "No Errors".
program trace_rma_windows_f
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nranks, half, hrank, hsize, win, errors, total, reqs(2)
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp
  double precision :: base(16), x, y
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  errors = 0
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr)
  call MPI_COMM_RANK(half, hrank, ierr)
  call MPI_COMM_SIZE(half, hsize, ierr)
  base = 0
  wsize = 16 * 8
  call MPI_WIN_CREATE(base, wsize, 8, MPI_INFO_NULL, half, win, ierr)
  call MPI_WIN_LOCK_ALL(0, win, ierr)
  x = rank
  disp = hrank
  call MPI_RPUT(x, 1, MPI_DOUBLE_PRECISION, mod(hrank + 1, hsize), disp, 1, MPI_DOUBLE_PRECISION, win, reqs(1), ierr)
  call MPI_RGET(y, 1, MPI_DOUBLE_PRECISION, mod(hrank + 1, hsize), disp, 1, MPI_DOUBLE_PRECISION, win, reqs(2), ierr)
  call MPI_WAITALL(2, reqs, MPI_STATUSES_IGNORE, ierr)
  call MPI_WIN_UNLOCK_ALL(win, ierr)
  call MPI_BARRIER(half, ierr)
  call MPI_WIN_FREE(win, ierr)
  call MPI_COMM_FREE(half, ierr)
  call MPI_ALLREDUCE(errors, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(A)', ' No Errors'
  call MPI_FINALIZE(ierr)
end program trace_rma_windows_f
