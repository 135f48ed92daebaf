/* fault_cases: MPI programs that fail on purpose, for the fault-injection tests (tests/faults).
 *
 *   fault_cases deadlock        ranks 0 and 1 both MPI_Recv from each other first (tag 0)
 *   fault_cases ring            every rank MPI_Recv's from its left neighbour (tag 7) before sending
 *   fault_cases wait            rank 0 waits (MPI_Wait) for an MPI_Irecv that rank 1 never sends;
 *                               rank 1 waits in MPI_Barrier
 *   fault_cases abort           rank 1 prints two lines, then calls abort()
 *   fault_cases segv            rank 1 prints a line, then writes through a null pointer
 *   fault_cases exit            rank 1 returns 3 from main without MPI_Finalize
 *   fault_cases mpi-abort       rank 1 calls MPI_Abort(MPI_COMM_WORLD, 5)
 *   fault_cases leak            every rank builds a persistent send request (MPI_Send_init) and
 *                               never frees it, for SMPI's leak report (smpi/list-leaks)
 *   fault_cases long N          N iterations of real computation (about 10 ms per rank), a ring
 *                               exchange and an allreduce (runs to interrupt), then a normal end
 *
 * Every mode but long needs at least 2 ranks. Rank 0 prints "fault_cases <mode> done" when a mode
 * ends normally (which the failing modes must not reach). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile double fault_cases_sink;

/* Real work, about 2 ms per unit on a current core (no clock: under SMPI clock calls are
 * simulated calls). */
static void spin(int units)
{
  double x = 0;
  for (long i = 0; i < 1000000L * units; ++i)
    x += 1e-9 * (double)i;
  fault_cases_sink = x;
}

static void deadlock(int rank)
{
  int v = rank;
  if (rank < 2)
    MPI_Recv(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank < 2)
    MPI_Send(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
}

static void ring(int rank, int size)
{
  int v = rank;
  MPI_Recv(&v, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(&v, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD);
}

static void wait_forever(int rank)
{
  int v = 0;
  if (rank == 0) {
    MPI_Request r;
    MPI_Irecv(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

static void long_ring(int rank, int size, int iterations)
{
  int v = rank;
  for (int it = 0; it < iterations; ++it) {
    spin(5);
    MPI_Sendrecv_replace(&v, 1, MPI_INT, (rank + 1) % size, 1, (rank + size - 1) % size, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("fault_cases long iterations %d value %d\n", iterations, v);
}

int main(int argc, char** argv)
{
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "";
  if (size < 2 && strcmp(mode, "long") != 0) {
    if (rank == 0)
      fprintf(stderr, "fault_cases: needs at least 2 ranks\n");
    MPI_Finalize();
    return 2;
  }
  if (!strcmp(mode, "deadlock")) {
    deadlock(rank);
  } else if (!strcmp(mode, "ring")) {
    ring(rank, size);
  } else if (!strcmp(mode, "wait")) {
    wait_forever(rank);
  } else if (!strcmp(mode, "abort")) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
      printf("rank 1: about to abort\n");
      printf("rank 1: \x1b[31mlast words\x1b[0m\n");
      fflush(stdout);
      abort();
    }
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "segv")) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
      printf("rank 1: about to dereference a null pointer\n");
      fflush(stdout);
      volatile int* volatile p = NULL;
      *p = 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "exit")) {
    if (rank == 1)
      return 3;
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "mpi-abort")) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
      MPI_Abort(MPI_COMM_WORLD, 5);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "leak")) {
    static int unsent;
    MPI_Request never_freed;
    MPI_Send_init(&unsent, 1, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD, &never_freed);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(mode, "long")) {
    long_ring(rank, size, argc > 2 ? atoi(argv[2]) : 100);
  } else {
    if (rank == 0)
      fprintf(stderr, "fault_cases: unknown mode '%s'\n", mode);
    MPI_Finalize();
    return 2;
  }
  if (rank == 0)
    printf("fault_cases %s done\n", mode);
  MPI_Finalize();
  return 0;
}
