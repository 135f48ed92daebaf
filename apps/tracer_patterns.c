/* tracer_patterns: the MPI patterns of real codes that SimGrid 3.32's own tracer (smpirun
 * -trace-ti) writes as traces its replay rejects, for `haec trace check` and `haec trace repair`
 * (libs/trace/README.md, tests/faults/test_trace_repair.sh). Written for this project.
 *
 *   tracer_patterns halo [iterations]       like LULESH: MPI_Irecv from both ring neighbours, MPI_Isend
 *                                           to both, MPI_Waitall on the sends only, then MPI_Wait on
 *                                           each receive (the tracer writes "waitall 2" then "wait")
 *   tracer_patterns wildcard [iterations]   like HPCCG: each rank receives its left neighbour's message
 *                                           with MPI_ANY_SOURCE (only that rank sends it that tag)
 *   tracer_patterns anysource [iterations]  every rank but 0 sends to rank 0, which receives them with
 *                                           MPI_ANY_SOURCE: which message came first is not in the trace
 *   tracer_patterns nbcoll [iterations]     MPI_Ialltoall, MPI_Iallreduce and MPI_Ibcast completed by one
 *                                           MPI_Waitall, MPI_Igather by MPI_Wait, MPI_Ibarrier by MPI_Test
 *
 * Needs at least 2 ranks. Rank 0 prints a checksum that depends only on the mode, the rank count
 * and the iterations. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 256

static void compute(double flops)
{
#ifdef SMPI_H
  smpi_execute_flops(flops);
#else
  volatile double x = 0;
  for (long i = 0; i < (long)(flops / 2); ++i)
    x += 1e-9 * (double)i;
#endif
}

static long halo(int rank, int size, int iterations)
{
  double out[2][N], in[2][N];
  long sum = 0;
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int it = 0; it < iterations; ++it) {
    MPI_Request recv[2], send[2];
    for (int i = 0; i < N; ++i)
      out[0][i] = out[1][i] = rank + it;
    MPI_Irecv(in[0], N, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &recv[0]);
    MPI_Irecv(in[1], N, MPI_DOUBLE, right, 11, MPI_COMM_WORLD, &recv[1]);
    compute(1e5 * (1 + rank));
    MPI_Isend(out[0], N, MPI_DOUBLE, right, 10, MPI_COMM_WORLD, &send[0]);
    MPI_Isend(out[1], N, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &send[1]);
    MPI_Waitall(2, send, MPI_STATUSES_IGNORE);
    compute(5e4);
    MPI_Wait(&recv[1], MPI_STATUS_IGNORE);
    MPI_Wait(&recv[0], MPI_STATUS_IGNORE);
    sum += (long)in[0][0] + (long)in[1][N - 1];
  }
  return sum;
}

static long wildcard(int rank, int size, int iterations)
{
  long sum = 0;
  for (int it = 0; it < iterations; ++it) {
    int v = rank * 100 + it, got = 0;
    MPI_Request r;
    MPI_Isend(&v, 1, MPI_INT, (rank + 1) % size, 20 + rank % 2, MPI_COMM_WORLD, &r);
    compute(2e5);
    MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 20 + ((rank + size - 1) % size) % 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD); /* the next round's messages never overtake this one's */
    sum += got;
  }
  return sum;
}

static long anysource(int rank, int size, int iterations)
{
  long sum = 0;
  for (int it = 0; it < iterations; ++it) {
    int v = rank;
    if (rank == 0) {
      for (int k = 1; k < size; ++k) {
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sum += v;
      }
    } else {
      compute(1e6 / rank);
      MPI_Send(&v, 1, MPI_INT, 0, 30, MPI_COMM_WORLD);
    }
  }
  return sum;
}

static long nbcoll(int rank, int size, int iterations)
{
  long sum = 0;
  int* a2a_out = calloc((size_t)size * 16, sizeof(int));
  int* a2a_in  = calloc((size_t)size * 16, sizeof(int));
  int* gathered = calloc((size_t)size, sizeof(int));
  for (int it = 0; it < iterations; ++it) {
    MPI_Request reqs[3], g, b;
    int red = rank + it, red_out = 0, root_value = it, flag = 0;
    for (int i = 0; i < size * 16; ++i)
      a2a_out[i] = rank;
    MPI_Ialltoall(a2a_out, 16, MPI_INT, a2a_in, 16, MPI_INT, MPI_COMM_WORLD, &reqs[0]);
    MPI_Iallreduce(&red, &red_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[1]);
    MPI_Ibcast(&root_value, 1, MPI_INT, 0, MPI_COMM_WORLD, &reqs[2]);
    compute(3e5);
    MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
    MPI_Igather(&rank, 1, MPI_INT, gathered, 1, MPI_INT, 0, MPI_COMM_WORLD, &g);
    compute(1e5);
    MPI_Wait(&g, MPI_STATUS_IGNORE);
    MPI_Ibarrier(MPI_COMM_WORLD, &b);
    while (!flag) {
      compute(2e4);
      MPI_Test(&b, &flag, MPI_STATUS_IGNORE);
    }
    sum += red_out + a2a_in[(size - 1) * 16] + root_value;
  }
  free(a2a_out);
  free(a2a_in);
  free(gathered);
  return sum;
}

int main(int argc, char** argv)
{
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "";
  const int iterations = argc > 2 ? atoi(argv[2]) : 3;
  long sum = -1;
  if (size < 2 || iterations < 1) {
    if (rank == 0)
      fprintf(stderr, "tracer_patterns: needs at least 2 ranks and 1 iteration\n");
    MPI_Finalize();
    return 2;
  }
  if (!strcmp(mode, "halo"))
    sum = halo(rank, size, iterations);
  else if (!strcmp(mode, "wildcard"))
    sum = wildcard(rank, size, iterations);
  else if (!strcmp(mode, "anysource"))
    sum = anysource(rank, size, iterations);
  else if (!strcmp(mode, "nbcoll"))
    sum = nbcoll(rank, size, iterations);
  if (sum < 0) {
    if (rank == 0)
      fprintf(stderr, "tracer_patterns: unknown mode '%s'\n", mode);
    MPI_Finalize();
    return 2;
  }
  long total = 0;
  MPI_Reduce(&sum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("tracer_patterns %s ranks %d iterations %d checksum %ld\n", mode, size, iterations, total);
  MPI_Finalize();
  return 0;
}
