/* trace_comms: communicators through `haec trace record` and `haec run --replay` (tests).
 *
 *   trace_comms [iterations]        (default 3; any number of ranks, 4 or more exercises everything)
 *
 * Makes communicators every way SMPI implements (MPI_Comm_split with MPI_UNDEFINED for some ranks,
 * MPI_Comm_dup, _create, _create_group, _split_type, MPI_Cart_create, MPI_Cart_sub keeping one
 * dimension and none) and runs every collective on them, blocking and not, then a miniAMR-like
 * loop: the ranks split into groups by a color that changes each iteration, reduce in their
 * group, and free it. Prints "No Errors" when every result is right. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errors = 0;

static void expect(int ok, const char* what, int rank)
{
  if (!ok) {
    fprintf(stderr, "rank %d: wrong result: %s\n", rank, what);
    ++errors;
  }
}

/* Every collective on `comm`, checking the results that are easy to predict. */
static void collectives(MPI_Comm comm, int world_rank)
{
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int* counts = malloc(sizeof(int) * size);
  int* displs = malloc(sizeof(int) * size);
  int* in     = malloc(sizeof(int) * 4 * size);
  int* out    = malloc(sizeof(int) * 4 * size);
  MPI_Datatype* types = malloc(sizeof(MPI_Datatype) * size);
  for (int i = 0; i < size; ++i) {
    counts[i] = 2;
    displs[i] = 2 * i;
    types[i]  = MPI_INT;
  }
  for (int i = 0; i < 4 * size; ++i)
    in[i] = rank + 1;
  int v = rank + 1, sum = 0;
  MPI_Barrier(comm);
  MPI_Bcast(&v, 1, MPI_INT, size - 1, comm);
  expect(v == size, "bcast", world_rank);
  v = rank + 1;
  MPI_Reduce(&v, &sum, 1, MPI_INT, MPI_SUM, 0, comm);
  expect(rank != 0 || sum == size * (size + 1) / 2, "reduce", world_rank);
  MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, comm);
  expect(sum == size * (size + 1) / 2, "allreduce", world_rank);
  MPI_Scan(&v, &sum, 1, MPI_INT, MPI_SUM, comm);
  expect(sum == (rank + 1) * (rank + 2) / 2, "scan", world_rank);
  MPI_Exscan(&v, &sum, 1, MPI_INT, MPI_SUM, comm);
  MPI_Gather(in, 2, MPI_INT, out, 2, MPI_INT, 0, comm);
  MPI_Gatherv(in, 2, MPI_INT, out, counts, displs, MPI_INT, size - 1, comm);
  MPI_Scatter(in, 2, MPI_INT, out, 2, MPI_INT, 0, comm);
  MPI_Scatterv(in, counts, displs, MPI_INT, out, 2, MPI_INT, 0, comm);
  MPI_Allgather(in, 2, MPI_INT, out, 2, MPI_INT, comm);
  MPI_Allgatherv(in, 2, MPI_INT, out, counts, displs, MPI_INT, comm);
  MPI_Alltoall(in, 2, MPI_INT, out, 2, MPI_INT, comm);
  MPI_Alltoallv(in, counts, displs, MPI_INT, out, counts, displs, MPI_INT, comm);
  for (int i = 0; i < size; ++i)
    displs[i] = 2 * i * (int)sizeof(int); /* alltoallw: bytes */
  MPI_Alltoallw(in, counts, displs, types, out, counts, displs, types, comm);
  MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, comm);
  MPI_Reduce_scatter_block(in, out, 2, MPI_INT, MPI_SUM, comm);
  expect(out[0] == size * (size + 1) / 2, "reduce_scatter_block", world_rank);
  /* non-blocking, overlapped */
  MPI_Request r[4];
  int a = rank, b = 0, c[64], d[64];
  MPI_Iallreduce(&a, &b, 1, MPI_INT, MPI_MAX, comm, &r[0]);
  MPI_Ibcast(c, 8, MPI_INT, 0, comm, &r[1]);
  MPI_Ibarrier(comm, &r[2]);
  MPI_Iscan(&a, d, 1, MPI_INT, MPI_SUM, comm, &r[3]);
  MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  expect(b == size - 1, "iallreduce", world_rank);
  for (int i = 0; i < size; ++i)
    displs[i] = 2 * i;
  MPI_Igatherv(in, 2, MPI_INT, out, counts, displs, MPI_INT, 0, comm, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Ialltoallv(in, counts, displs, MPI_INT, out, counts, displs, MPI_INT, comm, &r[0]);
  MPI_Ireduce_scatter_block(in, out, 2, MPI_INT, MPI_SUM, comm, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  free(counts), free(displs), free(in), free(out), free(types);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 1 ? atoi(argv[1]) : 3;

  collectives(MPI_COMM_WORLD, rank);
  collectives(MPI_COMM_SELF, rank);

  MPI_Comm dup, half, high, even, node, cart, row, point;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  collectives(dup, rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half); /* keys reverse the order */
  collectives(half, rank);
  /* the upper half by MPI_Comm_create; the others get MPI_COMM_NULL */
  MPI_Group world_group, high_group, even_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int range[1][3] = {{size / 2, size - 1, 1}};
  MPI_Group_range_incl(world_group, 1, range, &high_group);
  MPI_Comm_create(MPI_COMM_WORLD, high_group, &high);
  expect((high != MPI_COMM_NULL) == (rank >= size / 2), "comm_create", rank);
  if (high != MPI_COMM_NULL)
    collectives(high, rank);
  /* the even ranks by MPI_Comm_create_group, which only they call */
  int even_range[1][3] = {{0, size - 1, 2}};
  MPI_Group_range_incl(world_group, 1, even_range, &even_group);
  if (rank % 2 == 0) {
    MPI_Comm_create_group(MPI_COMM_WORLD, even_group, 7, &even);
    collectives(even, rank);
    MPI_Comm_free(&even);
  }
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  collectives(node, rank);
  /* a 2-D torus of the first 2 x (size / 2) ranks, then its rows, then no dimension at all */
  if (size >= 2) {
    int dims[2] = {2, size / 2}, periods[2] = {1, 1}, keep_row[2] = {0, 1}, keep_none[2] = {0, 0};
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    if (cart != MPI_COMM_NULL) {
      MPI_Cart_sub(cart, keep_row, &row);
      collectives(row, rank);
      MPI_Cart_sub(cart, keep_none, &point);
      if (point != MPI_COMM_NULL)
        MPI_Comm_free(&point);
      MPI_Comm_free(&row);
      MPI_Comm_free(&cart);
    }
  }
  /* one-sided communication on a communicator other than MPI_COMM_WORLD */
  MPI_Win win;
  double* base;
  int half_rank, half_size;
  MPI_Comm_rank(half, &half_rank);
  MPI_Comm_size(half, &half_size);
  MPI_Win_allocate(64 * sizeof(double), sizeof(double), MPI_INFO_NULL, half, &base, &win);
  MPI_Win_fence(0, win);
  double x = rank;
  MPI_Put(&x, 1, MPI_DOUBLE, (half_rank + 1) % half_size, half_rank, 1, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);
  MPI_Barrier(half); /* completes the window's transfers in SMPI */
  MPI_Win_free(&win);

  /* miniAMR's pattern: groups by a color that changes, a reduction in each, freed each time */
  for (int it = 0; it < iterations; ++it) {
    MPI_Comm group;
    const int color = (rank / (it + 1)) % 3 == 2 ? MPI_UNDEFINED : (rank / (it + 1)) % 3;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &group);
    if (group != MPI_COMM_NULL) {
      double local = rank, total = 0;
      MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, group);
      MPI_Comm_free(&group);
    }
  }
  MPI_Comm_free(&node);
  if (high != MPI_COMM_NULL)
    MPI_Comm_free(&high);
  MPI_Comm_free(&half);
  MPI_Comm_free(&dup);
  MPI_Group_free(&world_group);
  MPI_Group_free(&high_group);
  MPI_Group_free(&even_group);
  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0)
    printf(" No Errors\n");
  MPI_Finalize();
  return all != 0;
}
