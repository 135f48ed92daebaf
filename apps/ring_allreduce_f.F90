! ring_allreduce_f: the Fortran twin of ring_allreduce.c, call for call (see that file): a ring
! exchange, neighbour swaps, wildcard receives and collectives through SMPI's `use mpi` module, so
! that libhaec_pmpi's Fortran entry points can be checked against its C ones
! (tests/integration/test_fortran_twin.sh). Built with `haec fc` (apps/CMakeLists.txt), which
! defines HAEC_SMPI: computation is then smpi_execute_flops, elsewhere a loop.
!
!   ring_allreduce_f [iterations]      default 6; needs at least 2 ranks
program ring_allreduce_f
  use mpi
  implicit none
  integer, parameter :: RING = 64, SWAP = 16
  integer :: rank, nranks, ierr, iterations, it, i, k, left, right, partner, v, idx
  integer :: mine(SWAP), theirs(SWAP), from_left, from_right, bcast(8)
  integer :: ring_req(2), pair(4), status(MPI_STATUS_SIZE)
  double precision :: out(RING), inbuf(RING), sums(4), local, total
  integer(kind=8) :: checksum
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  iterations = 6
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) iterations
  end if
  if (nranks < 2 .or. iterations < 1) then
    if (rank == 0) write (0, '(A)') 'usage: ring_allreduce_f [iterations >= 1] (at least 2 ranks)'
    call MPI_Finalize(ierr)
    stop 2
  end if
  left = mod(rank + nranks - 1, nranks)
  right = mod(rank + 1, nranks)
  partner = ieor(rank, 1)
  if (partner >= nranks) partner = MPI_PROC_NULL
  checksum = 0
  from_left = 0
  from_right = 0
  do it = 1, iterations
    call compute(20000.0d0 * (rank + 1))
    do i = 1, RING
      out(i) = rank + it + (i - 1)
    end do
    call MPI_Irecv(inbuf, RING, MPI_DOUBLE_PRECISION, left, 10, MPI_COMM_WORLD, ring_req(1), ierr)
    call MPI_Isend(out, RING, MPI_DOUBLE_PRECISION, right, 10, MPI_COMM_WORLD, ring_req(2), ierr)
    call MPI_Waitall(2, ring_req, MPI_STATUSES_IGNORE, ierr)
    checksum = checksum + int(inbuf(RING), 8)
    call compute(5000.0d0)
    do i = 1, SWAP
      mine(i) = rank * it + (i - 1)
    end do
    theirs(1) = 0
    call MPI_Sendrecv(mine, SWAP, MPI_INTEGER, partner, 20, theirs, SWAP, MPI_INTEGER, partner, 20, &
                      MPI_COMM_WORLD, status, ierr)
    checksum = checksum + theirs(1)
    if (rank == 0) then
      do k = 1, nranks - 1
        v = 0
        call MPI_Recv(v, 1, MPI_INTEGER, MPI_ANY_SOURCE, 30, MPI_COMM_WORLD, status, ierr)
        checksum = checksum + v * (status(MPI_SOURCE) + 1)
      end do
    else
      v = rank + it
      call compute(1000.0d0 * (nranks - rank)) ! arrive in reverse rank order
      call MPI_Send(v, 1, MPI_INTEGER, 0, 30, MPI_COMM_WORLD, ierr)
    end if
    call MPI_Irecv(from_left, 1, MPI_INTEGER, left, 40, MPI_COMM_WORLD, pair(1), ierr)
    call MPI_Irecv(from_right, 1, MPI_INTEGER, right, 41, MPI_COMM_WORLD, pair(2), ierr)
    call MPI_Isend(rank, 1, MPI_INTEGER, right, 40, MPI_COMM_WORLD, pair(3), ierr)
    call MPI_Isend(rank, 1, MPI_INTEGER, left, 41, MPI_COMM_WORLD, pair(4), ierr)
    do k = 1, 2
      idx = -1
      call MPI_Waitany(2, pair, idx, status, ierr)
      checksum = checksum + idx * (status(MPI_SOURCE) + 1)
    end do
    call MPI_Waitall(2, pair(3:4), MPI_STATUSES_IGNORE, ierr)
    checksum = checksum + from_left + from_right
    if (mod(it, 3) == 0) then
      do i = 1, 4
        sums(i) = rank + (i - 1)
      end do
      call MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
      checksum = checksum + int(sums(4), 8)
    end if
    do i = 1, 8
      bcast(i) = -1
      if (rank == 0) bcast(i) = it * 8 + (i - 1)
    end do
    call MPI_Bcast(bcast, 8, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    checksum = checksum + bcast(8)
  end do
  local = dble(checksum)
  total = 0
  call MPI_Reduce(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) write (*, '(A,I0,A,I0,A,I0)') 'ring_allreduce: ', nranks, ' ranks, ', iterations, &
                                          ' iterations, checksum ', nint(total, 8)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)

contains

  subroutine compute(flops)
    double precision, intent(in) :: flops
#ifdef HAEC_SMPI
    call smpi_execute_flops(flops)
#else
    double precision :: x
    integer(kind=8) :: j
    x = 0
    do j = 0, int(flops / 2, 8) - 1
      x = x + 1d-9 * dble(j)
    end do
    if (x < 0) write (*, *) x ! keeps the loop
#endif
  end subroutine compute

end program ring_allreduce_f
