/* rma_osu: one-sided latency and bandwidth loops in the manner of the OSU one-sided
 * micro-benchmarks (written for haec-smpi; no OSU code), for `haec trace record` and its replay.
 *
 *   rma_osu OP SYNC [max_bytes] [iterations]      defaults: 4096 bytes, 10 iterations
 *
 * OP    put | get | acc (MPI_Accumulate, MPI_SUM on doubles) | gacc (MPI_Get_accumulate) |
 *       fop (MPI_Fetch_and_op) | cas (MPI_Compare_and_swap) | rput (MPI_Rput: not replayable)
 * SYNC  fence (MPI_Win_fence epochs) | lock (MPI_Win_lock/unlock of the target, exclusive) |
 *       shared (the same, shared lock) | pscw (post/start/complete/wait) |
 *       flush (MPI_Win_lock_all once, MPI_Win_flush per epoch)
 *
 * Rank 0 is the origin, rank 1 the target; further ranks only take part in fences and barriers.
 * For every size 1, 2, 4 .. max_bytes: a latency loop (one operation per epoch) and a bandwidth
 * loop (16 operations per epoch at distinct displacements); fop and cas move one element and run
 * the latency loop only. Windows come from MPI_Win_allocate for the lock modes and MPI_Win_create
 * otherwise. Rank 0 prints one line per loop and size; the target prints a checksum of its window. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BURST 16 /* operations per epoch in the bandwidth loop */

typedef struct {
  const char* op;
  const char* sync;
  int rank, size;
  MPI_Win win;
  double* base;
  double* origin;
  double* result;
  MPI_Group peer; /* the other of ranks 0 and 1 */
} Bench;

static void epoch_begin(Bench* b)
{
  const char* s = b->sync;
  if (!strcmp(s, "fence"))
    MPI_Win_fence(0, b->win);
  else if (!strcmp(s, "lock") && b->rank == 0)
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, b->win);
  else if (!strcmp(s, "shared") && b->rank == 0)
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, b->win);
  else if (!strcmp(s, "pscw") && b->rank == 0)
    MPI_Win_start(b->peer, 0, b->win);
  else if (!strcmp(s, "pscw") && b->rank == 1)
    MPI_Win_post(b->peer, 0, b->win);
}

static void epoch_end(Bench* b)
{
  const char* s = b->sync;
  if (!strcmp(s, "fence"))
    MPI_Win_fence(0, b->win);
  else if ((!strcmp(s, "lock") || !strcmp(s, "shared")) && b->rank == 0)
    MPI_Win_unlock(1, b->win);
  else if (!strcmp(s, "pscw") && b->rank == 0)
    MPI_Win_complete(b->win);
  else if (!strcmp(s, "pscw") && b->rank == 1)
    MPI_Win_wait(b->win);
  else if (!strcmp(s, "flush") && b->rank == 0)
    MPI_Win_flush(1, b->win);
}

/* One operation of `count` doubles at displacement `disp` (in doubles) of rank 1's window. */
static void operation(Bench* b, int count, int disp)
{
  const char* op = b->op;
  if (!strcmp(op, "put"))
    MPI_Put(b->origin, count, MPI_DOUBLE, 1, disp, count, MPI_DOUBLE, b->win);
  else if (!strcmp(op, "get"))
    MPI_Get(b->origin, count, MPI_DOUBLE, 1, disp, count, MPI_DOUBLE, b->win);
  else if (!strcmp(op, "acc"))
    MPI_Accumulate(b->origin, count, MPI_DOUBLE, 1, disp, count, MPI_DOUBLE, MPI_SUM, b->win);
  else if (!strcmp(op, "gacc"))
    MPI_Get_accumulate(b->origin, count, MPI_DOUBLE, b->result, count, MPI_DOUBLE, 1, disp, count, MPI_DOUBLE,
                       MPI_SUM, b->win);
  else if (!strcmp(op, "fop"))
    MPI_Fetch_and_op(b->origin, b->result, MPI_DOUBLE, 1, disp, MPI_SUM, b->win);
  else if (!strcmp(op, "cas")) /* origin[0]: compare, origin[1]: the new value */
    MPI_Compare_and_swap(&b->origin[1], &b->origin[0], b->result, MPI_DOUBLE, 1, disp, b->win);
  else { /* rput */
    MPI_Request req;
    MPI_Rput(b->origin, count, MPI_DOUBLE, 1, disp, count, MPI_DOUBLE, b->win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
}

static void loop(Bench* b, int count, int per_epoch, int iterations, const char* what)
{
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < iterations; ++i) {
    if (b->rank == 0 && !strcmp(b->op, "cas")) { /* the target goes 0, 1, 1, 0, 0, 1 ...: every other swaps */
      b->origin[0] = (double)((i / 2) % 2);
      b->origin[1] = i % 2 == 0 ? 1.0 - b->origin[0] : b->origin[0];
    }
    epoch_begin(b);
    for (int k = 0; b->rank == 0 && k < per_epoch; ++k)
      operation(b, count, k * count);
    epoch_end(b);
  }
  double t = MPI_Wtime() - t0;
  if (b->rank == 0)
    printf("%s %s %s bytes=%d us=%.3f\n", b->op, b->sync, what, (int)(count * sizeof(double)),
           1e6 * t / iterations);
}

static void create_window(Bench* b, int max_count)
{
  MPI_Aint bytes = (MPI_Aint)max_count * BURST * (MPI_Aint)sizeof(double);
  if (!strcmp(b->sync, "lock") || !strcmp(b->sync, "shared") || !strcmp(b->sync, "flush")) {
    MPI_Win_allocate(bytes, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &b->base, &b->win);
  } else {
    b->base = calloc((size_t)max_count * BURST, sizeof(double));
    MPI_Win_create(b->base, bytes, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &b->win);
  }
  memset(b->base, 0, (size_t)bytes);
}

static void run(Bench* b, int max_count, int iterations)
{
  const int single = !strcmp(b->op, "fop") || !strcmp(b->op, "cas");
  if (!strcmp(b->sync, "flush") && b->rank == 0)
    MPI_Win_lock_all(0, b->win);
  for (int count = 1; count <= max_count; count *= 2) {
    loop(b, single ? 1 : count, 1, iterations, "latency");
    if (!single)
      loop(b, count, BURST, iterations, "bandwidth");
    if (single)
      break;
  }
  if (!strcmp(b->sync, "flush") && b->rank == 0)
    MPI_Win_unlock_all(b->win);
}

int main(int argc, char** argv)
{
  Bench b = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &b.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &b.size);
  b.op   = argc > 1 ? argv[1] : "";
  b.sync = argc > 2 ? argv[2] : "";
  int max_bytes = argc > 3 ? atoi(argv[3]) : 4096, iterations = argc > 4 ? atoi(argv[4]) : 10;
  const char* ops = " put get acc gacc fop cas rput ", *syncs = " fence lock shared pscw flush ";
  char op[16], sync[16];
  snprintf(op, sizeof op, " %s ", b.op), snprintf(sync, sizeof sync, " %s ", b.sync);
  if (b.size < 2 || !*b.op || !*b.sync || !strstr(ops, op) || !strstr(syncs, sync) || max_bytes < 8 ||
      iterations < 1) {
    if (b.rank == 0)
      fprintf(stderr, "usage: rma_osu put|get|acc|gacc|fop|cas|rput fence|lock|shared|pscw|flush [max_bytes >= 8] "
                      "[iterations] (at least 2 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  int max_count = max_bytes / (int)sizeof(double);
  create_window(&b, max_count);
  b.origin = calloc((size_t)max_count * BURST, sizeof(double));
  b.result = calloc((size_t)max_count * BURST, sizeof(double));
  for (int i = 0; i < max_count * BURST; ++i)
    b.origin[i] = 1.0 + i % 7;
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int other = b.rank == 0 ? 1 : 0;
  MPI_Group_incl(world, 1, &other, &b.peer);
  run(&b, max_count, iterations);
  MPI_Barrier(MPI_COMM_WORLD);
  if (b.rank == 1) {
    double sum = 0;
    for (int i = 0; i < max_count * BURST; ++i)
      sum += b.base[i];
    printf("target window sum %.1f\n", sum);
  }
  int allocated = !strcmp(b.sync, "lock") || !strcmp(b.sync, "shared") || !strcmp(b.sync, "flush");
  MPI_Win_free(&b.win);
  if (!allocated)
    free(b.base);
  free(b.origin), free(b.result);
  MPI_Group_free(&b.peer), MPI_Group_free(&world);
  MPI_Finalize();
  return 0;
}
