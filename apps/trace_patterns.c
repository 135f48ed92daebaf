/* trace_patterns: the MPI patterns SimGrid 3.32's own TI tracer/replayer gets wrong, for
 * `haec trace record` and its replay (libs/trace/README.md).
 *
 *   trace_patterns [rounds]      default 3 rounds; needs at least 3 ranks
 *   trace_patterns rma           one MPI_Put in a fence epoch (cannot be replayed)
 *
 * One round:
 *   1. wildcard receives: every rank but 0 computes for a time that decreases with its rank, then
 *      sends to rank 0, which receives them with MPI_ANY_SOURCE (blocking, then MPI_Irecv with
 *      MPI_ANY_SOURCE / MPI_ANY_TAG) on a duplicate of MPI_COMM_WORLD: they arrive in reverse
 *      rank order;
 *   2. requests waited one by one after a waitall on a subset: each rank posts receives from
 *      both ring neighbours and sends to both, MPI_Waitall's the sends only, then MPI_Wait's
 *      the receives one by one in reverse order; then an MPI_Waitany loop and MPI_Test polling;
 *   3. non-blocking collectives overlapped with computation: MPI_Ialltoall + MPI_Iallreduce +
 *      MPI_Ibcast, computing before MPI_Waitall, and an MPI_Ibarrier completed by MPI_Test.
 * Computation is explicit: under SMPI smpi_execute_flops (deterministic simulated time),
 * elsewhere a loop. Rank 0 prints a checksum of what it received; it depends only on the rank
 * count and the rounds. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost_injection.h"

#define N_A2A 64 /* ints per rank pair in the all-to-all */

static int rma(int rank, int size)
{
  int* base = NULL;
  MPI_Win win;
  MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  *base = -1;
  MPI_Win_fence(0, win);
  MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  if (rank == 0)
    printf("rma: rank 0 holds %d\n", *base);
  MPI_Win_free(&win);
  return 0;
}

int main(int argc, char** argv)
{
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  use_injected_cost(); /* smpi_execute_flops under SMPI, a real loop elsewhere */
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && !strcmp(argv[1], "rma")) {
    rma(rank, size);
    MPI_Finalize();
    return 0;
  }
  int rounds = argc > 1 ? atoi(argv[1]) : 3;
  if (size < 3 || rounds < 1) {
    if (rank == 0)
      fprintf(stderr, "usage: trace_patterns [rounds >= 1] | rma (at least 3 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Comm wild; /* the wildcard receives' own communicator: MPI_ANY_TAG must not catch part 2 */
  MPI_Comm_dup(MPI_COMM_WORLD, &wild);
  long checksum   = 0;
  int* a2a_send   = malloc(sizeof(int) * N_A2A * size);
  int* a2a_recv   = malloc(sizeof(int) * N_A2A * size);
  for (int i = 0; i < N_A2A * size; ++i)
    a2a_send[i] = rank * 1000 + i;

  for (int round = 0; round < rounds; ++round) {
    /* 1. wildcard receives, arriving in reverse rank order */
    if (rank == 0) {
      for (int k = 1; k < size; ++k) {
        int v = 0;
        MPI_Status st;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, wild, &st);
        checksum = checksum * 7 + st.MPI_SOURCE * 100 + v;
      }
      for (int k = 1; k < size; ++k) {
        int v = 0;
        MPI_Request r;
        MPI_Status st;
        MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, wild, &r);
        charge(2e5);
        MPI_Wait(&r, &st);
        checksum = checksum * 7 + st.MPI_SOURCE * 100 + st.MPI_TAG + v;
      }
    } else {
      int v = rank + round;
      charge(1e6 * (size - rank));
      MPI_Send(&v, 1, MPI_INT, 0, 5, wild);
      charge(3e5 * (size - rank));
      MPI_Send(&v, 1, MPI_INT, 0, 10 + rank, wild);
    }

    /* 2. waitall on a subset, then the rest one by one; waitany; test polling */
    int from_left = 0, from_right = 0, out = rank;
    MPI_Request recv[2], send[2];
    MPI_Irecv(&from_left, 1, MPI_INT, left, 20, MPI_COMM_WORLD, &recv[0]);
    MPI_Irecv(&from_right, 1, MPI_INT, right, 21, MPI_COMM_WORLD, &recv[1]);
    charge(1e5 * (rank + 1));
    MPI_Isend(&out, 1, MPI_INT, right, 20, MPI_COMM_WORLD, &send[0]);
    MPI_Isend(&out, 1, MPI_INT, left, 21, MPI_COMM_WORLD, &send[1]);
    MPI_Waitall(2, send, MPI_STATUSES_IGNORE);
    MPI_Wait(&recv[1], MPI_STATUS_IGNORE);
    MPI_Wait(&recv[0], MPI_STATUS_IGNORE);
    checksum += from_left + 3 * from_right;

    int big[2][256];
    MPI_Request any[2];
    MPI_Irecv(big[0], 256, MPI_INT, left, 30, MPI_COMM_WORLD, &any[0]);
    MPI_Irecv(big[1], 256, MPI_INT, right, 31, MPI_COMM_WORLD, &any[1]);
    int payload[256];
    for (int i = 0; i < 256; ++i)
      payload[i] = rank + i;
    charge(5e4 * (size - rank));
    MPI_Send(payload, 256, MPI_INT, right, 30, MPI_COMM_WORLD);
    MPI_Send(payload, 256, MPI_INT, left, 31, MPI_COMM_WORLD);
    for (int k = 0; k < 2; ++k) {
      int idx = -1;
      MPI_Waitany(2, any, &idx, MPI_STATUS_IGNORE);
      checksum += big[idx][255];
    }
    int token = 0, flag = 0;
    MPI_Request t;
    if (rank == 0) {
      charge(4e5);
      token = 42 + round;
      MPI_Send(&token, 1, MPI_INT, 1, 40, MPI_COMM_WORLD);
    } else if (rank == 1) {
      MPI_Irecv(&token, 1, MPI_INT, 0, 40, MPI_COMM_WORLD, &t);
      while (!flag)
        MPI_Test(&t, &flag, MPI_STATUS_IGNORE);
    }

    /* 3. non-blocking collectives overlapped with computation */
    int sum_in = rank + round, sum_out = 0, bc = rank == 0 ? 77 + round : 0;
    MPI_Request coll[3];
    MPI_Ialltoall(a2a_send, N_A2A, MPI_INT, a2a_recv, N_A2A, MPI_INT, MPI_COMM_WORLD, &coll[0]);
    MPI_Iallreduce(&sum_in, &sum_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &coll[1]);
    MPI_Ibcast(&bc, 1, MPI_INT, 0, MPI_COMM_WORLD, &coll[2]);
    charge(3e5 + 1e5 * rank);
    MPI_Waitall(3, coll, MPI_STATUSES_IGNORE);
    checksum += sum_out + bc + a2a_recv[N_A2A * (size - 1)];
    MPI_Request barrier;
    flag = 0;
    MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
    while (!flag)
      MPI_Test(&barrier, &flag, MPI_STATUS_IGNORE);
  }
  if (rank == 0)
    printf("trace_patterns ranks %d rounds %d checksum %ld\n", size, rounds, checksum);
  MPI_Comm_free(&wild);
  free(a2a_send);
  free(a2a_recv);
  MPI_Finalize();
  return 0;
}
