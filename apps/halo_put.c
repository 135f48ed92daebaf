/* halo_put: 2-D Jacobi relaxation whose halo exchange is one-sided: every rank MPI_Put's its
 * boundary rows and columns into its four neighbours' windows between two MPI_Win_fence calls
 * (the pattern of many modern halo exchanges), for `haec trace record` and its replay.
 *
 *   halo_put [iterations] [n]        defaults: 20 iterations, n = 32 (an n x n block per rank)
 *
 * The ranks form a periodic px x py grid (MPI_Dims_create). Each rank owns an (n+2) x (n+2)
 * window of doubles (row-major, one halo cell on each side); a column travels as an MPI_Type_vector,
 * a row as n contiguous doubles. One iteration: fence, four puts, fence, then the 5-point update of
 * the interior; every 5th iteration an MPI_Allreduce forms the global residual. Rank 0 prints the
 * last residual; it depends only on the rank count and the arguments. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT(i, j) ((size_t)(i) * (size_t)(n + 2) + (size_t)(j)) /* row i, column j */

typedef struct {
  int n, north, south, west, east;
  double *u, *next;
  MPI_Win win;
  MPI_Datatype column;
} Grid;

/* Puts this rank's boundary into the neighbours' halos: my first row becomes the north neighbour's
 * bottom halo row, and so on. Displacements are in doubles (the window's unit). */
static void exchange(Grid* g)
{
  const int n = g->n;
  MPI_Win_fence(0, g->win);
  MPI_Put(&g->u[AT(1, 1)], n, MPI_DOUBLE, g->north, (MPI_Aint)AT(n + 1, 1), n, MPI_DOUBLE, g->win);
  MPI_Put(&g->u[AT(n, 1)], n, MPI_DOUBLE, g->south, (MPI_Aint)AT(0, 1), n, MPI_DOUBLE, g->win);
  MPI_Put(&g->u[AT(1, 1)], 1, g->column, g->west, (MPI_Aint)AT(1, n + 1), 1, g->column, g->win);
  MPI_Put(&g->u[AT(1, n)], 1, g->column, g->east, (MPI_Aint)AT(1, 0), 1, g->column, g->win);
  MPI_Win_fence(0, g->win);
}

static double relax(Grid* g)
{
  const int n     = g->n;
  double residual = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) {
      double v = 0.25 * (g->u[AT(i - 1, j)] + g->u[AT(i + 1, j)] + g->u[AT(i, j - 1)] + g->u[AT(i, j + 1)]);
      residual += (v - g->u[AT(i, j)]) * (v - g->u[AT(i, j)]);
      g->next[AT(i, j)] = v;
    }
  for (int i = 1; i <= n; ++i)
    memcpy(&g->u[AT(i, 1)], &g->next[AT(i, 1)], (size_t)n * sizeof(double));
  return residual;
}

static void neighbours(Grid* g, int rank, int size)
{
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  const int px = dims[0], py = dims[1], x = rank % px, y = rank / px;
  g->west  = y * px + (x + px - 1) % px;
  g->east  = y * px + (x + 1) % px;
  g->north = ((y + py - 1) % py) * px + x;
  g->south = ((y + 1) % py) * px + x;
}

int main(int argc, char** argv)
{
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 1 ? atoi(argv[1]) : 20;
  Grid g;
  g.n = argc > 2 ? atoi(argv[2]) : 32;
  if (iterations < 1 || g.n < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: halo_put [iterations >= 1] [n >= 2]\n");
    MPI_Finalize();
    return 2;
  }
  const int n        = g.n;
  const size_t cells = (size_t)(n + 2) * (size_t)(n + 2);
  g.u                = calloc(cells, sizeof(double));
  g.next             = calloc(cells, sizeof(double));
  for (int i = 1; i <= n; ++i) /* a bump that depends on the rank: the residual shrinks over time */
    for (int j = 1; j <= n; ++j)
      g.u[AT(i, j)] = sin(0.1 * (i + rank)) * cos(0.07 * (j + 2 * rank));
  neighbours(&g, rank, size);
  MPI_Type_vector(n, 1, n + 2, MPI_DOUBLE, &g.column);
  MPI_Type_commit(&g.column);
  MPI_Win_create(g.u, (MPI_Aint)(cells * sizeof(double)), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &g.win);
  double global = 0;
  for (int it = 1; it <= iterations; ++it) {
    exchange(&g);
    double local = relax(&g);
    if (it % 5 == 0 || it == iterations)
      MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("halo_put: %d ranks, %d iterations, residual %.6e\n", size, iterations, sqrt(global));
  MPI_Win_free(&g.win);
  MPI_Type_free(&g.column);
  free(g.u), free(g.next);
  MPI_Finalize();
  return 0;
}
