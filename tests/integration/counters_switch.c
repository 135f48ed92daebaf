/* For test_trace_counters.sh: each rank computes, splits MPI_COMM_WORLD, computes again, then a
 * barrier, three times. With an argument the split goes through PMPI_Comm_split, which
 * libhaec_pmpi does not see: SMPI switches to other ranks inside it, in the middle of what the
 * layer counts as one burst. */
#include <mpi.h>
#include <stdio.h>

static double work(long n, double x)
{
  for (long i = 0; i < n; ++i)
    x += (double)i * 1e-9;
  return x;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x = 0;
  for (int it = 0; it < 3; ++it) {
    x = work(200000L * (rank + 1), x);
    MPI_Comm c;
    if (argc > 1)
      PMPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
    else
      MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
    x = work(200000L, x);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&c);
  }
  if (x < 0)
    printf("%g\n", x);
  MPI_Finalize();
  return 0;
}
