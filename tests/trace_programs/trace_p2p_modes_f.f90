! trace_p2p_modes_f: buffered and cancelled point-to-point calls and a rank's sendrecv with itself
! from Fortran, through haec trace record and haec run --replay (tests). Any number of ranks.
! Prints "No Errors".
program trace_p2p_modes_f
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 262144
  integer :: ierr, rank, nranks, peer, req, errors, total, mine, got, bsize
  integer :: status(MPI_STATUS_SIZE)
  logical :: cancelled
  double precision :: out(n), in(n)
  character, allocatable :: attached(:)
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  errors = 0
  out = rank
  bsize = 8 * n + MPI_BSEND_OVERHEAD
  allocate(attached(bsize))
  call MPI_BUFFER_ATTACH(attached, bsize, ierr)
  peer = ieor(rank, 1)
  if (peer < nranks) then
    call MPI_BSEND(out, n, MPI_DOUBLE_PRECISION, peer, 1, MPI_COMM_WORLD, ierr)
    call MPI_RECV(in, n, MPI_DOUBLE_PRECISION, peer, 1, MPI_COMM_WORLD, status, ierr)
    if (in(1) /= peer) errors = errors + 1
  end if
  call MPI_IRECV(in, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, req, ierr)
  call MPI_CANCEL(req, ierr)
  call MPI_WAIT(req, status, ierr)
  call MPI_TEST_CANCELLED(status, cancelled, ierr)
  if (.not. cancelled) errors = errors + 1
  mine = rank
  call MPI_SENDRECV(mine, 1, MPI_INTEGER, rank, 5, got, 1, MPI_INTEGER, rank, 5, MPI_COMM_WORLD, status, ierr)
  if (got /= rank) errors = errors + 1
  call MPI_BUFFER_DETACH(attached, bsize, ierr)
  call MPI_ALLREDUCE(errors, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(A)', ' No Errors'
  call MPI_FINALIZE(ierr)
end program trace_p2p_modes_f
