/* intercomm: calls MPI_Intercomm_create, which SMPI does not implement: `haec trace record` stops
 * with one line naming the call (tests/bad_inputs). Two ranks or more. */
#include <mpi.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm half, inter = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
