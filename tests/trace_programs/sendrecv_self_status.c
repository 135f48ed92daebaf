/* sendrecv_self_status: MPI_Sendrecv of a rank with itself; its status must name the rank
 * (tests/integration/test_sendrecv_self_status.sh; SimGrid 3.32 and stock 4.1 name rank + 1, fixed
 * by third_party_patches/simgrid-4.1/0050-sendrecv-self-status-source.patch). Prints one line per
 * rank, "(wrong)" after a wrong status, and "No Errors" when none is. */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, in = -1, out, wrong = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  out = rank;
  MPI_Status st;
  MPI_Sendrecv(&out, 1, MPI_INT, rank, 7, &in, 1, MPI_INT, rank, 7, MPI_COMM_WORLD, &st);
  if (st.MPI_SOURCE != rank || st.MPI_TAG != 7 || in != rank)
    wrong = 1;
  printf("rank %d: MPI_SOURCE %d, MPI_TAG %d%s\n", rank, st.MPI_SOURCE, st.MPI_TAG, wrong ? " (wrong)" : "");
  int all = 0;
  MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0)
    printf(" No Errors\n");
  MPI_Finalize();
  return 0;
}
