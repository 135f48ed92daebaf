/* calibration/net: raw network samples for `haec calibrate net` (plain MPI; builds with mpicc and smpicc).
 *
 *   mpirun -np 2 calibration-net --out SAMPLES.csv [--min 1] [--max 4194304] [--count 80] [--reps 10]
 *                                [--sizes 1,16,...] [--seed 1] [--settle-us 200]
 *
 * Ranks 0 and 1 measure, in one shuffled order, five operations for every size and repetition:
 *   MPI_Send   time of MPI_Send at rank 0 (rank 1 has posted its receive before)
 *   MPI_Isend  time of MPI_Isend at rank 0 (receive posted before)
 *   MPI_Recv   time of MPI_Recv at rank 1 once the message had time to arrive
 *   PingPong   round trip at rank 0: MPI_Send then MPI_Recv of the same size
 *   MPI_Ssend  time of MPI_Ssend at rank 0 (receive posted before): the send overhead plus the
 *              transfer, the only operation that shows the transfer apart from the receive
 *              overhead between the eager limit and the rendezvous threshold
 * and rank 0 writes every sample (no averages) as `op,size,start,duration` (seconds, start from the
 * first common barrier). Whether the two ranks share a node is printed on stdout.
 * Every sample is fenced by a barrier and a short sleep (--settle-us, longer than a one-way latency)
 * so no transfer overlaps the next one and the passive rank waits before the measured one starts.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>

enum { OP_SEND, OP_ISEND, OP_RECV, OP_PINGPONG, OP_SSEND, OP_COUNT };
static const char* const op_names[OP_COUNT] = {"MPI_Send", "MPI_Isend", "MPI_Recv", "PingPong", "MPI_Ssend"};

struct sample {
  int op;
  int size;
  double start;
  double duration;
};

static int die(int rank, const char* msg, const char* arg)
{
  if (rank == 0)
    fprintf(stderr, "calibration-net: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
  MPI_Finalize();
  return 2;
}

/* Same sequence on both ranks (both shuffle with the same seed). */
static unsigned long long rng_state;
static unsigned next_random(void)
{
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(rng_state >> 33);
}

static int parse_sizes(const char* text, int** sizes)
{
  int n = 1;
  for (const char* c = text; *c; ++c)
    n += *c == ',';
  *sizes = malloc(sizeof(int) * n);
  int k = 0;
  const char* p = text;
  while (*p) {
    char* end;
    long v = strtol(p, &end, 10);
    if (end == p || v < 0 || v > 1 << 30 || (*end != ',' && *end != '\0') || (k > 0 && v <= (*sizes)[k - 1]))
      return -1; /* sizes must be increasing integers */
    (*sizes)[k++] = (int)v;
    p = *end ? end + 1 : end;
  }
  return k;
}

/* count sizes log-spaced between min and max, rounded to integers, duplicates dropped. */
static int log_grid(int min, int max, int count, int** sizes)
{
  *sizes  = malloc(sizeof(int) * count);
  int n   = 0;
  double lo = min < 1 ? 1 : min;
  for (int i = 0; i < count; ++i) {
    double x = count == 1 ? lo : lo * pow((double)max / lo, (double)i / (count - 1));
    int v    = (int)(x + 0.5);
    if (i == 0)
      v = min;
    if (n == 0 || v > (*sizes)[n - 1])
      (*sizes)[n++] = v;
  }
  return n;
}

static void fence(int settle_us)
{
  MPI_Barrier(MPI_COMM_WORLD);
  usleep(settle_us);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, nranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);

  const char* out = NULL;
  const char* size_list = NULL;
  int min = 1, max = 4194304, count = 80, reps = 10, settle_us = 200;
  unsigned long long seed = 1;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v)
      return die(rank, "missing value after", a);
    if (!strcmp(a, "--out"))
      out = v;
    else if (!strcmp(a, "--sizes"))
      size_list = v;
    else if (!strcmp(a, "--min"))
      min = atoi(v);
    else if (!strcmp(a, "--max"))
      max = atoi(v);
    else if (!strcmp(a, "--count"))
      count = atoi(v);
    else if (!strcmp(a, "--reps"))
      reps = atoi(v);
    else if (!strcmp(a, "--seed"))
      seed = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--settle-us"))
      settle_us = atoi(v);
    else
      return die(rank, "unknown option", a);
    ++i;
  }
  if (!out)
    return die(rank, "--out SAMPLES.csv is required", NULL);
  if (nranks < 2)
    return die(rank, "needs at least 2 ranks (ranks above 1 only wait)", NULL);
  if (min < 0 || max < min || count < 1 || reps < 1 || settle_us < 0)
    return die(rank, "need 0 <= --min <= --max, --count >= 1, --reps >= 1, --settle-us >= 0", NULL);

  int* sizes;
  int nsizes = size_list ? parse_sizes(size_list, &sizes) : log_grid(min, max, count, &sizes);
  if (nsizes <= 0)
    return die(rank, "--sizes must be increasing non-negative integers separated by commas:", size_list);

  char* buf = malloc((size_t)sizes[nsizes - 1] + 1);
  memset(buf, 1, (size_t)sizes[nsizes - 1] + 1);

  if (rank < 2) {
    char me[MPI_MAX_PROCESSOR_NAME] = {0}, peer[MPI_MAX_PROCESSOR_NAME] = {0};
    int len;
    MPI_Get_processor_name(me, &len);
    MPI_Sendrecv(me, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1 - rank, 9, peer, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1 - rank,
                 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
      printf("calibration-net: rank 0 on %s, rank 1 on %s (%s), %d sizes %d..%d, %d repetitions\n", me, peer,
             strcmp(me, peer) ? "inter-node" : "intra-node", nsizes, sizes[0], sizes[nsizes - 1], reps);
  }

  /* How long MPI_Recv's sender needs to deliver: one round trip per size, then a margin. */
  double* wait = malloc(sizeof(double) * nsizes);
  for (int s = 0; s < nsizes; ++s) {
    fence(settle_us);
    double t0 = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(buf, sizes[s], MPI_CHAR, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, sizes[s], MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, sizes[s], MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, sizes[s], MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    }
    wait[s] = 4 * (MPI_Wtime() - t0) + 50e-6;
  }
  MPI_Bcast(wait, nsizes, MPI_DOUBLE, 0, MPI_COMM_WORLD);

  /* The shuffled plan: every (op, size, repetition) once. */
  int total  = OP_COUNT * nsizes * reps;
  int* plan  = malloc(sizeof(int) * total);
  for (int i = 0; i < total; ++i)
    plan[i] = i;
  rng_state = seed;
  for (int i = total - 1; i > 0; --i) {
    int j   = (int)(next_random() % (unsigned)(i + 1));
    int t   = plan[i];
    plan[i] = plan[j];
    plan[j] = t;
  }

  struct sample* samples = malloc(sizeof(struct sample) * total);
  int nsamples           = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double origin = MPI_Wtime();
  for (int k = 0; k < total; ++k) {
    int op = plan[k] % OP_COUNT, s = (plan[k] / OP_COUNT) % nsizes, size = sizes[s];
    MPI_Request req;
    double t0 = 0, t1 = 0;
    if (rank == 0) {
      switch (op) {
        case OP_SEND:
          fence(settle_us);
          t0 = MPI_Wtime();
          MPI_Send(buf, size, MPI_CHAR, 1, 2, MPI_COMM_WORLD);
          t1 = MPI_Wtime();
          break;
        case OP_ISEND:
          fence(settle_us);
          t0 = MPI_Wtime();
          MPI_Isend(buf, size, MPI_CHAR, 1, 2, MPI_COMM_WORLD, &req);
          t1 = MPI_Wtime();
          MPI_Wait(&req, MPI_STATUS_IGNORE);
          break;
        case OP_SSEND:
          fence(settle_us);
          t0 = MPI_Wtime();
          MPI_Ssend(buf, size, MPI_CHAR, 1, 2, MPI_COMM_WORLD);
          t1 = MPI_Wtime();
          break;
        case OP_RECV:
          fence(settle_us);
          MPI_Send(buf, size, MPI_CHAR, 1, 2, MPI_COMM_WORLD);
          break;
        default:
          fence(settle_us);
          t0 = MPI_Wtime();
          MPI_Send(buf, size, MPI_CHAR, 1, 2, MPI_COMM_WORLD);
          MPI_Recv(buf, size, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          t1 = MPI_Wtime();
          /* Release rank 1 only now: it would otherwise start the next fence (a message to rank
           * 0) while the reply is still on the wire and slow it down. */
          MPI_Send(NULL, 0, MPI_CHAR, 1, 4, MPI_COMM_WORLD);
      }
    } else if (rank == 1) {
      if (op == OP_RECV) {
        fence(settle_us);
        usleep((useconds_t)(wait[s] * 1e6));
        t0 = MPI_Wtime();
        MPI_Recv(buf, size, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        t1 = MPI_Wtime();
      } else {
        /* No settling sleep here: rank 1 leaves the barrier up to a one-way latency after rank 0
         * and must be blocked in the wait before rank 0's message arrives, else its late start
         * shows in rank 0's round trip. */
        MPI_Irecv(buf, size, MPI_CHAR, 0, 2, MPI_COMM_WORLD, &req);
        fence(0);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (op == OP_PINGPONG) {
          MPI_Send(buf, size, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
          MPI_Recv(NULL, 0, MPI_CHAR, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
      }
    } else {
      fence(settle_us);
    }
    if ((rank == 0 && op != OP_RECV) || (rank == 1 && op == OP_RECV))
      samples[nsamples++] = (struct sample){op, size, t0 - origin, t1 - t0};
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* Rank 1 hands its MPI_Recv samples to rank 0, which writes the file. */
  if (rank == 1) {
    MPI_Send(&nsamples, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    MPI_Send(samples, (int)(nsamples * sizeof(struct sample)), MPI_BYTE, 0, 3, MPI_COMM_WORLD);
  } else if (rank == 0) {
    int more;
    MPI_Recv(&more, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(samples + nsamples, (int)(more * sizeof(struct sample)), MPI_BYTE, 1, 3, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    nsamples += more;
    FILE* f = fopen(out, "w");
    if (!f) {
      fprintf(stderr, "calibration-net: %s: cannot write\n", out);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    fprintf(f, "op,size,start,duration\n");
    for (int i = 0; i < nsamples; ++i)
      fprintf(f, "%s,%d,%.12e,%.12e\n", op_names[samples[i].op], samples[i].size, samples[i].start,
              samples[i].duration);
    fclose(f);
    printf("calibration-net: wrote %d samples to %s\n", nsamples, out);
  }
  free(samples);
  free(plan);
  free(wait);
  free(buf);
  free(sizes);
  MPI_Finalize();
  return 0;
}
