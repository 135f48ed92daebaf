#!/usr/bin/env bash
# Deadlocks are failures (README "Errors and failures"): exit 4, one line naming every blocked rank
# and its pending call, no result directory (unless --keep-failed), the log kept in <out>.failed.log;
# in emulation, in replay (the core's report, found while simulating) and in traces (found by the
# checker's matching simulation before anything runs).
source "$(dirname "$0")/common.sh" "$@"

# --- emulation: the core's deadlock report (core/deadlock_report.cpp)
run_expect 4 "^haec: deadlock: rank 0 waits in MPI_Recv from 1 tag 0; rank 1 waits in MPI_Recv from 0 tag 0; log: .*/dl\.failed\.log$" \
  "$HAEC" run --platform cluster:2 -np 2 --out dl -- "$FAULTS" deadlock
[[ $(wc -l < err) == 1 ]] || fail "deadlock: more than one line"
[[ ! -e dl && -f dl.failed.log ]] || fail "deadlock: result directory left or log not kept: $(listing)"
grep -q "Deadlock detected" dl.failed.log || fail "the kept log is not the simulator's"
ls -d dl.tmp-* 2>/dev/null && fail "staging directory left behind"
run_expect 4 "^haec: deadlock: rank 0 waits in MPI_Recv from 3 tag 7; .*; rank 3 waits in MPI_Recv from 2 tag 7; log:" "$HAEC" run --platform cluster:4 -np 4 --out ring -- "$FAULTS" ring
run_expect 4 "^haec: deadlock: rank 0 waits in MPI_Wait.*; ranks 1, 2 wait in MPI_Barrier" \
  "$HAEC" run --platform cluster:3 -np 3 --out w -- "$FAULTS" wait
# a rank that returned early is named first: it is the cause
run_expect 3 "^haec: run failed: rank 1 ended with status 3" "$HAEC" run --platform cluster:3 -np 3 --out ex -- "$FAULTS" exit

# --- --keep-failed: the directory stays, marked failed
run_expect 4 "^haec: deadlock: .*; kept in .*/kept$" "$HAEC" run --platform cluster:2 -np 2 --keep-failed --out kept -- "$FAULTS" deadlock
"${HAEC_PYTHON:-python3}" - kept/summary.json <<'PY' || fail "summary.json of a kept failed run"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["status"] == "failed" and s["exit_status"] == 4 and s["failure"].startswith("deadlock: rank 0 waits in MPI_Recv from 1 tag 0"), s
PY
[[ -f kept/simgrid.log && -f kept/command.txt ]] || fail "kept directory incomplete"

# --- traces: found before simulating (exit 4, nothing written, not even a log)
printf '0 init\n0 recv 1 0 10\n0 send 1 0 10\n0 finalize\n' > d0.txt
printf '1 init\n1 recv 0 0 10\n1 send 0 0 10\n1 finalize\n' > d1.txt
printf '%s\n%s\n' "$TMP/d0.txt" "$TMP/d1.txt" > dl.trace
want="^haec: deadlock: rank 0 waits in recv from 1 tag 0 \(d0.txt:2\); rank 1 waits in recv from 0 tag 0 \(d1.txt:2\)$"
run_expect 4 "$want" "$HAEC" trace check dl.trace
run_expect 4 "$want" "$HAEC" run --platform cluster:2 --replay dl.trace --out rdl
[[ ! -e rdl && ! -e rdl.failed.log ]] || fail "a trace deadlock found before the run left files"
# large sends wait for their receive (rendezvous above smpi/send-is-detached-thresh), small ones do not
printf '0 init\n0 send 1 0 100000\n0 recv 1 0 8\n0 finalize\n' > s0.txt
printf '1 init\n1 send 0 0 100000\n1 recv 0 0 8\n1 finalize\n' > s1.txt
printf '%s\n%s\n' "$TMP/s0.txt" "$TMP/s1.txt" > big.trace
run_expect 4 "rank 0 waits in send to 1 tag 0 \(s0.txt:2\)" "$HAEC" trace check big.trace
sed -i 's/100000/1000/' s0.txt s1.txt
"$HAEC" trace check big.trace > /dev/null || fail "eager sends are no deadlock"
# many ranks: a 64-rank ring deadlock stays one line, ranks beyond the budget counted
for r in $(seq 0 63); do
  printf '%d init\n%d recv %d 7 8\n%d send %d 7 8\n%d finalize\n' $r $r $(((r + 63) % 64)) $r $(((r + 1) % 64)) $r > "ring$r.txt"
  echo "$TMP/ring$r.txt"
done > ring.trace
run_expect 4 "^haec: deadlock: rank 0 waits in recv from 63 tag 7 \(ring0.txt:2\); .*; and [0-9]+ more blocked ranks$" \
  "$HAEC" trace check ring.trace
(( $(head -1 err | wc -c) <= 300 )) || fail "64-rank deadlock line too long: $(head -1 err | wc -c) characters"

# --- replay deadlocks the checker cannot see are still caught by the core: plain smpirun with the
# suite preloaded and haec/out set (what command.txt of a run does)
"$HAEC" platform cluster:2 --out p.json > /dev/null
printf 'node-0\nnode-1\n' > hosts
mkdir -p direct
smpirun -wrapper "env LD_PRELOAD=$BUILD/lib/libhaec_suite.so" -np 2 -platform "$BUILD/lib/libhaec_suite.so" \
  -hostfile hosts --cfg=haec/platform:"$TMP/p.json" --cfg=haec/out:"$TMP/direct" -replay dl.trace "$BUILD/lib/haec-replay" > direct.out 2> direct.err
status=$?
[[ $status == 4 ]] || { cat direct.err >&2; fail "direct smpirun replay deadlock: exit $status, want 4"; }
grep -q "^haec: deadlock: rank 0 waits in MPI_Recv from 1 tag 0; rank 1 waits in MPI_Recv from 0 tag 0$" direct.err ||
  { cat direct.err >&2; fail "direct smpirun: no deadlock line naming the replayed actions"; }
grep -q '"status": "failed"' direct/summary.json || fail "direct smpirun: summary.json not marked failed"
rm -rf direct; mkdir direct
for r in $(seq 0 31); do printf 'node-0\nnode-1\n'; done > hosts64
smpirun -wrapper "env LD_PRELOAD=$BUILD/lib/libhaec_suite.so" -np 64 -platform "$BUILD/lib/libhaec_suite.so" \
  -hostfile hosts64 --cfg=haec/platform:"$TMP/p.json" --cfg=haec/out:"$TMP/direct" -replay ring.trace "$BUILD/lib/haec-replay" > direct.out 2> direct.err
[[ $? == 4 ]] || { cat direct.err >&2; fail "direct 64-rank replay deadlock: not exit 4"; }
line=$(grep "^haec: deadlock:" direct.err)
[[ $line =~ ^"haec: deadlock: rank 0 waits in MPI_Recv from 63 tag 7; rank 1 waits in MPI_Recv from 0 tag 7; ".*"more blocked ranks"$ ]] ||
  fail "64-rank core deadlock line: $line"
grep -q "every blocked rank: .*rank 63 waits in MPI_Recv from 62 tag 7" direct.err || fail "the log does not list every blocked rank"

# --- trace record of a deadlocking program: exit 4, the log next to the trace, no trace
run_expect 4 "^haec: deadlock: .*; log: .*/rec\.txt\.failed\.log$" \
  "$HAEC" trace record --platform cluster:2 -np 2 --out rec.txt -- "$FAULTS" deadlock
[[ ! -e rec.txt && ! -e rec.txt_files && -f rec.txt.failed.log ]] || fail "trace record: $(listing)"
ls -d rec.txt.tmp-* 2>/dev/null && fail "trace record left its staging directory"
echo PASS
