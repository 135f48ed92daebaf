/* Cost injection shared by the apps (bt_like, stencil_imbalance, ring_allreduce, trace_patterns).
 *
 * --mode flops (the apps' default) under SMPI charges exactly the given flops with
 * smpi_execute_flops, SMPI's application call (declared by smpicc's mpi.h). SMPI also charges the
 * measured CPU time between MPI calls unless it is told not to: about 0.8 us per call on our
 * machine, straddling its 1 us cpu-threshold, which made two identical runs differ by 1e-5 s
 * (measured). For runs that depend only on the arguments and the platform, give SMPI
 * --cfg=smpi/simulate-computation:no (haec run --cfg smpi/simulate-computation:no ...): the apps
 * stay plain MPI and change no simulator setting themselves.
 * --mode real, or any non-SMPI build: a real floating-point loop of that many flops. */
#ifndef HAEC_APPS_COST_INJECTION_H
#define HAEC_APPS_COST_INJECTION_H

/* smpicc's mpi.h includes smpi/smpi.h, which defines SMPI_SAMPLE_FLOPS; OpenMPI's does not. */
#ifdef SMPI_SAMPLE_FLOPS
#define HAVE_SMPI 1
#else
#define HAVE_SMPI 0
#endif

static int inject = 0; /* flops mode under SMPI */

static void use_injected_cost(void)
{
  inject = HAVE_SMPI;
}

static volatile double work_sink; /* keeps the real loop from being optimised away */

/* Real work of about `flops` floating-point operations: 4 independent multiply-add chains. */
static void real_work(double flops)
{
  long n = (long)(flops / 8.0);
  double x0 = 0.1, x1 = 0.2, x2 = 0.3, x3 = 0.4;
  const double a = 0.999999, b = 1e-6;
  for (long k = 0; k < n; ++k) {
    x0 = x0 * a + b;
    x1 = x1 * a + b;
    x2 = x2 * a + b;
    x3 = x3 * a + b;
  }
  work_sink = x0 + x1 + x2 + x3;
}

static void charge(double flops)
{
#if HAVE_SMPI
  if (inject) {
    smpi_execute_flops(flops);
    return;
  }
#endif
  real_work(flops);
}

#endif
