/* trace_inplace: MPI_IN_PLACE in blocking and non-blocking collectives through `haec trace record`
 * and `haec run --replay` (tests), on MPI_COMM_WORLD and on a duplicate of it. Any number of ranks.
 * The in-place ranks pass send counts MPI ignores (0) and receive counts that matter, as programs
 * do. Prints "No Errors" when the results are right. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int run(MPI_Comm comm)
{
  int rank, size, errors = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int* buf    = calloc((size_t)(4 * size), sizeof(int));
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < size; ++i) {
    counts[i] = 2;
    displs[i] = 2 * i;
  }
  MPI_Request r;
  for (int i = 0; i < 2 * size; ++i)
    buf[i] = i / 2;
  /* gathers: the root's own block is already in place */
  MPI_Igather(rank == 0 ? MPI_IN_PLACE : buf + 2 * rank, rank == 0 ? 0 : 2, MPI_INT, buf, 2, MPI_INT, 0, comm, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Gather(rank == 0 ? MPI_IN_PLACE : buf + 2 * rank, rank == 0 ? 0 : 2, MPI_INT, buf, 2, MPI_INT, 0, comm);
  MPI_Gatherv(rank == 0 ? MPI_IN_PLACE : buf + 2 * rank, 2, MPI_INT, buf, counts, displs, MPI_INT, 0, comm);
  MPI_Igatherv(rank == 0 ? MPI_IN_PLACE : buf + 2 * rank, 2, MPI_INT, buf, counts, displs, MPI_INT, 0, comm, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  for (int i = 0; i < 2 * size; ++i)
    errors += rank == 0 && buf[i] != i / 2;
  /* allgathers, alltoalls: every rank in place */
  MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 2, MPI_INT, comm, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 2, MPI_INT, comm);
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, counts, displs, MPI_INT, comm);
  MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, counts, displs, MPI_INT, comm, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 2, MPI_INT, comm, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 2, MPI_INT, comm);
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, counts, displs, MPI_INT, comm);
  MPI_Ialltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, counts, displs, MPI_INT, comm, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  /* scatters: the root keeps its own block */
  MPI_Iscatter(buf, 2, MPI_INT, rank == 0 ? MPI_IN_PLACE : buf, 2, MPI_INT, 0, comm, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Scatter(buf, 2, MPI_INT, rank == 0 ? MPI_IN_PLACE : buf, 2, MPI_INT, 0, comm);
  MPI_Scatterv(buf, counts, displs, MPI_INT, rank == 0 ? MPI_IN_PLACE : buf, 2, MPI_INT, 0, comm);
  /* reductions */
  int v = 1;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, comm);
  errors += v != size;
  MPI_Iallreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, comm, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  errors += v != size * size;
  v = 1;
  MPI_Ireduce(rank == 0 ? MPI_IN_PLACE : &v, &v, 1, MPI_INT, MPI_SUM, 0, comm, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  errors += rank == 0 && v != size;
  free(buf), free(counts), free(displs);
  return errors;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, errors = run(MPI_COMM_WORLD), all = 0;
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  errors += run(dup);
  MPI_Comm_free(&dup);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0)
    printf(" No Errors\n");
  MPI_Finalize();
  return all != 0;
}
