/* poll_vs_sleep: what waiting costs. The last rank sleeps for a while, then sends one message to
 * every other rank; those wait for it in one of three ways:
 *
 *   poll_vs_sleep MODE [milliseconds]      MODE: sleep | iprobe | test; default 100 ms
 *
 *   sleep    block in MPI_Recv (the core idles)
 *   iprobe   spin on MPI_Iprobe until the message is there, then MPI_Recv it
 *   test     MPI_Irecv, then spin on MPI_Test
 *
 * The waiting time is the same in every mode; under SMPI the energy is not: SMPI runs each
 * MPI_Iprobe as a short computation (smpi/iprobe, 1e-4 s, at smpi/iprobe-cpu-usage of a core)
 * and each MPI_Test as a sleep (smpi/test). Rank 0 prints the mode, its wait in seconds and
 * how many calls it made. Only MPI-1 calls and usleep (SMPI turns it into simulated time). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAG 7

int main(int argc, char** argv)
{
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  const char* mode = argc > 1 ? argv[1] : "";
  long ms          = argc > 2 ? strtol(argv[2], NULL, 10) : 100;
  if ((strcmp(mode, "sleep") && strcmp(mode, "iprobe") && strcmp(mode, "test")) || ms < 0 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: poll_vs_sleep sleep|iprobe|test [milliseconds >= 0] (at least 2 ranks)\n");
    MPI_Finalize();
    return 2;
  }

  const int sender = size - 1;
  int value        = 0;
  long calls       = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  if (rank == sender) {
    usleep((useconds_t)(ms * 1000));
    for (int r = 0; r < sender; ++r) {
      value = r + 1000;
      MPI_Send(&value, 1, MPI_INT, r, TAG, MPI_COMM_WORLD);
    }
  } else if (!strcmp(mode, "sleep")) {
    MPI_Recv(&value, 1, MPI_INT, sender, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    calls = 1;
  } else if (!strcmp(mode, "iprobe")) {
    int flag = 0;
    while (!flag) {
      MPI_Iprobe(sender, TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      ++calls;
    }
    MPI_Recv(&value, 1, MPI_INT, sender, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Request req;
    int flag = 0;
    MPI_Irecv(&value, 1, MPI_INT, sender, TAG, MPI_COMM_WORLD, &req);
    while (!flag) {
      MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
      ++calls;
    }
  }
  double waited = MPI_Wtime() - start;
  if (rank != sender && value != rank + 1000)
    fprintf(stderr, "poll_vs_sleep: rank %d received %d\n", rank, value);
  if (rank == 0)
    printf("mode %s waited %.6f s calls %ld\n", mode, waited, calls);
  MPI_Finalize();
  return 0;
}
