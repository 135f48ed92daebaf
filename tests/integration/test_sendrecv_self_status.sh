#!/usr/bin/env bash
# MPI_Sendrecv of a rank with itself: SimGrid fills the status by hand there, with the actor id
# instead of the rank (3.32 and stock 4.1: MPI_SOURCE = rank + 1). Our SimGrid patch
# third_party_patches/simgrid-4.1/0050-sendrecv-self-status-source.patch fixes it: with a SimGrid
# built with it the status names the rank, under plain smpirun and under haec run. Without it
# (Debian's 3.32, a stock 4.1) the test is skipped with the reason. The recorder does not depend
# on it: it writes the source the caller named (test_trace_features.sh records such sendrecvs).
source "$(dirname "$0")/common.sh"
program="$build/bin/sendrecv_self_status"
cat > two.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-1" speed="1Gf" bw="1GBps" lat="1us"/>
</platform>
XML
smpirun -np 2 -platform two.xml --log=root.thr:warning "$program" > plain.out 2>&1 || { cat plain.out; fail "plain smpirun failed"; }
if grep -q "(wrong)" plain.out; then
  version=$(smpirun -version 2>/dev/null | head -1 || true)
  skip "this SimGrid (${version:-unknown version}) lacks patch 0050-sendrecv-self-status-source: MPI_Sendrecv of a rank with itself reports MPI_SOURCE = $(grep -o 'MPI_SOURCE [0-9]*' plain.out | head -1) for rank 0"
fi
grep -q "No Errors" plain.out || { cat plain.out; fail "plain smpirun: no 'No Errors'"; }
"$haec" run --platform cluster:2 -np 2 --out run --quiet -- "$program" || fail "haec run failed"
grep -q "No Errors" run/stdout.txt || { cat run/stdout.txt; fail "haec run: a wrong status"; }
echo PASS
