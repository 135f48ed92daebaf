! own_work_f: Fortran MPI calls with nothing computed between them (tests/integration/test_pmpi_own_work.sh):
! each iteration a ring exchange (Irecv/Isend/Waitall), a Sendrecv, an Allreduce and a Test loop,
! all through libhaec_pmpi's Fortran entry points and their handle conversions.
program own_work_f
  use mpi
  implicit none
  integer :: rank, nranks, ierr, it, left, right, req(2), flag
  double precision :: out, inbuf, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  left = mod(rank + nranks - 1, nranks)
  right = mod(rank + 1, nranks)
  out = rank
  do it = 1, 30
    call MPI_Irecv(inbuf, 1, MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, req(1), ierr)
    call MPI_Isend(out, 1, MPI_DOUBLE_PRECISION, right, 1, MPI_COMM_WORLD, req(2), ierr)
    call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
    call MPI_Sendrecv(out, 1, MPI_DOUBLE_PRECISION, right, 2, inbuf, 1, MPI_DOUBLE_PRECISION, left, 2, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call MPI_Allreduce(inbuf, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    call MPI_Irecv(inbuf, 1, MPI_DOUBLE_PRECISION, left, 3, MPI_COMM_WORLD, req(1), ierr)
    call MPI_Isend(out, 1, MPI_DOUBLE_PRECISION, right, 3, MPI_COMM_WORLD, req(2), ierr)
    flag = 0
    do while (flag == 0)
      call MPI_Testall(2, req, flag, MPI_STATUSES_IGNORE, ierr)
    end do
  end do
  if (rank == 0) print '(A,F8.1)', 'own_work_f total=', total
  call MPI_Finalize(ierr)
end program
