// A C++ MPI program for the CMake project of tests/install: rank 0 prints the number of ranks.
#include <mpi.h>

#include <cstdio>

int main(int argc, char* argv[])
{
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("c++ ranks %d, sum of ranks %d\n", size, sum);
  return MPI_Finalize();
}
