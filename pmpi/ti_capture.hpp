// SimGrid side of the TI recorder (ti_capture.cpp): the simulated clock and the computations SMPI
// runs for each rank. Kept apart from pmpi_wrappers.cpp so that file needs no s4u header.
#pragma once
#include "ti_recorder.hpp"

namespace haec::pmpi {

double ti_clock();
// Called by each rank's actor once (at MPI_Init): its computations go to `recorder` from now on.
// The first call registers the s4u callbacks.
void ti_capture_rank(TiRecorder* recorder, int rank);

} // namespace haec::pmpi
