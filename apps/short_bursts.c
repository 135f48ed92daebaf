/* short_bursts: many short computations between small MPI calls, the case where anything an MPI
 * layer adds per call shows in the emulated time (bench/wrapper_fidelity.py).
 *
 *   short_bursts [--iters N] [--work W] [--test-every K] [--burn-us U] [--wtime-every K]
 *
 * Each rank, N times (default 20000): W passes (default 40, about 3 us) of real floating-point
 * work over a small array, then an 8-byte MPI_Sendrecv with its ring neighbours; every K-th
 * iteration (default 4; 0: never) an extra 8-byte exchange posted with MPI_Irecv/MPI_Isend and
 * completed by polling MPI_Test. Rank 0 prints `short_bursts iterations=N ranks=R checksum=C`.
 * --burn-us U burns U microseconds of this rank's CPU time per iteration in its own code (tests:
 * SMPI charges it). --wtime-every K calls MPI_Wtime half-way through the work of every K-th
 * iteration (SMPI charges the work so far there and pauses the rank for smpi/wtime). A bad option makes rank 0 print one line and the program exit with status 2. */
#include "app_start.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CELLS 64

static double work(double* cells, long passes)
{
  double sum = 0;
  for (long p = 0; p < passes; ++p)
    for (int i = 0; i < CELLS; ++i) {
      cells[i] = cells[i] * 0.999 + 0.001 * (double)(i + p);
      sum += cells[i];
    }
  return sum;
}

/* The C library's clock, not SMPI's: SMPI's headers make clock_gettime charge the computation so
 * far and advance the simulated clock, which a burn in the application's own code must not do. */
#undef clock_gettime
static double thread_cpu_us(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static void burn(double us)
{
  const double until = thread_cpu_us() + us;
  while (thread_cpu_us() < until) {
  }
}

static void usage(FILE* out)
{
  fprintf(out, "usage: short_bursts [--iters N (>=1)] [--work W (>=0)] [--test-every K (>=0)] [--burn-us U (>=0)] "
               "[--wtime-every K (>=0)]\n");
}

/* The value of option argv[i] ("--name VALUE"), or an error message. */
static const char* read_long(int argc, char** argv, int* i, long min_value, long* out)
{
  static char error[160];
  if (*i + 1 >= argc) {
    snprintf(error, sizeof error, "%s needs a value", argv[*i]);
    return error;
  }
  char* end = NULL;
  const long v = strtol(argv[*i + 1], &end, 10);
  if (end == argv[*i + 1] || *end != '\0' || v < min_value) {
    snprintf(error, sizeof error, "%s must be an integer >= %ld, got '%s'", argv[*i], min_value, argv[*i + 1]);
    return error;
  }
  *out = v;
  ++*i;
  return NULL;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iters = 20000, passes = 40, test_every = 4, burn_us = 0, wtime_every = 0;
  const char* error = NULL;
  int help = 0;
  for (int i = 1; i < argc && error == NULL && !help; ++i) {
    if (strcmp(argv[i], "--iters") == 0)
      error = read_long(argc, argv, &i, 1, &iters);
    else if (strcmp(argv[i], "--work") == 0)
      error = read_long(argc, argv, &i, 0, &passes);
    else if (strcmp(argv[i], "--test-every") == 0)
      error = read_long(argc, argv, &i, 0, &test_every);
    else if (strcmp(argv[i], "--burn-us") == 0)
      error = read_long(argc, argv, &i, 0, &burn_us);
    else if (strcmp(argv[i], "--wtime-every") == 0)
      error = read_long(argc, argv, &i, 0, &wtime_every);
    else if (strcmp(argv[i], "--help") == 0)
      help = 1;
    else
      error = "unknown option (see --help)";
  }
  const int status = end_after_options("short_bursts", rank, error, help, usage);
  if (status >= 0)
    return status;

  double cells[CELLS];
  for (int i = 0; i < CELLS; ++i)
    cells[i] = rank + i;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double checksum = 0, out = 0, in = 0;
  for (long it = 0; it < iters; ++it) {
    if (wtime_every > 0 && it % wtime_every == 0) {
      checksum += work(cells, passes / 2);
      checksum += MPI_Wtime() * 1e-12;
      checksum += work(cells, passes - passes / 2);
    } else {
      checksum += work(cells, passes);
    }
    if (burn_us > 0)
      burn((double)burn_us);
    out = checksum;
    MPI_Sendrecv(&out, 1, MPI_DOUBLE, right, 1, &in, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    checksum += in * 1e-9;
    if (test_every > 0 && it % test_every == 0) {
      MPI_Request reqs[2];
      MPI_Irecv(&in, 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &reqs[0]);
      MPI_Isend(&out, 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &reqs[1]);
      int done = 0;
      while (!done)
        MPI_Testall(2, reqs, &done, MPI_STATUSES_IGNORE);
    }
  }
  double total = 0;
  MPI_Reduce(&checksum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("short_bursts iterations=%ld ranks=%d checksum=%.6e\n", iters, size, total);
  MPI_Finalize();
  return 0;
}
