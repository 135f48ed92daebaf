#!/usr/bin/env bash
# haec trace record + replay parity (libs/trace/README.md): every app and trace_patterns (wildcard
# receives, waits one by one after a waitall on a subset, Waitany, Test polling, non-blocking
# collectives) replay to the emulated makespan (relative tolerance 1e-9; measured: equal to 1e-15);
# one-sided communication replays too (trace_patterns rma; tests/integration/test_rma_replay.sh has
# the rest, MPI_Rput included); SimGrid-tracer wildcards/NBCs are one-line errors; plain
# smpirun -replay reads a trace without haec actions; SimGrid's Paje output still works with the suite preloaded.
source "$(dirname "$0")/common.sh"
makespan() { $py -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["makespan_s"]))' "$1/summary.json"; }
same() { $py -c 'import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); sys.exit(0 if abs(a-b) <= 1e-9*max(a,b) else 1)' "$1" "$2"; }

check_parity() { # name platform np link app args...
  local name=$1 platform=$2 np=$3 link=$4; shift 4
  "$haec" trace record --platform "$platform" --link "$link" -np "$np" --out "t/$name.txt" --keep-run "em_$name" -- "$@" > /dev/null
  "$haec" run --platform "$platform" --link "$link" --replay "t/$name.txt" --out "rep_$name" --quiet
  local e r; e=$(makespan "em_$name"); r=$(makespan "rep_$name")
  same "$e" "$r" || { echo "FAIL: $name: emulation $e s, replay $r s"; exit 1; }
  echo "parity $name: emulation $e s, replay $r s"
}
check_parity patterns cluster:4 4 none "$build/bin/trace_patterns" 2
check_parity patterns5 haec-box:2x2x2 5 dor "$build/bin/trace_patterns" 1
check_parity lu haec-box:2x2x2 8 pnc "$build/bin/lu_like" 3
check_parity pingpong cluster:2 2 none "$build/bin/pingpong"
check_parity poll_test cluster:3 3 none "$build/bin/poll_vs_sleep" test 5
check_parity poll_iprobe cluster:3 3 none "$build/bin/poll_vs_sleep" iprobe 5
check_parity rma cluster:3 3 none "$build/bin/trace_patterns" rma

# What the patterns trace holds: matched sources (never SMPI's -555), our NBC actions, waits.
p=t/patterns.txt_files
grep -q "^0 recv 3 5 1 1$" $p/rank-0.txt || { echo "FAIL: first wildcard recv of rank 0 is not from rank 3"; exit 1; }
grep -q "^0 irecv 3 13 1 1$" $p/rank-0.txt || { echo "FAIL: wildcard irecv not completed with source 3 tag 13"; exit 1; }
! grep -qE "(recv|irecv) -" $p/*.txt || { echo "FAIL: a negative source was written"; exit 1; }
for a in haec_ialltoall haec_iallreduce haec_ibcast haec_ibarrier haec_wait; do
  grep -q " $a " $p/rank-1.txt || { echo "FAIL: no $a in rank 1's trace"; exit 1; }
done
# rank 1: waitall of the two sends, then the receives one by one, right (tag 21) first
# (communication actions only: the call annotations between them are comments, and the
# computations SMPI charged at and inside the calls come between them too)
grep -v -e "^#" -e "^1 compute " $p/rank-1.txt | grep -A3 "^1 isend 0 21 1 1$" | grep -q "^1 wait 1 2 20$" ||
  { echo "FAIL: waitall not written as waits"; exit 1; }
[ "$(grep -c . t/patterns.txt)" -eq 4 ] || { echo "FAIL: list file does not name 4 ranks"; exit 1; }

# A trace without haec actions is SimGrid's own format.
cat > c.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><cluster id="c" prefix="h" suffix="" radical="0-7" speed="1Gf" bw="1.25GBps" lat="1.5us"/></platform>
XML
(cd t && smpirun -np 8 -platform ../c.xml -replay lu.txt) > plain.out 2>&1 || { echo "FAIL: smpirun -replay of a recorded trace"; tail -3 plain.out; exit 1; }
grep -q "Simulation time" plain.out || { echo "FAIL: smpirun -replay did not finish"; exit 1; }

# Request-based one-sided calls record as our actions, the trace checks, and it replays to the
# emulated makespan (a call the recorder cannot carry is refused in one line: tests/unit/trace_model_test.cpp).
"$haec" trace record --platform cluster:3 -np 3 --out t/rput.txt --keep-run em_rput -- "$build/bin/rma_osu" rput fence 64 1 \
  > /dev/null 2> rma.err || { echo "FAIL: MPI_Rput record: $(cat rma.err)"; exit 1; }
grep -q " haec_rput " t/rput.txt_files/rank-0.txt || { echo "FAIL: no haec_rput in rank 0's trace"; exit 1; }
"$haec" trace check t/rput.txt > /dev/null || { echo "FAIL: check of the MPI_Rput trace"; exit 1; }
"$haec" run --platform cluster:3 -np 3 --replay t/rput.txt --out rep_rput --quiet
same "$(makespan em_rput)" "$(makespan rep_rput)" ||
  { echo "FAIL: MPI_Rput: emulation $(makespan em_rput) s, replay $(makespan rep_rput) s"; exit 1; }

# SimGrid's own tracer on the same program: its ANY_SOURCE and NBC lines are refused before the run.
mkdir sg
smpirun -np 4 -platform c.xml -trace-ti --cfg=tracing/filename:sg/p.txt --cfg=smpi/host-speed:1Gf \
  "$build/bin/trace_patterns" 1 > /dev/null 2>&1
set +e
"$haec" run --platform c.xml --replay sg/p.txt --out sgrep --quiet 2> sg.err
rc=$?
set -e
[ $rc -eq 2 ] && grep -qE "^haec: .*rank-[0-9]+.txt:[0-9]+: recv from/to -333 \(a wildcard source" sg.err ||
  { echo "FAIL: SimGrid tracer's wildcard not refused (exit $rc): $(cat sg.err)"; exit 1; }
[ ! -e sgrep ] || { echo "FAIL: result directory left behind"; exit 1; }

# Paje: SimGrid's own tracing with the suite preloaded.
smpirun -wrapper "env LD_PRELOAD=$build/lib/libhaec_suite.so" -np 4 -platform c.xml -trace \
  --cfg=tracing/filename:paje.trace --cfg=smpi/host-speed:1Gf "$build/bin/lu_like" 2 > /dev/null 2> paje.err
[ -s paje.trace ] || { echo "FAIL: no Paje trace"; exit 1; }
head -1 paje.trace | grep -q "^#This file was generated using SimGrid" || { echo "FAIL: Paje header"; exit 1; }
for def in PajeDefineContainerType PajeCreateContainer PajePushState PajeStartLink PajeEndLink; do
  grep -q "%EventDef $def" paje.trace || { echo "FAIL: Paje trace lacks $def"; exit 1; }
done
[ "$(grep -c "^1[0-9] " paje.trace)" -gt 100 ] || { echo "FAIL: Paje trace has too few state events"; exit 1; }
echo "trace record ok"
