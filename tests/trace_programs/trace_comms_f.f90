! trace_comms_f: communicators from Fortran through haec trace record and haec run --replay (tests):
! MPI_COMM_SPLIT (MPI_UNDEFINED for some ranks), MPI_COMM_DUP, MPI_CART_CREATE, MPI_CART_SUB and
! collectives on them, freed with MPI_COMM_FREE. Any number of ranks. Prints "No Errors".
program trace_comms_f
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nranks, color, half, dup, cart, row, errors, total, v, s
  integer :: dims(2), coords(2)
  logical :: periods(2), keep(2)
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  errors = 0
  color = mod(rank, 2)
  if (rank == nranks - 1 .and. nranks > 2) color = MPI_UNDEFINED
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, color, -rank, half, ierr)
  if (half /= MPI_COMM_NULL) then
    v = 1
    call MPI_ALLREDUCE(v, s, 1, MPI_INTEGER, MPI_SUM, half, ierr)
    call MPI_BCAST(s, 1, MPI_INTEGER, 0, half, ierr)
    call MPI_BARRIER(half, ierr)
    call MPI_COMM_FREE(half, ierr)
    if (half /= MPI_COMM_NULL) errors = errors + 1
  end if
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  v = rank
  call MPI_ALLREDUCE(v, s, 1, MPI_INTEGER, MPI_MAX, dup, ierr)
  if (s /= nranks - 1) errors = errors + 1
  call MPI_COMM_FREE(dup, ierr)
  if (nranks >= 2) then
    dims = (/ 2, nranks / 2 /)
    periods = (/ .true., .false. /)
    call MPI_CART_CREATE(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
    if (cart /= MPI_COMM_NULL) then
      call MPI_CART_COORDS(cart, rank, 2, coords, ierr)
      keep = (/ .false., .true. /)
      call MPI_CART_SUB(cart, keep, row, ierr)
      v = 1
      call MPI_ALLREDUCE(v, s, 1, MPI_INTEGER, MPI_SUM, row, ierr)
      if (s /= nranks / 2) errors = errors + 1
      call MPI_COMM_FREE(row, ierr)
      call MPI_COMM_FREE(cart, ierr)
    end if
  end if
  call MPI_ALLREDUCE(errors, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(A)', ' No Errors'
  call MPI_FINALIZE(ierr)
end program trace_comms_f
