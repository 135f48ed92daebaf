/* pingpong: rank 0 exchanges a ping-pong with every other rank in turn, one message in flight
 * at a time, over a size sweep: 0 B, then powers of two from 1 B up to max_bytes.
 *
 *   pingpong [max_bytes] [repetitions]      defaults: 1048576 (1 MiB), 1
 *
 * Rank 0 prints one line per size with the mean round-trip time over all peers and repetitions.
 * Only MPI-1 calls; the message pattern is fixed, so under SMPI the output is deterministic. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long parse_arg(const char* text, const char* what, long min_value)
{
  char* end = NULL;
  long v    = strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < min_value) {
    fprintf(stderr, "pingpong: %s must be an integer >= %ld, got '%s'\n", what, min_value, text);
    return -1;
  }
  return v;
}

int main(int argc, char** argv)
{
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long max_bytes = 1L << 20, reps = 1;
  if (argc > 1)
    max_bytes = parse_arg(argv[1], "max_bytes", 0);
  if (argc > 2 && max_bytes >= 0)
    reps = parse_arg(argv[2], "repetitions", 1);
  if (max_bytes < 0 || reps < 0 || max_bytes > (1L << 30)) {
    if (rank == 0)
      fprintf(stderr, "usage: pingpong [max_bytes (0..1073741824)] [repetitions (>=1)]\n");
    MPI_Finalize();
    return 1;
  }

  char* buf = (char*)malloc(max_bytes > 0 ? (size_t)max_bytes : 1);
  memset(buf, rank & 0xff, max_bytes > 0 ? (size_t)max_bytes : 1);

  if (rank == 0)
    printf("# pingpong ranks=%d max_bytes=%ld repetitions=%ld\n", size, max_bytes, reps);

  /* size 0 first, then 1, 2, 4, ... <= max_bytes */
  for (long bytes = 0; bytes <= max_bytes; bytes = (bytes == 0 ? 1 : 2 * bytes)) {
    const int count = (int)bytes;
    const int tag   = 1;
    double total    = 0.0;
    for (int peer = 1; peer < size; ++peer) {
      for (long r = 0; r < reps; ++r) {
        if (rank == 0) {
          double t0 = MPI_Wtime();
          MPI_Send(buf, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
          MPI_Recv(buf, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          total += MPI_Wtime() - t0;
        } else if (rank == peer) {
          MPI_Recv(buf, count, MPI_BYTE, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(buf, count, MPI_BYTE, 0, tag, MPI_COMM_WORLD);
        }
      }
    }
    if (rank == 0) {
      long samples = (long)(size - 1) * reps;
      if (samples > 0)
        printf("bytes=%ld samples=%ld rtt_mean_us=%.6f\n", bytes, samples, 1e6 * total / (double)samples);
      else
        printf("bytes=%ld samples=0 rtt_mean_us=nan\n", bytes);
    }
  }

  free(buf);
  MPI_Finalize();
  return 0;
}
