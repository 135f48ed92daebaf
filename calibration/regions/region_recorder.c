/* Region recorder for `haec calibrate regions`: compiled into the application together with the
 * force-included haec_regions.h (see there). Keeps, per process (per rank: SMPI privatizes this
 * file's globals like the application's), the count and total time of every region, keyed
 * "prevfile:prevline:file:line" with file basenames as SimGrid 3.32 keys smpi/comp-adjustment-file.
 * A region runs from the return of one MPI call to the entry of the next.
 *
 * Clock: the real MPI build reads CLOCK_MONOTONIC. Under SMPI the code between MPI calls is
 * benchmarked and injected as simulated computation when the next MPI call begins; PMPI_Wtime
 * does that injection first (smpi_bench_end), so reading it at a call's entry gives the simulated
 * time after the region. Run SMPI with --cfg=smpi/wtime:0 or each reading adds SimGrid's 10 ns
 * MPI_Wtime sleep to the simulated time. */
#define HAEC_REGIONS_NO_MACROS
#include "haec_regions.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef SMPI_H /* smpicc's mpi.h includes smpi/smpi.h */
#define HAEC_REGIONS_SMPI 1
#include <simgrid/version.h> /* after smpi.h: SimGrid 3.32's needs xbt/base.h first */
#endif

typedef struct {
  const char* prev_file; /* basenames, pointing into the program's __FILE__ literals */
  int prev_line;
  const char* file;
  int line;
  unsigned long long count;
  double total;
} region_t;

static region_t* regions;
static size_t n_regions, cap_regions;
static const char* cur_file;
static int cur_line;
static const char* prev_file; /* site of the last MPI call that returned */
static int prev_line;
static double last_exit;  /* when it returned */
static int recording;     /* between MPI_Init's return and MPI_Finalize */
static int my_rank = -1;
static size_t last_hit;   /* loops repeat the same regions: try the last one first */

static double now(void)
{
#ifdef HAEC_REGIONS_SMPI
  return PMPI_Wtime();
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

static const char* base_name(const char* path)
{
  const char* slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static int same_file(const char* a, const char* b) { return a == b || strcmp(a, b) == 0; }

static void account(double duration)
{
  region_t* r = NULL;
  if (last_hit < n_regions) {
    region_t* c = &regions[last_hit];
    if (c->line == cur_line && c->prev_line == prev_line && same_file(c->file, cur_file) &&
        same_file(c->prev_file, prev_file))
      r = c;
  }
  for (size_t i = 0; !r && i < n_regions; ++i) {
    region_t* c = &regions[i];
    if (c->line == cur_line && c->prev_line == prev_line && same_file(c->file, cur_file) &&
        same_file(c->prev_file, prev_file)) {
      r        = c;
      last_hit = i;
    }
  }
  if (!r) {
    if (n_regions == cap_regions) {
      size_t cap        = cap_regions ? 2 * cap_regions : 64;
      region_t* grown   = realloc(regions, cap * sizeof *grown);
      if (!grown) {
        fprintf(stderr, "haec regions: out of memory; region recording stops\n");
        recording = 0;
        return;
      }
      regions     = grown;
      cap_regions = cap;
    }
    r  = &regions[n_regions];
    *r = (region_t){prev_file, prev_line, cur_file, cur_line, 0, 0.0};
    last_hit = n_regions++;
  }
  r->count++;
  r->total += duration;
}

void haec_region_at(const char* file, int line)
{
  cur_file = base_name(file);
  cur_line = line;
#ifdef HAEC_REGIONS_SMPI
  /* SimGrid keys its adjustment with the same site. Since SimGrid 3.35 it also takes the call's
   * name, which it shows only in labels (tracing, model checking): this recorder does not know it. */
#if SIMGRID_VERSION >= 33500 /* 3.35.0 */
  smpi_trace_set_call_location(file, line, "");
#else
  smpi_trace_set_call_location(file, line);
#endif
#endif
  if (recording)
    account(now() - last_exit);
}

static void returned(void)
{
  prev_file = cur_file;
  prev_line = cur_line;
  last_exit = now();
}

int haec_region_exit(int rc)
{
  if (recording)
    returned();
  return rc;
}

double haec_region_exit_d(double value)
{
  if (recording)
    returned();
  return value;
}

int haec_region_init_exit(int rc)
{
  if (rc == MPI_SUCCESS) {
    PMPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    recording = 1;
    returned();
  }
  return rc;
}

static void release(void)
{
  free(regions);
  regions   = NULL;
  n_regions = cap_regions = 0;
}

/* Writes DIR/rank<R>.csv (temp + rename), DIR from HAEC_REGIONS_OUT; nothing without it. The
 * record is released either way (SMPI's leak checks see the application's heap). */
void haec_region_write(void)
{
  const char* dir = getenv("HAEC_REGIONS_OUT");
  recording       = 0;
  if (!dir || !*dir || my_rank < 0) {
    release();
    return;
  }
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/rank%d.csv", dir, my_rank);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE* f = fopen(tmp, "w");
  if (!f) {
    fprintf(stderr, "haec regions: HAEC_REGIONS_OUT=%s: cannot write %s (%s); create the directory first\n", dir, tmp,
            strerror(errno));
    release();
    return;
  }
  fprintf(f, "rank,region,count,total_s\n");
  for (size_t i = 0; i < n_regions; ++i)
    fprintf(f, "%d,%s:%d:%s:%d,%llu,%.17g\n", my_rank, regions[i].prev_file, regions[i].prev_line, regions[i].file,
            regions[i].line, regions[i].count, regions[i].total);
  if (fclose(f) != 0 || rename(tmp, path) != 0)
    fprintf(stderr, "haec regions: cannot write %s (%s)\n", path, strerror(errno));
  release();
}
