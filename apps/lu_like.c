/* lu_like: communication skeleton of NAS LU (SSOR with pipelined wavefront sweeps) carrying
 * real floating-point work.
 *
 *   lu_like [iterations] [nz] [--mode real|flops]   defaults: 10 iterations, nz = 8 k-planes, real
 *
 * The ranks form a 2-D grid (rows x cols, as square as the communicator size allows); each
 * owns a 6 x 6 x nz block of points with 5 unknowns per point. One iteration:
 *   1. lower sweep from the (0,0) corner, plane by plane (k = 0..nz-1): receive the boundary
 *      row from the north and column from the west, solve the 36 points (5x5 block
 *      elimination each), send the last row south and the last column east;
 *   2. upper sweep back (k = nz-1..0): receive from south/east, solve, send north/west;
 *   3. u += omega (2 - omega) * correction, then rsd = f - M u on the local block (M holds
 *      the diagonal blocks and the in-rank k couplings; no communication).
 * A sweep message is 5 doubles x 6 boundary points (240 B) plus k mod 6 doubles of the
 * sender's per-variable plane sums, i.e. 240..280 B. Every 5th and the last iteration,
 * an MPI_Allreduce forms the residual norm; a final one forms the checksum that rank 0
 * prints. Only MPI-1 calls; the result depends only on the rank count and the arguments.
 *
 * --mode real (default): under SMPI the computation costs what SMPI measures of its CPU time, so
 * the simulated time depends on the machine that runs the emulation (that is emulation's point).
 * --mode flops: the kernels also count their floating-point operations (the same count on every
 * machine) and, before each MPI call, charge the count since the previous call with
 * smpi_execute_flops. Run it with --cfg=smpi/simulate-computation:no so that SMPI does not add the
 * measured CPU time: the simulated time then depends only on the arguments, the platform and the
 * mapping. The computation itself and the printed results are the same in both modes. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NV 5           /* unknowns per point */
#define NX 6           /* points per rank along i (west-east) */
#define NY 6           /* points per rank along j (north-south) */
#define EDGE (NV * NX) /* doubles of one boundary row/column (NX == NY) */
#define MAX_TRAILER 5
#define NORM_EVERY 5
#define TAG_LOWER 11
#define TAG_UPPER 12

static const double omega = 1.2;

/* Counted floating-point operations since the last MPI call (--mode flops). */
static double counted_flops = 0;
static int charge_counted   = 0;

static void count_flops(double n) { counted_flops += n; }

/* Called before every MPI call: the computation since the previous one costs its counted flops. */
static void charge_computation(void)
{
#ifdef SMPI_SAMPLE_FLOPS /* smpicc's mpi.h includes smpi/smpi.h; other MPIs have no such call */
  if (charge_counted && counted_flops > 0)
    smpi_execute_flops(counted_flops);
#endif
  counted_flops = 0;
}

/* Coupling matrices: lower (k-1, j-1, i-1) and upper (k+1, j+1, i+1) neighbours. */
static double cpl_lower[3][NV][NV], cpl_upper[3][NV][NV], diag0[NV][NV];

typedef struct {
  int rows, cols, row, col;
  int north, south, west, east; /* MPI_PROC_NULL at the domain boundary */
  int nz;
  double *u, *rsd, *v, *f;       /* [nz][NY][NX][NV] */
  double pipe_sum;               /* folded trailers received, enters the checksum */
} Block;

static size_t at(int k, int j, int i) { return (((size_t)k * NY + j) * NX + i) * NV; }

static void init_coefficients(void)
{
  for (int m = 0; m < NV; ++m)
    for (int n = 0; n < NV; ++n) {
      for (int d = 0; d < 3; ++d) {
        cpl_lower[d][m][n] = -0.05 * (1.0 + ((d + 3 * m + 5 * n) % 7) / 7.0);
        cpl_upper[d][m][n] = -0.05 * (1.0 + ((2 * d + 5 * m + 3 * n) % 7) / 7.0);
      }
      diag0[m][n] = (m == n) ? 4.0 + 0.25 * m : 0.05 * (((m * n + 1) % 3) - 1);
    }
}

/* Diagonal block of point (gk, gj, gi): position-dependent so every point needs its own solve. */
static void diag_block(int gk, int gj, int gi, double d[NV][NV])
{
  memcpy(d, diag0, sizeof diag0);
  double shift = 0.1 * ((gi + 2 * gj + 3 * gk) % 5);
  for (int m = 0; m < NV; ++m)
    d[m][m] += shift;
  count_flops(NV);
}

/* Solves d x = b in place (b becomes x) by Gaussian elimination; d is diagonally dominant.
 * 120 flops: elimination 95 (a division per pivot, then per row below it a multiplier and a
 * multiply-add per remaining column and for b), back substitution 25. */
static void solve5(double d[NV][NV], double b[NV])
{
  count_flops(120);
  for (int p = 0; p < NV; ++p) {
    double inv = 1.0 / d[p][p];
    for (int r = p + 1; r < NV; ++r) {
      double l = d[r][p] * inv;
      for (int c = p + 1; c < NV; ++c)
        d[r][c] -= l * d[p][c];
      b[r] -= l * b[p];
    }
  }
  for (int p = NV - 1; p >= 0; --p) {
    double s = b[p];
    for (int c = p + 1; c < NV; ++c)
      s -= d[p][c] * b[c];
    b[p] = s / d[p][p];
  }
}

/* acc += a * x for one 5x5 block; x may be NULL (outside the domain). */
static void add_matvec(double acc[NV], const double a[NV][NV], const double* x)
{
  if (x == NULL)
    return;
  count_flops(2 * NV * NV);
  for (int m = 0; m < NV; ++m)
    for (int n = 0; n < NV; ++n)
      acc[m] += a[m][n] * x[n];
}

static int gj_of(const Block* b, int j) { return b->row * NY + j; }
static int gi_of(const Block* b, int i) { return b->col * NX + i; }

/* rsd = f - M u, with M = diagonal blocks + in-rank k couplings. */
static void compute_residual(Block* b)
{
  for (int k = 0; k < b->nz; ++k)
    for (int j = 0; j < NY; ++j)
      for (int i = 0; i < NX; ++i) {
        double d[NV][NV], mu[NV] = {0, 0, 0, 0, 0};
        diag_block(k, gj_of(b, j), gi_of(b, i), d);
        add_matvec(mu, (const double(*)[NV])d, &b->u[at(k, j, i)]);
        add_matvec(mu, (const double(*)[NV])cpl_lower[0], k > 0 ? &b->u[at(k - 1, j, i)] : NULL);
        add_matvec(mu, (const double(*)[NV])cpl_upper[0], k + 1 < b->nz ? &b->u[at(k + 1, j, i)] : NULL);
        for (int m = 0; m < NV; ++m)
          b->rsd[at(k, j, i) + m] = b->f[at(k, j, i) + m] - mu[m];
        count_flops(NV);
      }
}

static int message_doubles(int k) { return EDGE + k % (MAX_TRAILER + 1); }

/* Boundary row j (dir 'r') or column i (dir 'c') of array a at plane k, plus the trailer. */
static void pack(const double* a, int k, char dir, int idx, double* msg)
{
  for (int p = 0; p < NX; ++p) {
    const double* src = dir == 'r' ? &a[at(k, idx, p)] : &a[at(k, p, idx)];
    memcpy(&msg[p * NV], src, NV * sizeof(double));
  }
  int trailer = message_doubles(k) - EDGE;
  count_flops((double)trailer * NX * NY);
  for (int m = 0; m < trailer; ++m) {
    double s = 0;
    for (int j = 0; j < NY; ++j)
      for (int i = 0; i < NX; ++i)
        s += a[at(k, j, i) + m];
    msg[EDGE + m] = s;
  }
}

static void fold_trailer(Block* b, const double* msg, int k)
{
  for (int m = EDGE; m < message_doubles(k); ++m)
    b->pipe_sum += 1e-3 * msg[m];
}

static void recv_edge(Block* b, int from, int tag, int k, double* msg)
{
  if (from == MPI_PROC_NULL)
    return;
  charge_computation();
  MPI_Recv(msg, message_doubles(k), MPI_DOUBLE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  fold_trailer(b, msg, k);
}

static void send_edge(const double* a, int to, int tag, int k, char dir, int idx, double* msg)
{
  if (to == MPI_PROC_NULL)
    return;
  pack(a, k, dir, idx, msg);
  charge_computation();
  MPI_Send(msg, message_doubles(k), MPI_DOUBLE, to, tag, MPI_COMM_WORLD);
}

/* Lower sweep (blts-like): v = (D + omega L)^-1 rsd, pipelined over k from the (0,0) corner. */
static void lower_sweep(Block* b)
{
  double from_north[EDGE + MAX_TRAILER], from_west[EDGE + MAX_TRAILER], out[EDGE + MAX_TRAILER];
  for (int k = 0; k < b->nz; ++k) {
    recv_edge(b, b->north, TAG_LOWER, k, from_north);
    recv_edge(b, b->west, TAG_LOWER, k, from_west);
    for (int j = 0; j < NY; ++j)
      for (int i = 0; i < NX; ++i) {
        double d[NV][NV], acc[NV] = {0, 0, 0, 0, 0}, x[NV];
        const double* below = k > 0 ? &b->v[at(k - 1, j, i)] : NULL;
        const double* north = j > 0 ? &b->v[at(k, j - 1, i)] : (b->north != MPI_PROC_NULL ? &from_north[i * NV] : NULL);
        const double* west  = i > 0 ? &b->v[at(k, j, i - 1)] : (b->west != MPI_PROC_NULL ? &from_west[j * NV] : NULL);
        add_matvec(acc, (const double(*)[NV])cpl_lower[0], below);
        add_matvec(acc, (const double(*)[NV])cpl_lower[1], north);
        add_matvec(acc, (const double(*)[NV])cpl_lower[2], west);
        for (int m = 0; m < NV; ++m)
          x[m] = b->rsd[at(k, j, i) + m] - omega * acc[m];
        count_flops(2 * NV);
        diag_block(k, gj_of(b, j), gi_of(b, i), d);
        solve5(d, x);
        memcpy(&b->v[at(k, j, i)], x, sizeof x);
      }
    send_edge(b->v, b->south, TAG_LOWER, k, 'r', NY - 1, out);
    send_edge(b->v, b->east, TAG_LOWER, k, 'c', NX - 1, out);
  }
}

/* Upper sweep (buts-like): v -= D^-1 omega U v, pipelined back from the far corner. */
static void upper_sweep(Block* b)
{
  double from_south[EDGE + MAX_TRAILER], from_east[EDGE + MAX_TRAILER], out[EDGE + MAX_TRAILER];
  for (int k = b->nz - 1; k >= 0; --k) {
    recv_edge(b, b->south, TAG_UPPER, k, from_south);
    recv_edge(b, b->east, TAG_UPPER, k, from_east);
    for (int j = NY - 1; j >= 0; --j)
      for (int i = NX - 1; i >= 0; --i) {
        double d[NV][NV], acc[NV] = {0, 0, 0, 0, 0};
        const double* above = k + 1 < b->nz ? &b->v[at(k + 1, j, i)] : NULL;
        const double* south =
            j + 1 < NY ? &b->v[at(k, j + 1, i)] : (b->south != MPI_PROC_NULL ? &from_south[i * NV] : NULL);
        const double* east =
            i + 1 < NX ? &b->v[at(k, j, i + 1)] : (b->east != MPI_PROC_NULL ? &from_east[j * NV] : NULL);
        add_matvec(acc, (const double(*)[NV])cpl_upper[0], above);
        add_matvec(acc, (const double(*)[NV])cpl_upper[1], south);
        add_matvec(acc, (const double(*)[NV])cpl_upper[2], east);
        for (int m = 0; m < NV; ++m)
          acc[m] *= omega;
        diag_block(k, gj_of(b, j), gi_of(b, i), d);
        solve5(d, acc);
        for (int m = 0; m < NV; ++m)
          b->v[at(k, j, i) + m] -= acc[m];
        count_flops(2 * NV);
      }
    send_edge(b->v, b->north, TAG_UPPER, k, 'r', 0, out);
    send_edge(b->v, b->west, TAG_UPPER, k, 'c', 0, out);
  }
}

static double residual_norm(const Block* b, int points_total)
{
  double local[NV] = {0, 0, 0, 0, 0}, global[NV];
  size_t n = at(b->nz, 0, 0);
  for (size_t p = 0; p < n; p += NV)
    for (int m = 0; m < NV; ++m)
      local[m] += b->rsd[p + m] * b->rsd[p + m];
  count_flops(2.0 * (double)n);
  charge_computation();
  MPI_Allreduce(local, global, NV, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double s = 0;
  for (int m = 0; m < NV; ++m)
    s += global[m];
  return sqrt(s / points_total);
}

static long parse_arg(const char* text, const char* what, long lo, long hi)
{
  char* end = NULL;
  long v    = strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi) {
    fprintf(stderr, "lu_like: %s must be an integer in [%ld, %ld], got '%s'\n", what, lo, hi, text);
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

  long iterations = 10, nz = 8;
  const char* positional[2] = {NULL, NULL};
  int npositional = 0, bad = 0;
  for (int a = 1; a < argc && !bad; ++a) {
    if (!strcmp(argv[a], "--mode") && a + 1 < argc) {
      charge_counted = !strcmp(argv[a + 1], "flops");
      bad            = !charge_counted && strcmp(argv[a + 1], "real") != 0;
      ++a;
    } else if (npositional < 2 && argv[a][0] != '-') {
      positional[npositional++] = argv[a];
    } else {
      bad = 1;
    }
  }
  if (!bad && positional[0])
    iterations = parse_arg(positional[0], "iterations", 1, 1000000);
  if (!bad && positional[1] && iterations > 0)
    nz = parse_arg(positional[1], "nz", 2, 100000);
  if (bad || iterations < 0 || nz < 0) {
    if (rank == 0)
      fprintf(stderr, "usage: lu_like [iterations] [nz] [--mode real|flops]\n");
    MPI_Finalize();
    return 1;
  }

  Block b;
  memset(&b, 0, sizeof b);
  b.rows = 1;
  for (int r = 1; r * r <= size; ++r)
    if (size % r == 0)
      b.rows = r;
  b.cols  = size / b.rows;
  b.row   = rank / b.cols;
  b.col   = rank % b.cols;
  b.north = b.row > 0 ? rank - b.cols : MPI_PROC_NULL;
  b.south = b.row + 1 < b.rows ? rank + b.cols : MPI_PROC_NULL;
  b.west  = b.col > 0 ? rank - 1 : MPI_PROC_NULL;
  b.east  = b.col + 1 < b.cols ? rank + 1 : MPI_PROC_NULL;
  b.nz    = (int)nz;

  size_t n = at(b.nz, 0, 0);
  b.u      = (double*)calloc(n, sizeof(double));
  b.rsd    = (double*)calloc(n, sizeof(double));
  b.v      = (double*)calloc(n, sizeof(double));
  b.f      = (double*)calloc(n, sizeof(double));
  init_coefficients();
  for (int k = 0; k < b.nz; ++k)
    for (int j = 0; j < NY; ++j)
      for (int i = 0; i < NX; ++i)
        for (int m = 0; m < NV; ++m)
          b.f[at(k, j, i) + m] = 1.0 + 0.5 * ((gi_of(&b, i) * 7 + gj_of(&b, j) * 13 + k * 3 + m * 5) % 17) / 17.0;

  const int points_total = size * NX * NY * b.nz;
  if (rank == 0)
    printf("# lu_like ranks=%d grid=%dx%d block=%dx%dx%d iterations=%ld%s\n", size, b.rows, b.cols, NY, NX, b.nz,
           iterations, charge_counted ? " mode=flops" : "");

  compute_residual(&b);
  for (long it = 1; it <= iterations; ++it) {
    lower_sweep(&b);
    upper_sweep(&b);
    const double scale = omega * (2.0 - omega);
    for (size_t p = 0; p < n; ++p)
      b.u[p] += scale * b.v[p];
    count_flops(2.0 * (double)n);
    compute_residual(&b); /* of the updated u: feeds the next sweep and the norm */
    if (it % NORM_EVERY == 0 || it == iterations) {
      double norm = residual_norm(&b, points_total);
      if (rank == 0)
        printf("iteration=%ld residual=%.10e\n", it, norm);
    }
  }

  double local[2] = {0, b.pipe_sum}, global[2];
  for (size_t p = 0; p < n; ++p)
    local[0] += b.u[p];
  count_flops((double)n);
  charge_computation();
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("lu_like iterations=%ld checksum=%.12e pipeline=%.12e\n", iterations, global[0] / points_total,
           global[1]);

  free(b.u);
  free(b.rsd);
  free(b.v);
  free(b.f);
  MPI_Finalize();
  return 0;
}
