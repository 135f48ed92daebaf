/* ring_allreduce: a ring exchange, neighbour swaps, wildcard receives and collectives, written
 * twice: here in C and in ring_allreduce_f.F90 in Fortran, call for call, so that the Fortran
 * layer of libhaec_pmpi can be checked against the C one (tests/integration/test_fortran_twin.sh).
 *
 *   ring_allreduce [iterations]      default 6; needs at least 2 ranks
 *
 * One iteration: compute; MPI_Irecv from the left + MPI_Isend to the right of 64 doubles, MPI_Waitall;
 * compute; MPI_Sendrecv of 16 ints with the partner rank^1 (MPI_PROC_NULL without one); every rank
 * but 0 sends one int to rank 0, which receives them with MPI_ANY_SOURCE (MPI_Recv, the status
 * names the sender); receives from both neighbours completed by MPI_Waitany; every 3rd iteration
 * an MPI_Allreduce with MPI_IN_PLACE, then an MPI_Bcast of 8 ints from rank 0. Computation is
 * explicit: under SMPI smpi_execute_flops (deterministic simulated time), elsewhere a loop. Rank 0
 * prints an integer checksum that depends only on the rank count and the iterations. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "cost_injection.h"

#define RING 64
#define SWAP 16

int main(int argc, char** argv)
{
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  use_injected_cost(); /* smpi_execute_flops under SMPI, a real loop elsewhere */
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 1 ? atoi(argv[1]) : 6;
  if (size < 2 || iterations < 1) {
    if (rank == 0)
      fprintf(stderr, "usage: ring_allreduce [iterations >= 1] (at least 2 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  const int partner = (rank ^ 1) < size ? (rank ^ 1) : MPI_PROC_NULL;
  double out[RING], in[RING], sums[4];
  int mine[SWAP], theirs[SWAP], from_left = 0, from_right = 0, bcast[8];
  long checksum = 0;
  MPI_Request ring[2], pair[4];
  MPI_Status status;
  for (int it = 1; it <= iterations; ++it) {
    charge(20000.0 * (rank + 1));
    for (int i = 0; i < RING; ++i)
      out[i] = rank + it + i;
    MPI_Irecv(in, RING, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &ring[0]);
    MPI_Isend(out, RING, MPI_DOUBLE, right, 10, MPI_COMM_WORLD, &ring[1]);
    MPI_Waitall(2, ring, MPI_STATUSES_IGNORE);
    checksum += (long)in[RING - 1];
    charge(5000.0);
    for (int i = 0; i < SWAP; ++i)
      mine[i] = rank * it + i;
    theirs[0] = 0;
    MPI_Sendrecv(mine, SWAP, MPI_INT, partner, 20, theirs, SWAP, MPI_INT, partner, 20, MPI_COMM_WORLD, &status);
    checksum += theirs[0];
    if (rank == 0) {
      for (int k = 1; k < size; ++k) {
        int v = 0;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 30, MPI_COMM_WORLD, &status);
        checksum += v * (status.MPI_SOURCE + 1);
      }
    } else {
      int v = rank + it;
      charge(1000.0 * (size - rank)); /* arrive in reverse rank order */
      MPI_Send(&v, 1, MPI_INT, 0, 30, MPI_COMM_WORLD);
    }
    MPI_Irecv(&from_left, 1, MPI_INT, left, 40, MPI_COMM_WORLD, &pair[0]);
    MPI_Irecv(&from_right, 1, MPI_INT, right, 41, MPI_COMM_WORLD, &pair[1]);
    MPI_Isend(&rank, 1, MPI_INT, right, 40, MPI_COMM_WORLD, &pair[2]);
    MPI_Isend(&rank, 1, MPI_INT, left, 41, MPI_COMM_WORLD, &pair[3]);
    for (int k = 0; k < 2; ++k) {
      int index = -1;
      MPI_Waitany(2, pair, &index, &status);
      checksum += (index + 1) * (status.MPI_SOURCE + 1);
    }
    MPI_Waitall(2, &pair[2], MPI_STATUSES_IGNORE);
    checksum += from_left + from_right;
    if (it % 3 == 0) {
      for (int i = 0; i < 4; ++i)
        sums[i] = rank + i;
      MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      checksum += (long)sums[3];
    }
    for (int i = 0; i < 8; ++i)
      bcast[i] = rank == 0 ? it * 8 + i : -1;
    MPI_Bcast(bcast, 8, MPI_INT, 0, MPI_COMM_WORLD);
    checksum += bcast[7];
  }
  double local = (double)checksum, total = 0; /* doubles: the Fortran twin has no MPI_LONG */
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("ring_allreduce: %d ranks, %d iterations, checksum %.0f\n", size, iterations, total);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
