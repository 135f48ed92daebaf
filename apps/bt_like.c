/* bt_like: communication skeleton of NAS BT (seed 001: BT.D.4096) for the resilient link-model
 * experiments: most messages are 11,760 B and 1,960 B in equal numbers, plus rare ~200 KiB ones.
 *
 *   bt_like [--iters N] [--dims 3|2] [--large B] [--small B] [--rare B] [--rare-every K]
 *           [--chunks C] [--flops-per-iter F] [--mode flops|real]
 *
 * The ranks form a 3-D (or 2-D) process grid (MPI_Dims_create, rank order as MPI_Cart: 512 ranks
 * are 8x8x8). One iteration:
 *   1. every K-th iteration (K, 2K, ...), copy_faces: a rare message of --rare bytes to and from
 *      each face neighbour, one dimension at a time (MPI_Irecv/MPI_Isend/MPI_Waitall);
 *   2. compute_rhs: 1/4 of the iteration's flops;
 *   3. x, y (, z) solves, each a pipeline along its dimension split into C chunks: the forward
 *      elimination receives a --large message (BT: 5x5 block + 5 rhs per face point) from the lower
 *      neighbour, computes, sends one to the upper neighbour; back substitution does the same in
 *      the other direction with --small messages (BT: 5 rhs per face point). The remaining 3/4 of
 *      the flops are spread evenly over these 2 x C x dims stages.
 * So every rank exchanges large and small messages with its neighbours every iteration, as many
 * of each, and no collective runs inside the loop. Message contents are real data folded into a
 * 5-vector per rank whose sum, reduced at the end, is the checksum.
 *
 * --mode flops (default): under SMPI the flops are injected with smpi_execute_flops; run with
 * --cfg smpi/simulate-computation:no and the simulated time depends only on the arguments and the
 * platform (cost_injection.h). --mode real, or a non-SMPI build: a real floating-point loop of that
 * many flops. Plain MPI: the app changes no simulator setting. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_start.h"
#include "cost_injection.h"

#define APP "bt_like"
#define NV 5
#define TAG_RARE 100
#define TAG_FORWARD 200
#define TAG_BACKWARD 300

typedef struct {
  long iters, dims, large, small, rare, rare_every, chunks;
  double flops_per_iter;
  int real_mode, help;
} Options;

/* ---- decomposition ---- */

typedef struct {
  int nd, pgrid[3], coord[3];
  int nbr[3][2]; /* lower/upper neighbour per dimension, -1 at the domain boundary */
  double state[NV];
  double sent[3]; /* messages sent: large, small, rare */
} Rank;

static void rank_init(Rank* r, int rank, int size, int nd)
{
  memset(r, 0, sizeof *r);
  r->nd       = nd;
  int dims[3] = {0, 0, 0};
  MPI_Dims_create(size, nd, dims);
  for (int d = 0; d < 3; ++d)
    r->pgrid[d] = d < nd ? dims[d] : 1;
  r->coord[2] = rank % r->pgrid[2];
  r->coord[1] = (rank / r->pgrid[2]) % r->pgrid[1];
  r->coord[0] = rank / (r->pgrid[2] * r->pgrid[1]);
  for (int d = 0; d < 3; ++d)
    for (int s = 0; s < 2; ++s) {
      int c[3] = {r->coord[0], r->coord[1], r->coord[2]};
      c[d] += s ? 1 : -1;
      r->nbr[d][s] = (d < nd && c[d] >= 0 && c[d] < r->pgrid[d]) ? (c[0] * r->pgrid[1] + c[1]) * r->pgrid[2] + c[2]
                                                                 : -1;
    }
  for (int m = 0; m < NV; ++m)
    r->state[m] = 1.0 + 0.01 * ((rank * 7 + m * 3) % 13);
}

/* Message payload: doubles derived from the state, the stage and the position in the message. */
static void fill(const Rank* r, double* buf, long bytes, int stage)
{
  long n = bytes / (long)sizeof(double);
  for (long k = 0; k < n; ++k)
    buf[k] = r->state[k % NV] * (1.0 + 1e-3 * (double)((k + stage) % 17));
  memset((char*)buf + n * (long)sizeof(double), 0, (size_t)(bytes - n * (long)sizeof(double)));
}

/* Folds a received message into the state: a few damped updates, so the checksum depends on every
 * message's content and order but stays bounded. */
static void fold(Rank* r, const double* buf, long bytes)
{
  long n      = bytes / (long)sizeof(double);
  double acc[NV] = {0, 0, 0, 0, 0};
  for (long k = 0; k < n; ++k)
    acc[k % NV] += buf[k];
  for (int m = 0; m < NV; ++m) {
    long cnt    = n / NV + (m < n % NV ? 1 : 0);
    double mean = cnt > 0 ? acc[m] / (double)cnt : r->state[m];
    r->state[m] = 0.75 * r->state[m] + 0.25 * mean + 1e-3 * (m + 1);
  }
}

/* copy_faces: the rare big exchange, one dimension at a time to bound the memory of 512 ranks. */
static void copy_faces(Rank* r, const Options* o, double* sendbuf, double* recvbuf[2], int it)
{
  for (int d = 0; d < r->nd; ++d) {
    MPI_Request req[4];
    int nreq = 0;
    fill(r, sendbuf, o->rare, it);
    for (int s = 0; s < 2; ++s)
      if (r->nbr[d][s] >= 0)
        MPI_Irecv(recvbuf[s], (int)o->rare, MPI_BYTE, r->nbr[d][s], TAG_RARE + d, MPI_COMM_WORLD, &req[nreq++]);
    for (int s = 0; s < 2; ++s)
      if (r->nbr[d][s] >= 0) {
        MPI_Isend(sendbuf, (int)o->rare, MPI_BYTE, r->nbr[d][s], TAG_RARE + d, MPI_COMM_WORLD, &req[nreq++]);
        r->sent[2] += 1;
      }
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    for (int s = 0; s < 2; ++s)
      if (r->nbr[d][s] >= 0)
        fold(r, recvbuf[s], o->rare);
  }
}

/* One pipelined solve along dimension d: forward with large messages towards the upper side,
 * then backward with small messages towards the lower side. */
static void solve(Rank* r, const Options* o, int d, double stage_flops, double** large_out, double** small_out,
                  double* in)
{
  MPI_Request req[2 * 64];
  int nreq = 0;
  int lower = r->nbr[d][0], upper = r->nbr[d][1];
  for (int c = 0; c < o->chunks; ++c) {
    if (lower >= 0) {
      MPI_Recv(in, (int)o->large, MPI_BYTE, lower, TAG_FORWARD + d, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      fold(r, in, o->large);
    }
    charge(stage_flops);
    if (upper >= 0) {
      fill(r, large_out[c], o->large, c);
      MPI_Isend(large_out[c], (int)o->large, MPI_BYTE, upper, TAG_FORWARD + d, MPI_COMM_WORLD, &req[nreq++]);
      r->sent[0] += 1;
    }
  }
  for (int c = 0; c < o->chunks; ++c) {
    if (upper >= 0) {
      MPI_Recv(in, (int)o->small, MPI_BYTE, upper, TAG_BACKWARD + d, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      fold(r, in, o->small);
    }
    charge(stage_flops);
    if (lower >= 0) {
      fill(r, small_out[c], o->small, c);
      MPI_Isend(small_out[c], (int)o->small, MPI_BYTE, lower, TAG_BACKWARD + d, MPI_COMM_WORLD, &req[nreq++]);
      r->sent[1] += 1;
    }
  }
  MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
}

/* ---- arguments ---- */

static void usage(FILE* f)
{
  fprintf(f, "usage: " APP " [--iters N] [--dims 3|2] [--large B] [--small B] [--rare B] [--rare-every K]\n"
             "       [--chunks C] [--flops-per-iter F] [--mode flops|real]\n");
}

static int parse_long(const char* name, const char* text, long lo, long hi, long* out, char* err, size_t n)
{
  char* end = NULL;
  long v    = strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi) {
    snprintf(err, n, "%s must be an integer in [%ld, %ld], got '%s'", name, lo, hi, text);
    return 0;
  }
  *out = v;
  return 1;
}

static int parse_options(int argc, char** argv, Options* o, char* err, size_t n)
{
  *o = (Options){.iters = 20, .dims = 3, .large = 11760, .small = 1960, .rare = 204800, .rare_every = 10,
                 .chunks = 4, .flops_per_iter = 5e7, .real_mode = 0, .help = 0};
  for (int a = 1; a < argc; ++a) {
    const char* key = argv[a];
    if (!strcmp(key, "--help") || !strcmp(key, "-h")) {
      o->help = 1;
      continue;
    }
    struct {
      const char* name;
      long* dst;
      long lo, hi;
    } ints[] = {{"--iters", &o->iters, 1, 1000000000L}, {"--dims", &o->dims, 2, 3},
                {"--large", &o->large, 8, 1L << 30},     {"--small", &o->small, 8, 1L << 30},
                {"--rare", &o->rare, 8, 1L << 30},       {"--rare-every", &o->rare_every, 1, 1000000000L},
                {"--chunks", &o->chunks, 1, 64}};
    int known = !strcmp(key, "--flops-per-iter") || !strcmp(key, "--mode");
    for (size_t q = 0; q < sizeof ints / sizeof ints[0]; ++q)
      known |= !strcmp(key, ints[q].name);
    if (!known) {
      snprintf(err, n, "unknown option '%s' (see --help)", key);
      return 0;
    }
    if (a + 1 >= argc) {
      snprintf(err, n, "%s needs a value", key);
      return 0;
    }
    const char* val = argv[++a];
    if (!strcmp(key, "--mode")) {
      if (strcmp(val, "flops") && strcmp(val, "real")) {
        snprintf(err, n, "--mode must be flops or real, got '%s'", val);
        return 0;
      }
      o->real_mode = !strcmp(val, "real");
      continue;
    }
    if (!strcmp(key, "--flops-per-iter")) {
      char* end = NULL;
      double v  = strtod(val, &end);
      if (end == val || *end != '\0' || !isfinite(v) || v < 0) {
        snprintf(err, n, "--flops-per-iter must be a number >= 0, got '%s'", val);
        return 0;
      }
      o->flops_per_iter = v;
      continue;
    }
    for (size_t q = 0; q < sizeof ints / sizeof ints[0]; ++q)
      if (!strcmp(key, ints[q].name) && !parse_long(key, val, ints[q].lo, ints[q].hi, ints[q].dst, err, n))
        return 0;
  }
  return 1;
}

int main(int argc, char** argv)
{
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  Options o;
  char err[256];
  const char* error = parse_options(argc, argv, &o, err, sizeof err) ? NULL : err;
  const int early   = end_after_options(APP, rank, error, o.help, usage);
  if (early >= 0)
    return early;
  if (!o.real_mode)
    use_injected_cost();

  Rank r;
  rank_init(&r, rank, size, (int)o.dims);
  double* large_out[64];
  double* small_out[64];
  for (long c = 0; c < o.chunks; ++c) {
    large_out[c] = (double*)malloc((size_t)o.large + sizeof(double));
    small_out[c] = (double*)malloc((size_t)o.small + sizeof(double));
  }
  long in_bytes  = o.large > o.small ? o.large : o.small;
  double* in     = (double*)malloc((size_t)in_bytes + sizeof(double));
  double* rare_out = (double*)malloc((size_t)o.rare + sizeof(double));
  double* rare_in[2] = {(double*)malloc((size_t)o.rare + sizeof(double)),
                        (double*)malloc((size_t)o.rare + sizeof(double))};
  const double stage_flops = 0.75 * o.flops_per_iter / (2.0 * (double)o.chunks * (double)r.nd);
  if (rank == 0) {
    printf("# " APP " ranks=%d grid=%dx%d", size, r.pgrid[0], r.pgrid[1]);
    if (r.nd == 3)
      printf("x%d", r.pgrid[2]);
    printf(" large=%ld small=%ld rare=%ld rare_every=%ld chunks=%ld flops_per_iter=%g mode=%s cost=%s iterations=%ld\n",
           o.large, o.small, o.rare, o.rare_every, o.chunks, o.flops_per_iter, o.real_mode ? "real" : "flops",
           inject ? "smpi_execute_flops" : "real-loop", o.iters);
    fflush(stdout);
  }

  MPI_Barrier(MPI_COMM_WORLD); /* start line, outside the loop */
  double t0 = MPI_Wtime();
  for (long it = 1; it <= o.iters; ++it) {
    if (it % o.rare_every == 0)
      copy_faces(&r, &o, rare_out, rare_in, (int)it);
    charge(0.25 * o.flops_per_iter); /* compute_rhs */
    for (int d = 0; d < r.nd; ++d)
      solve(&r, &o, d, stage_flops, large_out, small_out, in);
  }
  double elapsed = MPI_Wtime() - t0;

  double local[4] = {0, r.sent[0], r.sent[1], r.sent[2]}, global[4] = {0, 0, 0, 0}, makespan = 0;
  for (int m = 0; m < NV; ++m)
    local[0] += r.state[m];
  MPI_Reduce(local, global, 4, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&elapsed, &makespan, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf(APP " iterations=%ld ranks=%d checksum=%.12e messages_large=%.0f messages_small=%.0f messages_rare=%.0f "
               "time_s=%.9f\n",
           o.iters, size, global[0] / size, global[1], global[2], global[3], makespan);
    fflush(stdout);
  }
  for (long c = 0; c < o.chunks; ++c) {
    free(large_out[c]);
    free(small_out[c]);
  }
  free(in);
  free(rare_out);
  free(rare_in[0]);
  free(rare_in[1]);
  MPI_Finalize();
  return 0;
}
