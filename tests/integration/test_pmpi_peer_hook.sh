#!/usr/bin/env bash
# The peer hook of the PMPI layer (pmpi/README.md): right after the entry of a call that can block
# on a peer, libhaec_pmpi calls the weak haec_suite_mpi_peer(peer_world_rank, tag). A stand-in
# defines it here (the suite's deadlock report will) and logs every call: pingpong's sends and
# receives name the other rank and tag 1 (C and, through the Fortran entry points, ring_allreduce_f
# with MPI_ANY_SOURCE as -1 and waits on requests with a known peer); without a definition nothing
# is called and the run is unchanged.
source "$(dirname "$0")/common.sh"

cat > hook.c <<'EOF'
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
void haec_suite_mpi_peer(int peer, int tag)
{
  static FILE* log = NULL;
  if (log == NULL)
    log = fopen(getenv("PEER_LOG"), "w");
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fprintf(log, "%d %d %d\n", rank, peer, tag);
  fflush(log);
}
EOF
# Against the SimGrid the suite is built against (ctest gives its directories).
cc -shared -fPIC -O1 -I"$HAEC_SIMGRID_INCLUDEDIR/smpi" -I"$HAEC_SIMGRID_INCLUDEDIR" hook.c -o libhook.so \
  -L"$HAEC_SIMGRID_LIBDIR" -lsimgrid -Wl,-rpath,"$HAEC_SIMGRID_LIBDIR"
cat > p.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" bw="1GBps" lat="1us"/></platform>
XML
printf 'n0\nn1\nn2\nn3\n' > hosts
run() { # log np app args...
  local log=$1 np=$2; shift 2
  PEER_LOG=$PWD/$log timeout 120 smpirun -wrapper "env LD_PRELOAD=$PWD/libhook.so" \
    -np "$np" -platform p.xml \
    -hostfile hosts --cfg=smpi/host-speed:1Gf "$@" > "$log.out" 2>&1 || { tail -3 "$log.out"; fail "$log: smpirun"; }
}

# pingpong 64 2 on 3 ranks: rank 0 calls Send and Recv 32 times each with ranks 1 and 2, tag 1.
run pp.log 3 "$build/bin/pingpong" 64 2
[ "$(grep -c '^0 [12] 1$' pp.log)" -eq 64 ] ||
  fail "rank 0: $(grep -c '^0 ' pp.log) peer reports, expected 64 to ranks 1/2"
[ "$(grep -c '^1 0 1$' pp.log)" -eq 32 ] && [ "$(grep -c '^2 0 1$' pp.log)" -eq 32 ] ||
  fail "ranks 1, 2: $(sort pp.log | uniq -c)"
[ "$(grep -c . pp.log)" -eq 128 ] || fail "pingpong: $(grep -c . pp.log) reports, expected 128"

# The Fortran twin: wildcard receives (-1, tag 30), Sendrecv (the partner, tag 20), Waitall/Waitany
# on requests whose peers agree or not.
run f.log 4 "$build/bin/ring_allreduce_f" 2
grep -q '^0 -1 30$' f.log || fail "no wildcard receive reported as -1 by rank 0"
grep -q '^2 3 20$' f.log || fail "rank 2's Sendrecv with rank 3 not reported"
grep -q '^1 -1 10$' f.log || fail "rank 1's Waitall on a receive from 0 and a send to 2 (tag 10) not reported as -1 10"
grep -q '^1 -1 -1$' f.log || fail "rank 1's Waitany on receives from two peers (tags 40, 41) should report -1 -1"
grep -qE '^1 (0 40|2 41)$' f.log || fail "rank 1's second Waitany (one receive left) should name its peer"
pattern='^[0-3] -?[0-9]+ -?[0-9]+$'
! grep -qvE "$pattern" f.log || fail "malformed report: $(grep -vE "$pattern" f.log | head -1)"
echo PASS
