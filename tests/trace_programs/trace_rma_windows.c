/* trace_rma_windows: the one-sided calls beyond plain windows of MPI_COMM_WORLD, through `haec
 * trace record` and `haec run --replay` (tests). Two ranks or more.
 * - a dynamic window (MPI_Win_create_dynamic, _attach, _detach): puts and gets at the addresses
 *   the target published (MPI_Get_address), in lock/unlock epochs;
 * - a shared window (MPI_Win_allocate_shared) with MPI_Win_shared_query, fences and a put;
 * - request-based transfers (MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate) completed by
 *   MPI_Wait / MPI_Waitall in a lock_all epoch, to a neighbour and to the rank itself;
 * - a window on a communicator made by MPI_Comm_split.
 * Prints "No Errors" when the results are right. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, errors = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int next = (rank + 1) % size;

  /* dynamic window: each rank attaches 16 doubles and publishes their address */
  MPI_Win dyn;
  double* mem = calloc(16, sizeof(double));
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn);
  MPI_Win_attach(dyn, mem, 16 * sizeof(double));
  MPI_Aint mine, theirs = 0;
  MPI_Get_address(mem, &mine);
  MPI_Sendrecv(&mine, 1, MPI_AINT, (rank + size - 1) % size, 0, &theirs, 1, MPI_AINT, next, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  double x = rank + 1, y = 0;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, dyn);
  MPI_Put(&x, 1, MPI_DOUBLE, next, theirs, 1, MPI_DOUBLE, dyn);
  MPI_Win_unlock(next, dyn);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_SHARED, next, 0, dyn);
  MPI_Get(&y, 1, MPI_DOUBLE, next, theirs, 1, MPI_DOUBLE, dyn);
  MPI_Win_unlock(next, dyn);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_detach(dyn, mem);
  MPI_Win_free(&dyn);
  free(mem);

  /* shared window */
  MPI_Win shw;
  double* shared;
  MPI_Win_allocate_shared(8 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &shared, &shw);
  MPI_Aint qsize;
  int qunit;
  double* neighbour;
  MPI_Win_shared_query(shw, next, &qsize, &qunit, &neighbour);
  errors += qsize != 8 * (MPI_Aint)sizeof(double);
  MPI_Win_fence(0, shw);
  MPI_Put(&x, 1, MPI_DOUBLE, next, 1, 1, MPI_DOUBLE, shw);
  MPI_Win_fence(0, shw);
  MPI_Win_free(&shw);

  /* request-based transfers */
  MPI_Win win;
  double* base;
  MPI_Win_allocate(32 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  MPI_Win_lock_all(0, win);
  MPI_Request r[5];
  double got[4], old = 0;
  MPI_Rput(&x, 1, MPI_DOUBLE, next, 0, 1, MPI_DOUBLE, win, &r[0]);
  MPI_Rget(&got[0], 2, MPI_DOUBLE, next, 4, 2, MPI_DOUBLE, win, &r[1]);
  MPI_Raccumulate(&x, 1, MPI_DOUBLE, next, 8, 1, MPI_DOUBLE, MPI_SUM, win, &r[2]);
  MPI_Rput(&x, 1, MPI_DOUBLE, rank, 12, 1, MPI_DOUBLE, win, &r[3]); /* to itself */
  MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  r[4] = MPI_REQUEST_NULL;
  MPI_Rget_accumulate(&x, 1, MPI_DOUBLE, &old, 1, MPI_DOUBLE, next, 16, 1, MPI_DOUBLE, MPI_SUM, win, &r[4]);
  MPI_Win_flush_all(win);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);

  /* a window on the even or odd half */
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  int hrank, hsize;
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_size(half, &hsize);
  MPI_Win hw;
  double* hbase;
  MPI_Win_allocate(4 * sizeof(double), sizeof(double), MPI_INFO_NULL, half, &hbase, &hw);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, (hrank + 1) % hsize, 0, hw);
  MPI_Accumulate(&x, 1, MPI_DOUBLE, (hrank + 1) % hsize, 0, 1, MPI_DOUBLE, MPI_SUM, hw);
  MPI_Win_unlock((hrank + 1) % hsize, hw);
  MPI_Barrier(half);
  MPI_Win_free(&hw);
  MPI_Comm_free(&half);

  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0)
    printf(" No Errors\n");
  MPI_Finalize();
  return all != 0;
}
