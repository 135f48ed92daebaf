! abort_f: every rank prints a line (buffered by libgfortran: stdout is a file), then rank 0 calls
! MPI_Abort (tests/integration/test_fortran_abort_output.sh: the lines must survive the abort).
program abort_f
  use mpi
  implicit none
  integer :: ierr, rank
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  print *, 'fortran rank', rank, 'says goodbye before the abort'
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program
