/* Region recording for `haec calibrate regions` (calibration/README.md, "Region correction
 * factors"). Force-include it when compiling the application, both for the real MPI and for SMPI,
 * and add region_recorder.c to the program:
 *
 *   mpicc  -include calibration/regions/haec_regions.h app.c calibration/regions/region_recorder.c
 *   smpicc -include calibration/regions/haec_regions.h app.c calibration/regions/region_recorder.c
 *
 * Every MPI call listed below first names its call site (file basename and line,
 * as SimGrid's smpi/comp-adjustment-file keys it) and its end is timed, so a region, the code
 * between two MPI calls, is keyed "prevfile:prevline:file:line" exactly as SimGrid keys it. Under
 * SMPI the call site is also handed to SimGrid, so an adjustment file applies to these keys. With
 * HAEC_REGIONS_OUT=DIR set, MPI_Finalize writes DIR/rank<R>.csv (rank,region,count,total_s). */
#ifndef HAEC_REGIONS_H
#define HAEC_REGIONS_H
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif
void haec_region_at(const char* file, int line);
int haec_region_exit(int rc);
double haec_region_exit_d(double value);
int haec_region_init_exit(int rc);
void haec_region_write(void);
#ifdef __cplusplus
}
#endif

#ifndef HAEC_REGIONS_NO_MACROS /* region_recorder.c calls the real functions */
/* Inside its own expansion a macro name is not expanded again: MPI_Send(...) below is the real call. */
#define HAEC_REGION_INT(call) (haec_region_at(__FILE__, __LINE__), haec_region_exit(call))
#define MPI_Init(...) (haec_region_at(__FILE__, __LINE__), haec_region_init_exit(MPI_Init(__VA_ARGS__)))
#define MPI_Init_thread(...) (haec_region_at(__FILE__, __LINE__), haec_region_init_exit(MPI_Init_thread(__VA_ARGS__)))
#define MPI_Finalize(...) (haec_region_at(__FILE__, __LINE__), haec_region_write(), MPI_Finalize(__VA_ARGS__))
#define MPI_Wtime(...) (haec_region_at(__FILE__, __LINE__), haec_region_exit_d(MPI_Wtime(__VA_ARGS__)))
/* Every call that ends SMPI 3.32's benchmarked region (smpi_bench_end) and returns int; calls that
 * do not (MPI_Comm_rank, MPI_Comm_size, topology queries) must not move the key, so they are absent. */
#define MPI_Send(...) HAEC_REGION_INT(MPI_Send(__VA_ARGS__))
#define MPI_Recv(...) HAEC_REGION_INT(MPI_Recv(__VA_ARGS__))
#define MPI_Isend(...) HAEC_REGION_INT(MPI_Isend(__VA_ARGS__))
#define MPI_Irecv(...) HAEC_REGION_INT(MPI_Irecv(__VA_ARGS__))
#define MPI_Ssend(...) HAEC_REGION_INT(MPI_Ssend(__VA_ARGS__))
#define MPI_Bsend(...) HAEC_REGION_INT(MPI_Bsend(__VA_ARGS__))
#define MPI_Rsend(...) HAEC_REGION_INT(MPI_Rsend(__VA_ARGS__))
#define MPI_Issend(...) HAEC_REGION_INT(MPI_Issend(__VA_ARGS__))
#define MPI_Sendrecv(...) HAEC_REGION_INT(MPI_Sendrecv(__VA_ARGS__))
#define MPI_Sendrecv_replace(...) HAEC_REGION_INT(MPI_Sendrecv_replace(__VA_ARGS__))
#define MPI_Probe(...) HAEC_REGION_INT(MPI_Probe(__VA_ARGS__))
#define MPI_Iprobe(...) HAEC_REGION_INT(MPI_Iprobe(__VA_ARGS__))
#define MPI_Wait(...) HAEC_REGION_INT(MPI_Wait(__VA_ARGS__))
#define MPI_Waitall(...) HAEC_REGION_INT(MPI_Waitall(__VA_ARGS__))
#define MPI_Waitany(...) HAEC_REGION_INT(MPI_Waitany(__VA_ARGS__))
#define MPI_Waitsome(...) HAEC_REGION_INT(MPI_Waitsome(__VA_ARGS__))
#define MPI_Test(...) HAEC_REGION_INT(MPI_Test(__VA_ARGS__))
#define MPI_Testall(...) HAEC_REGION_INT(MPI_Testall(__VA_ARGS__))
#define MPI_Testany(...) HAEC_REGION_INT(MPI_Testany(__VA_ARGS__))
#define MPI_Testsome(...) HAEC_REGION_INT(MPI_Testsome(__VA_ARGS__))
#define MPI_Barrier(...) HAEC_REGION_INT(MPI_Barrier(__VA_ARGS__))
#define MPI_Bcast(...) HAEC_REGION_INT(MPI_Bcast(__VA_ARGS__))
#define MPI_Reduce(...) HAEC_REGION_INT(MPI_Reduce(__VA_ARGS__))
#define MPI_Allreduce(...) HAEC_REGION_INT(MPI_Allreduce(__VA_ARGS__))
#define MPI_Gather(...) HAEC_REGION_INT(MPI_Gather(__VA_ARGS__))
#define MPI_Gatherv(...) HAEC_REGION_INT(MPI_Gatherv(__VA_ARGS__))
#define MPI_Scatter(...) HAEC_REGION_INT(MPI_Scatter(__VA_ARGS__))
#define MPI_Scatterv(...) HAEC_REGION_INT(MPI_Scatterv(__VA_ARGS__))
#define MPI_Allgather(...) HAEC_REGION_INT(MPI_Allgather(__VA_ARGS__))
#define MPI_Allgatherv(...) HAEC_REGION_INT(MPI_Allgatherv(__VA_ARGS__))
#define MPI_Alltoall(...) HAEC_REGION_INT(MPI_Alltoall(__VA_ARGS__))
#define MPI_Alltoallv(...) HAEC_REGION_INT(MPI_Alltoallv(__VA_ARGS__))
#define MPI_Reduce_scatter(...) HAEC_REGION_INT(MPI_Reduce_scatter(__VA_ARGS__))
#define MPI_Scan(...) HAEC_REGION_INT(MPI_Scan(__VA_ARGS__))
#define MPI_Exscan(...) HAEC_REGION_INT(MPI_Exscan(__VA_ARGS__))
#define MPI_Ibarrier(...) HAEC_REGION_INT(MPI_Ibarrier(__VA_ARGS__))
#define MPI_Ibcast(...) HAEC_REGION_INT(MPI_Ibcast(__VA_ARGS__))
#define MPI_Ireduce(...) HAEC_REGION_INT(MPI_Ireduce(__VA_ARGS__))
#define MPI_Iallreduce(...) HAEC_REGION_INT(MPI_Iallreduce(__VA_ARGS__))
#define MPI_Comm_split(...) HAEC_REGION_INT(MPI_Comm_split(__VA_ARGS__))
#endif
#endif
