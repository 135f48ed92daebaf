/* Emulation through the suite's entry point the PMPI layer calls (pmpi/call_reporting.hpp): each
   burst's "counters" handed over just before the MPI call that ends it, as PAPI would give them. */
#include <mpi.h>
#include <stdio.h>
void haec_suite_computation_counters(const char* const* events, const double* counts, int n) __attribute__((weak));
static volatile double sink;
static void burst(int n) { for (int i = 0; i < n; ++i) sink += i * 0.5; }
static void counters(double ins, double miss)
{
  static const char* const events[] = {"PAPI_TOT_INS", "PAPI_L3_TCM"};
  const double counts[] = {ins, miss};
  if (haec_suite_computation_counters) haec_suite_computation_counters(events, counts, 2);
}
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int it = 0; it < 3; ++it) {
    burst(3000000);
    counters(4e8 * (rank + 1), 1e6);
    MPI_Barrier(MPI_COMM_WORLD);
    burst(1000000);
    counters(1e8, 5e6 * (rank + 1));
    MPI_Barrier(MPI_COMM_WORLD);
  }
  counters(1, 1);
  MPI_Finalize();
  return 0;
}
