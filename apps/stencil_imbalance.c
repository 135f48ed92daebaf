/* stencil_imbalance: an Ondes3D-like iterative stencil code with controllable load imbalance, for
 * the DVFS and load-balancing experiments (MODELS.md §5, §6; thesis 002 chapter 9).
 *
 *   stencil_imbalance [--iters N] [--size CELLS | --global-size CELLS] [--dims 2|3] [--pattern ondes3d|hotspot|uniform]
 *                     [--border X] [--geology SPREAD] [--drift AMP] [--drift-period P] [--hot AMP]
 *                     [--hot-radius R] [--seed S] [--flops-per-cell F] [--mode flops|real] [--report]
 *
 * The ranks form a 2-D or 3-D process grid (MPI_Dims_create, rank order as MPI_Cart); each owns a
 * cube (square in 2-D) of L^dims cells, L = round(CELLS^(1/dims)), with halos 2 cells wide.
 * --size is per rank (weak scaling); --global-size is the whole domain, CELLS / ranks each (strong
 * scaling: capacity studies run the same problem on more and more nodes). One
 * iteration is Ondes3D's main loop: a "stress" phase (60 % of the cost) then a "velocity" phase
 * (40 %), each a 4th-order diffusion step on the real field followed by a halo exchange with the
 * face neighbours only (MPI_Irecv/MPI_Isend, then MPI_Waitall). There is no global
 * synchronisation in the loop; two MPI_Reduce at the end form the checksum and the time.
 *
 * Cost of a rank's iteration = cells x flops-per-cell x imbalance factor:
 *   ondes3d  (1 + border x faces on the domain boundary) x geology(x) x (1 + drift sin(2 pi it/P + phase(x)))
 *   hotspot  geology(x) x (1 + hot exp(-|x - c(it)|^2 / (2 R^2))), c circling the domain centre once per P
 *   uniform  1
 * x is the centre of the rank's subdomain in [0,1]^dims; geology and phase are smooth pseudo-random
 * fields of x drawn from the seed, so a finer decomposition of the same domain sees the same ground.
 * Faces, not a yes/no flag, because the absorbing layers of Ondes3D cost per face: with border 0.5
 * a 4x4 grid has interior/edge/corner costs 1 : 1.5 : 2, whose idle fractions 50/25/0 % are the
 * shape of thesis Table 9.2.
 *
 * --mode flops (default): under SMPI the cost is injected with smpi_execute_flops; run with
 * --cfg smpi/simulate-computation:no, the real stencil and bookkeeping cost no simulated time and
 * the simulated time depends only on the arguments and the platform (cost_injection.h). Plain MPI:
 * the app changes no simulator setting. --mode real, or any
 * non-SMPI build: the cost is a real floating-point loop of that many flops (measured by SMPI's
 * benchmarking under SMPI, hence not reproducible to the microsecond).
 * The field, hence the checksum, depends only on the global domain and the iteration count: it is
 * the same in both modes, for every pattern, and for any decomposition of the same global domain
 * (up to the summation order of the final reduction). */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_start.h"
#include "cost_injection.h"

#define APP "stencil_imbalance"
#define HALO 2        /* halo width of the 4th-order stencil */
#define MODES 6       /* sinusoidal modes of a pseudo-random field */
#define NU 0.05       /* diffusion number: stable for the 4th-order Laplacian up to 3-D (needs < 0.125) */
#define PHASES 2      /* stress, velocity */
static const double phase_share[PHASES] = {0.6, 0.4};
static const double pi = 3.14159265358979323846;

typedef enum { PATTERN_ONDES3D, PATTERN_HOTSPOT, PATTERN_UNIFORM } Pattern;

typedef struct {
  long iters, size, global_size, dims;
  double border, geology, drift, drift_period, hot, hot_radius, flops_per_cell;
  unsigned long seed;
  Pattern pattern;
  int real_mode, report, help;
} Options;

/* ---- deterministic pseudo-random fields ---- */

static uint64_t splitmix64(uint64_t* s)
{
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z          = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z          = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double uniform01(uint64_t* s) { return (double)(splitmix64(s) >> 11) * 0x1.0p-53; }

/* Smooth field on [0,1]^3 with values in [-1, 1]: a normalised sum of sinusoids of 1..3 periods. */
typedef struct {
  double f[MODES][3], phase[MODES], amp[MODES], amp_sum;
} Field;

static void field_init(Field* fl, unsigned long seed, uint64_t stream)
{
  uint64_t s = (uint64_t)seed * 0x100000001B3ull + stream;
  fl->amp_sum = 0;
  for (int m = 0; m < MODES; ++m) {
    for (int d = 0; d < 3; ++d)
      fl->f[m][d] = 1 + (int)(3 * uniform01(&s));
    fl->phase[m] = 2 * pi * uniform01(&s);
    fl->amp[m]   = 0.5 + 0.5 * uniform01(&s);
    fl->amp_sum += fl->amp[m];
  }
}

static double field_at(const Field* fl, const double x[3])
{
  double v = 0;
  for (int m = 0; m < MODES; ++m)
    v += fl->amp[m] * sin(2 * pi * (fl->f[m][0] * x[0] + fl->f[m][1] * x[1] + fl->f[m][2] * x[2]) + fl->phase[m]);
  return v / fl->amp_sum;
}

/* ---- decomposition and the local block ---- */

typedef struct {
  int nd;                     /* 2 or 3 */
  int pgrid[3], coord[3];     /* process grid and this rank's coordinates (unused dims: 1 and 0) */
  int nbr[3][2];              /* neighbour rank below/above in each dim, -1 at the domain boundary */
  int n[3], h[3];             /* interior extent and halo width per dim (2-D: n[2] = 1, h[2] = 0) */
  long stride[3];             /* index strides of the halo-padded array */
  long cells, padded;
  double* u;                  /* field, halo-padded */
  double* v;                  /* next field */
  double* sendbuf[3][2];      /* packed faces */
  double* recvbuf[3][2];      /* received halos */
  long face[3];               /* doubles of one face message in dim d */
  int faces_on_boundary;      /* domain-boundary faces of this subdomain */
  double centre[3];           /* subdomain centre in [0,1]^3 */
  int src[3];                 /* local index of the global source cell, or -1 */
} Block;

static long idx(const Block* b, int i, int j, int k)
{
  return (long)(i + b->h[0]) * b->stride[0] + (long)(j + b->h[1]) * b->stride[1] + (long)(k + b->h[2]) * b->stride[2];
}

static int rank_of(const Block* b, const int c[3])
{
  return (c[0] * b->pgrid[1] + c[1]) * b->pgrid[2] + c[2];
}

static void block_init(Block* b, int rank, int size, int nd, long side)
{
  memset(b, 0, sizeof *b);
  b->nd       = nd;
  int dims[3] = {0, 0, 0};
  MPI_Dims_create(size, nd, dims);
  for (int d = 0; d < 3; ++d) {
    b->pgrid[d] = d < nd ? dims[d] : 1;
    b->n[d]     = d < nd ? (int)side : 1;
    b->h[d]     = d < nd ? HALO : 0;
  }
  b->coord[2] = rank % b->pgrid[2];
  b->coord[1] = (rank / b->pgrid[2]) % b->pgrid[1];
  b->coord[0] = rank / (b->pgrid[2] * b->pgrid[1]);
  for (int d = 0; d < 3; ++d)
    for (int s = 0; s < 2; ++s) {
      int c[3] = {b->coord[0], b->coord[1], b->coord[2]};
      c[d] += s ? 1 : -1;
      b->nbr[d][s] = (d < nd && c[d] >= 0 && c[d] < b->pgrid[d]) ? rank_of(b, c) : -1;
      if (d < nd && b->nbr[d][s] < 0)
        b->faces_on_boundary++;
    }
  /* Row-major with dim 0 slowest: stride[2] = 1 for 3-D; in 2-D dim 2 is degenerate. */
  long p0 = b->n[0] + 2 * b->h[0], p1 = b->n[1] + 2 * b->h[1], p2 = b->n[2] + 2 * b->h[2];
  b->stride[2] = 1;
  b->stride[1] = p2;
  b->stride[0] = p1 * p2;
  b->padded    = p0 * p1 * p2;
  b->cells     = (long)b->n[0] * b->n[1] * b->n[2];
  b->u         = (double*)calloc((size_t)b->padded, sizeof(double));
  b->v         = (double*)calloc((size_t)b->padded, sizeof(double));
  for (int d = 0; d < nd; ++d) {
    b->face[d] = (long)HALO * b->cells / b->n[d];
    for (int s = 0; s < 2; ++s) {
      b->sendbuf[d][s] = (double*)malloc((size_t)b->face[d] * sizeof(double));
      b->recvbuf[d][s] = (double*)malloc((size_t)b->face[d] * sizeof(double));
    }
  }
  for (int d = 0; d < 3; ++d) {
    b->centre[d] = d < nd ? (b->coord[d] + 0.5) / b->pgrid[d] : 0.5;
    long g       = (long)b->pgrid[d] * b->n[d] / 2 - (long)b->coord[d] * b->n[d]; /* global centre cell */
    b->src[d]    = (g >= 0 && g < b->n[d]) ? (int)g : -1;
  }
  /* Initial field: a smooth bump around the domain centre, from global coordinates only. */
  for (int i = 0; i < b->n[0]; ++i)
    for (int j = 0; j < b->n[1]; ++j)
      for (int k = 0; k < b->n[2]; ++k) {
        int loc[3]  = {i, j, k};
        double r2   = 0;
        for (int d = 0; d < nd; ++d) {
          double g = ((double)b->coord[d] * b->n[d] + loc[d] + 0.5) / ((double)b->pgrid[d] * b->n[d]) - 0.5;
          r2 += g * g;
        }
        b->u[idx(b, i, j, k)] = exp(-r2 / 0.02);
      }
}

static void block_free(Block* b)
{
  free(b->u);
  free(b->v);
  for (int d = 0; d < b->nd; ++d)
    for (int s = 0; s < 2; ++s) {
      free(b->sendbuf[d][s]);
      free(b->recvbuf[d][s]);
    }
}

/* Copies the HALO layers next to face (d, s) between the array and a buffer: the interior layers
 * when packing, the halo layers when unpacking. */
static void copy_face(Block* b, int d, int s, double* buf, int pack)
{
  int lo[3] = {0, 0, 0}, hi[3] = {b->n[0], b->n[1], b->n[2]};
  if (pack) {
    lo[d] = s ? b->n[d] - HALO : 0;
    hi[d] = lo[d] + HALO;
  } else {
    lo[d] = s ? b->n[d] : -HALO;
    hi[d] = lo[d] + HALO;
  }
  long p = 0;
  for (int i = lo[0]; i < hi[0]; ++i)
    for (int j = lo[1]; j < hi[1]; ++j)
      for (int k = lo[2]; k < hi[2]; ++k) {
        long x = idx(b, i, j, k);
        if (pack)
          buf[p++] = b->u[x];
        else
          b->u[x] = buf[p++];
      }
}

/* Packs every face into its send buffer, or unpacks every received halo. */
static void copy_faces(Block* b, int pack)
{
  for (int d = 0; d < b->nd; ++d)
    for (int s = 0; s < 2; ++s)
      if (b->nbr[d][s] >= 0)
        copy_face(b, d, s, pack ? b->sendbuf[d][s] : b->recvbuf[d][s], pack);
}

/* One explicit step v = u + NU lap4(u) (+ source), then swap. Halo cells at the domain boundary
 * stay 0 (Dirichlet). */
static void stencil_step(Block* b, long step)
{
  for (int i = 0; i < b->n[0]; ++i)
    for (int j = 0; j < b->n[1]; ++j)
      for (int k = 0; k < b->n[2]; ++k) {
        long x     = idx(b, i, j, k);
        double c   = b->u[x];
        double lap = 0;
        for (int d = 0; d < b->nd; ++d) {
          long s = b->stride[d];
          lap += (-b->u[x - 2 * s] + 16 * b->u[x - s] - 30 * c + 16 * b->u[x + s] - b->u[x + 2 * s]) / 12.0;
        }
        b->v[x] = c + NU * lap;
      }
  if (b->src[0] >= 0 && b->src[1] >= 0 && b->src[2] >= 0)
    b->v[idx(b, b->src[0], b->src[1], b->src[2])] += 0.1 * sin(0.05 * (double)step);
  double* t = b->u;
  b->u      = b->v;
  b->v      = t;
}

/* Halo exchange of one phase: neighbours only, non-blocking, tag = phase and direction of travel.
 * Each phase gets its own copy of the MPI calls, as Ondes3D's stress and velocity exchanges are
 * different code: tools that find iterations from call sites (return addresses) then see one
 * stress + velocity iteration, not two identical half-iterations. noinline and the different tags
 * keep the compiler from merging the copies. */
#define DEFINE_EXCHANGE(name, phase)                                                                         \
  __attribute__((noinline)) static void name(Block* b)                                                       \
  {                                                                                                          \
    MPI_Request req[12];                                                                                     \
    int nreq = 0;                                                                                            \
    for (int d = 0; d < b->nd; ++d)                                                                          \
      for (int s = 0; s < 2; ++s) /* from the neighbour on side s, travelling towards side 1-s */           \
        if (b->nbr[d][s] >= 0)                                                                               \
          MPI_Irecv(b->recvbuf[d][s], (int)b->face[d], MPI_DOUBLE, b->nbr[d][s], (phase) * 16 + d * 2 + (1 - s), \
                    MPI_COMM_WORLD, &req[nreq++]);                                                           \
    for (int d = 0; d < b->nd; ++d)                                                                          \
      for (int s = 0; s < 2; ++s)                                                                            \
        if (b->nbr[d][s] >= 0)                                                                               \
          MPI_Isend(b->sendbuf[d][s], (int)b->face[d], MPI_DOUBLE, b->nbr[d][s], (phase) * 16 + d * 2 + s,   \
                    MPI_COMM_WORLD, &req[nreq++]);                                                           \
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);                                                             \
  }

DEFINE_EXCHANGE(exchange_stress, 0)
DEFINE_EXCHANGE(exchange_velocity, 1)
DEFINE_EXCHANGE(exchange_initial, 2)

/* ---- imbalance model ---- */

typedef struct {
  Field geology, phase;
  double geo_factor;   /* static, per rank */
  double phase_offset; /* drift phase of this rank */
} Imbalance;

static double cost_factor(const Options* o, const Block* b, const Imbalance* im, long it)
{
  switch (o->pattern) {
    case PATTERN_ONDES3D:
      return (1 + o->border * b->faces_on_boundary) * im->geo_factor *
             (1 + o->drift * sin(2 * pi * (double)it / o->drift_period + im->phase_offset));
    case PATTERN_HOTSPOT: {
      double th = 2 * pi * (double)it / o->drift_period;
      double c[3] = {0.5 + 0.3 * cos(th), 0.5 + 0.3 * sin(th), 0.5}, r2 = 0;
      for (int d = 0; d < b->nd; ++d)
        r2 += (b->centre[d] - c[d]) * (b->centre[d] - c[d]);
      return im->geo_factor * (1 + o->hot * exp(-r2 / (2 * o->hot_radius * o->hot_radius)));
    }
    default:
      return 1.0;
  }
}

/* ---- arguments ---- */

static void usage(FILE* f)
{
  fprintf(f,
          "usage: " APP " [--iters N] [--size CELLS | --global-size CELLS] [--dims 2|3] [--pattern ondes3d|hotspot|uniform]\n"
          "       [--border X] [--geology SPREAD] [--drift AMP] [--drift-period P] [--hot AMP] [--hot-radius R]\n"
          "       [--seed S] [--flops-per-cell F] [--mode flops|real] [--report]\n");
}

/* Returns NULL on success, else the one-line problem (written into err). */
static const char* parse_long(const char* name, const char* text, long lo, long hi, long* out, char* err, size_t n)
{
  char* end = NULL;
  long v    = strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi) {
    snprintf(err, n, "%s must be an integer in [%ld, %ld], got '%s'", name, lo, hi, text);
    return err;
  }
  *out = v;
  return NULL;
}

static const char* parse_double(const char* name, const char* text, double lo, double hi, int hi_open, double* out,
                                char* err, size_t n)
{
  char* end = NULL;
  double v  = strtod(text, &end);
  if (end == text || *end != '\0' || !isfinite(v) || v < lo || v > hi || (hi_open && v >= hi)) {
    if (hi_open)
      snprintf(err, n, "%s must be a number in [%g, %g), got '%s'", name, lo, hi, text);
    else if (hi >= 1e300)
      snprintf(err, n, "%s must be a number >= %g, got '%s'", name, lo, text);
    else
      snprintf(err, n, "%s must be a number in [%g, %g], got '%s'", name, lo, hi, text);
    return err;
  }
  *out = v;
  return NULL;
}

static const char* parse_options(int argc, char** argv, Options* o, char* err, size_t n)
{
  *o = (Options){.iters = 100, .size = 16384, .global_size = 0, .dims = 2, .border = 0.5, .geology = 0.05, .drift = 0.05,
                 .drift_period = 100, .hot = 2.0, .hot_radius = 0.15, .flops_per_cell = 70000, .seed = 1,
                 .pattern = PATTERN_ONDES3D, .real_mode = 0, .report = 0, .help = 0};
  for (int a = 1; a < argc; ++a) {
    const char* key = argv[a];
    if (!strcmp(key, "--report")) {
      o->report = 1;
      continue;
    }
    if (!strcmp(key, "--help") || !strcmp(key, "-h")) {
      o->help = 1;
      continue;
    }
    if (strncmp(key, "--", 2) != 0) {
      snprintf(err, n, "unexpected argument '%s' (options are --name value)", key);
      return err;
    }
    static const char* known[] = {"--iters", "--size", "--global-size", "--dims", "--border", "--geology", "--drift",
                                  "--drift-period", "--seed", "--flops-per-cell", "--pattern", "--mode", "--hot",
                                  "--hot-radius"};
    int found = 0;
    for (size_t q = 0; q < sizeof known / sizeof known[0]; ++q)
      found |= !strcmp(key, known[q]);
    if (!found) {
      snprintf(err, n, "unknown option '%s' (see --help)", key);
      return err;
    }
    if (a + 1 >= argc) {
      snprintf(err, n, "%s needs a value", key);
      return err;
    }
    const char* val = argv[++a];
    const char* bad = NULL;
    long l          = 0;
    if (!strcmp(key, "--iters"))
      bad = parse_long(key, val, 1, 1000000000L, &o->iters, err, n);
    else if (!strcmp(key, "--size"))
      bad = parse_long(key, val, 8, 100000000L, &o->size, err, n);
    else if (!strcmp(key, "--global-size"))
      bad = parse_long(key, val, 8, 1000000000000L, &o->global_size, err, n);
    else if (!strcmp(key, "--dims"))
      bad = parse_long(key, val, 2, 3, &o->dims, err, n);
    else if (!strcmp(key, "--seed")) {
      bad = parse_long(key, val, 0, 2147483647L, &l, err, n);
      o->seed = (unsigned long)l;
    } else if (!strcmp(key, "--border"))
      bad = parse_double(key, val, 0, 1e300, 0, &o->border, err, n);
    else if (!strcmp(key, "--geology"))
      bad = parse_double(key, val, 0, 1, 1, &o->geology, err, n);
    else if (!strcmp(key, "--drift"))
      bad = parse_double(key, val, 0, 1, 1, &o->drift, err, n);
    else if (!strcmp(key, "--drift-period")) {
      bad = parse_double(key, val, 1e-9, 1e300, 0, &o->drift_period, err, n);
    } else if (!strcmp(key, "--hot"))
      bad = parse_double(key, val, 0, 1e300, 0, &o->hot, err, n);
    else if (!strcmp(key, "--hot-radius"))
      bad = parse_double(key, val, 1e-6, 1e300, 0, &o->hot_radius, err, n);
    else if (!strcmp(key, "--flops-per-cell"))
      bad = parse_double(key, val, 0, 1e300, 0, &o->flops_per_cell, err, n);
    else if (!strcmp(key, "--pattern")) {
      if (!strcmp(val, "ondes3d"))
        o->pattern = PATTERN_ONDES3D;
      else if (!strcmp(val, "hotspot"))
        o->pattern = PATTERN_HOTSPOT;
      else if (!strcmp(val, "uniform"))
        o->pattern = PATTERN_UNIFORM;
      else {
        snprintf(err, n, "--pattern must be ondes3d, hotspot or uniform, got '%s'", val);
        bad = err;
      }
    } else if (!strcmp(key, "--mode")) {
      if (!strcmp(val, "flops") || !strcmp(val, "real"))
        o->real_mode = !strcmp(val, "real");
      else {
        snprintf(err, n, "--mode must be flops or real, got '%s'", val);
        bad = err;
      }
    }
    if (bad)
      return bad;
  }
  return NULL;
}

static long cube_side(long size, long dims)
{
  long side = (long)llround(pow((double)size, 1.0 / (double)dims));
  return side < HALO ? HALO : side;
}

static const char* pattern_name(Pattern p)
{
  return p == PATTERN_ONDES3D ? "ondes3d" : p == PATTERN_HOTSPOT ? "hotspot" : "uniform";
}

int main(int argc, char** argv)
{
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  Options o;
  char err[256];
  const char* error = parse_options(argc, argv, &o, err, sizeof err);
  const int early   = end_after_options(APP, rank, error, o.help, usage);
  if (early >= 0)
    return early;
  if (!o.real_mode)
    use_injected_cost();
  if (o.global_size > 0)
    o.size = o.global_size / size > 8 ? o.global_size / size : 8;

  Block b;
  block_init(&b, rank, size, (int)o.dims, cube_side(o.size, o.dims));
  Imbalance im;
  field_init(&im.geology, o.seed, 1);
  field_init(&im.phase, o.seed, 2);
  im.geo_factor   = 1 + o.geology * field_at(&im.geology, b.centre);
  im.phase_offset = pi * (1 + field_at(&im.phase, b.centre));
  if (rank == 0) {
    printf("# " APP " ranks=%d grid=%dx%d", size, b.pgrid[0], b.pgrid[1]);
    if (b.nd == 3)
      printf("x%d", b.pgrid[2]);
    printf(" block=%dx%d", b.n[0], b.n[1]);
    if (b.nd == 3)
      printf("x%d", b.n[2]);
    printf(" halo=%d pattern=%s mode=%s cost=%s iterations=%ld flops_per_cell=%g\n", HALO, pattern_name(o.pattern),
           o.real_mode ? "real" : "flops", inject ? "smpi_execute_flops" : "real-loop", o.iters, o.flops_per_cell);
    fflush(stdout);
  }
  double my_flops = 0;
  copy_faces(&b, 1);
  exchange_initial(&b);

  MPI_Barrier(MPI_COMM_WORLD); /* start line, outside the loop */
  double t0 = MPI_Wtime();
  for (long it = 0; it < o.iters; ++it) {
    double cost = (double)b.cells * o.flops_per_cell * cost_factor(&o, &b, &im, it);
    for (int ph = 0; ph < PHASES; ++ph) {
      copy_faces(&b, 0);
      stencil_step(&b, it * PHASES + ph);
      charge(cost * phase_share[ph]);
      my_flops += cost * phase_share[ph];
      copy_faces(&b, 1);
      if (ph == 0)
        exchange_stress(&b);
      else
        exchange_velocity(&b);
    }
  }
  double elapsed = MPI_Wtime() - t0;

  double local = 0;
  for (int i = 0; i < b.n[0]; ++i)
    for (int j = 0; j < b.n[1]; ++j)
      for (int k = 0; k < b.n[2]; ++k) {
        long gi = (long)b.coord[0] * b.n[0] + i, gj = (long)b.coord[1] * b.n[1] + j, gk = (long)b.coord[2] * b.n[2] + k;
        local += b.u[idx(&b, i, j, k)] * (1.0 + (double)((gi + 2 * gj + 3 * gk) % 11) / 11.0);
      }
  double mine[6] = {my_flops, (double)b.faces_on_boundary, im.geo_factor, b.coord[0], b.coord[1], b.coord[2]};
  double* all    = rank == 0 ? (double*)malloc(sizeof mine * (size_t)size) : NULL;

  double checksum = 0, makespan = 0;
  MPI_Reduce(&local, &checksum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&elapsed, &makespan, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (o.report)
    MPI_Gather(mine, 6, MPI_DOUBLE, all, 6, MPI_DOUBLE, 0, MPI_COMM_WORLD);

  if (rank == 0) {
    if (o.report) {
      double lo = all[0], hi = all[0], sum = 0;
      for (int r = 0; r < size; ++r) {
        const double* m = &all[6 * r];
        printf("rank=%d coords=%d,%d", r, (int)m[3], (int)m[4]);
        if (b.nd == 3)
          printf(",%d", (int)m[5]);
        printf(" border_faces=%d geology=%.6f compute_flops=%.6e\n", (int)m[1], m[2], m[0]);
        lo = m[0] < lo ? m[0] : lo;
        hi = m[0] > hi ? m[0] : hi;
        sum += m[0];
      }
      printf(APP " compute_flops min=%.6e max=%.6e mean=%.6e max_over_min=%.6f\n", lo, hi, sum / size,
             lo > 0 ? hi / lo : 0.0);
    }
    printf(APP " iterations=%ld ranks=%d checksum=%.12e time_s=%.9f\n", o.iters, size, checksum, makespan);
    fflush(stdout);
  }
  free(all);
  block_free(&b);
  MPI_Finalize();
  return 0;
}
