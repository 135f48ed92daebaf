/* trace_p2p_modes: buffered, synchronous and cancelled point-to-point calls through `haec trace
 * record` and `haec run --replay` (tests). Any number of ranks (1 included: only the calls of a
 * rank with itself then).
 *
 *   trace_p2p_modes [bytes]     (default 1 MiB: above SMPI's detached-send threshold)
 *
 * - MPI_Bsend both ways between rank pairs before either receives: correct only because SMPI
 *   detaches buffered sends whatever their size (a plain send of that size would deadlock);
 * - MPI_Ibsend, MPI_Ssend and MPI_Issend, received late (the synchronous sender waits), and an
 *   MPI_Issend whose request is freed at once;
 * - a receive from MPI_ANY_SOURCE and one from a peer that never sends, both cancelled, and a
 *   cancelled MPI_Issend: none of them moves data;
 * - MPI_Sendrecv and MPI_Sendrecv_replace of a rank with itself (SMPI only copies).
 * Prints "No Errors" when every result is right. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, errors = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int bytes = argc > 1 ? atoi(argv[1]) : 1 << 20;
  const int peer  = rank ^ 1; /* pairs 0-1, 2-3, ...; a last odd rank has none */
  const int paired = peer < size;
  char* out = malloc((size_t)bytes);
  char* in  = malloc((size_t)bytes);
  int attach_size = 2 * (bytes + MPI_BSEND_OVERHEAD);
  char* attached  = malloc((size_t)attach_size);
  MPI_Buffer_attach(attached, attach_size);

  if (paired) {
    MPI_Request r;
    MPI_Bsend(out, bytes, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
    MPI_Ibsend(out, bytes, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Recv(in, bytes, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(in, bytes, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* synchronous: the lower rank sends, the higher one computes a little first */
    if (rank < peer) {
      MPI_Ssend(out, 16, MPI_CHAR, peer, 3, MPI_COMM_WORLD);
      MPI_Issend(out, 16, MPI_CHAR, peer, 4, MPI_COMM_WORLD, &r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      MPI_Issend(out, 16, MPI_CHAR, peer, 7, MPI_COMM_WORLD, &r); /* freed: it goes on unwaited */
      MPI_Request_free(&r);
    } else {
      volatile double x = 0;
      for (int i = 0; i < 1000000; ++i)
        x += i;
      MPI_Recv(in, 16, MPI_CHAR, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(in, 16, MPI_CHAR, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(in, 16, MPI_CHAR, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  /* cancelled requests */
  MPI_Request any, never, sync;
  MPI_Status st;
  int cancelled = 0;
  MPI_Irecv(in, 8, MPI_CHAR, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &any);
  MPI_Cancel(&any);
  MPI_Wait(&any, &st);
  MPI_Test_cancelled(&st, &cancelled);
  errors += !cancelled;
  MPI_Irecv(in, 8, MPI_CHAR, rank, 98, MPI_COMM_WORLD, &never);
  MPI_Cancel(&never);
  MPI_Wait(&never, &st);
  MPI_Test_cancelled(&st, &cancelled);
  errors += !cancelled;
  if (paired && rank < peer) {
    MPI_Issend(out, 8, MPI_CHAR, peer, 97, MPI_COMM_WORLD, &sync); /* never received */
    MPI_Cancel(&sync);
    MPI_Wait(&sync, &st);
    MPI_Test_cancelled(&st, &cancelled);
    errors += !cancelled;
  }
  /* a rank with itself */
  int mine = rank, got = -1;
  MPI_Sendrecv(&mine, 1, MPI_INT, rank, 5, &got, 1, MPI_INT, rank, 5, MPI_COMM_WORLD, &st);
  errors += got != rank;
  MPI_Sendrecv_replace(&mine, 1, MPI_INT, rank, 6, rank, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  errors += mine != rank;

  void* detached;
  MPI_Buffer_detach(&detached, &attach_size);
  free(attached), free(in), free(out);
  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0)
    printf(" No Errors\n");
  MPI_Finalize();
  return all != 0;
}
