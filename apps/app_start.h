/* The apps' common end of option parsing (bt_like, stencil_imbalance): a bad option is printed by
 * rank 0 and ends the run with status 2, --help prints the usage and ends it with 0. */
#ifndef HAEC_APPS_APP_START_H
#define HAEC_APPS_APP_START_H

#include <mpi.h>
#include <stdio.h>

/* The status to end with, or -1 when the run goes on. */
static int end_after_options(const char* app, int rank, const char* error, int help, void (*usage)(FILE*))
{
  if (error == NULL && !help)
    return -1;
  if (rank == 0) {
    if (error != NULL)
      fprintf(stderr, "%s: error: %s\n", app, error);
    else
      usage(stdout);
  }
  MPI_Finalize();
  return error != NULL ? 2 : 0;
}

#endif
