#!/usr/bin/env bash
# Traces written by SimGrid's own tracer (smpirun -trace-ti) of our apps reproducing real codes'
# patterns (apps/tracer_patterns.c, apps/trace_patterns.c): `haec trace check`
# rejects first, with file:line, what the replay would reject; `haec trace repair` rewrites them
# where the trace holds the information, and says where it does not.
source "$(dirname "$0")/common.sh" "$@"
cat > plat.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-3" speed="1Gf" bw="10Gbps" lat="1us" bb_bw="100Gbps" bb_lat="1us"/>
</platform>
XML
simgrid_trace() { # NAME APP ARGS...: a TI trace by SimGrid's tracer
  local name=$1
  shift
  smpirun -np 4 -platform plat.xml -trace-ti --cfg=tracing/filename:"$name.txt" --cfg=smpi/host-speed:1Gf "$@" \
    > "$name.log" 2>&1 || { cat "$name.log" >&2; fail "smpirun -trace-ti $*"; }
}
replay_time() { grep -o "Simulation time [0-9.e+-]*" "$1" | awk '{print $3}'; }

# 1. LULESH's pattern: a waitall on the sends, then a wait per receive
simgrid_trace halo "$BUILD/bin/tracer_patterns" halo 3
smpirun -np 4 -platform plat.xml -replay halo.txt > sg.log 2>&1 && fail "SimGrid replays the halo trace (no longer a test)"
grep -q "wait not preceded by any irecv or isend" sg.log || { cat sg.log >&2; fail "SimGrid's abort changed"; }
run_expect 2 "halo.txt_files/.*rank-[0-9].txt:[0-9]+: wait .* with no request pending .*not preceded by any irecv or isend.*haec trace repair" \
  "$HAEC" trace check halo.txt
run_expect 2 "rank-[0-9].txt:[0-9]+: wait .* with no request pending" "$HAEC" run --platform plat.xml --replay halo.txt --out o
"$HAEC" trace repair halo.txt --out halo-fixed.txt > out 2> err || { cat err >&2; fail "repair halo"; }
grep -q "^halo.txt: 12 waitall rewritten (24 waits written)" out || { cat out; fail "halo repair counts"; }
"$HAEC" trace check halo-fixed.txt > /dev/null || fail "repaired halo trace does not check"
# both replayers accept it, with the same makespan (SimGrid prints it to the microsecond)
smpirun -np 4 -platform plat.xml -replay halo-fixed.txt > sg.log 2>&1 || { cat sg.log >&2; fail "SimGrid replay of the repaired trace"; }
"$HAEC" run -q --platform plat.xml --replay halo-fixed.txt --out halo-run || fail "haec replay of the repaired trace"
sg=$(replay_time sg.log)
ours=$("${HAEC_PYTHON:-python3}" -c "import json; print(json.load(open('halo-run/summary.json'))['makespan_s'])")
"${HAEC_PYTHON:-python3}" -c "import sys; a, b = float('$sg'), float('$ours'); sys.exit(abs(a - b) > 5.01e-7)" ||
  fail "SimGrid replays the repaired trace in $sg s, haec in $ours s"

# 2. HPCCG's pattern: MPI_ANY_SOURCE receives whose sender is the only one left
simgrid_trace wild "$BUILD/bin/tracer_patterns" wildcard 3
run_expect 2 "wild.txt_files/.*:[0-9]+: recv from/to -333 \(a wildcard source" "$HAEC" trace check wild.txt
"$HAEC" trace repair wild.txt --out wild-fixed.txt > out 2> err || { cat err >&2; fail "repair wildcard"; }
grep -q "12 wildcard receives given their source" out || { cat out; fail "wildcard repair counts"; }
smpirun -np 4 -platform plat.xml -replay wild-fixed.txt > sg.log 2>&1 || { cat sg.log >&2; fail "SimGrid replay of repaired wildcards"; }
"$HAEC" run -q --platform plat.xml --replay wild-fixed.txt --out wild-run || fail "haec replay of repaired wildcards"

# ... and where several ranks may have sent the message, the trace does not say: nothing written
simgrid_trace any "$BUILD/bin/tracer_patterns" anysource 2
"$HAEC" trace repair any.txt --out any-fixed.txt > out 2> err && fail "an ambiguous wildcard was repaired"
grep -q "^haec: any.txt_files/.*:[0-9]*: a receive from any source: ranks 1, 2, 3 send messages it may have matched; the trace does not say which" err ||
  { cat err >&2; fail "ambiguous wildcard message"; }
grep -q "^haec: any.txt: 6 place(s) cannot be repaired (listed above); nothing was written$" err || { cat err >&2; fail "summary line"; }
[[ ! -e any-fixed.txt && ! -e any-fixed.txt_files ]] || fail "files written for an unrepairable trace"

# 3. non-blocking collectives: rejected by both; repaired into haec_* actions haec replays
simgrid_trace nb "$BUILD/bin/tracer_patterns" nbcoll 2
smpirun -np 4 -platform plat.xml -replay nb.txt > sg.log 2>&1 && fail "SimGrid replays ialltoall (no longer a test)"
run_expect 2 "nb.txt_files/.*:[0-9]+: 'ialltoall' \(a non-blocking collective as SimGrid's tracer writes it\) cannot be replayed" \
  "$HAEC" trace check nb.txt
"$HAEC" trace repair nb.txt --out nb-fixed.txt > out 2> err || { cat err >&2; fail "repair nbcoll"; }
grep -q "40 non-blocking collectives as haec_\* actions" out || { cat out; fail "nbcoll repair counts"; }
grep -q "^1 haec_ibarrier 5$" nb-fixed.txt_files/rank-1.txt && grep -q "^1 haec_wait 5$" nb-fixed.txt_files/rank-1.txt ||
  fail "the polled ibarrier is not completed at its last test"
"$HAEC" run -q --platform plat.xml --replay nb-fixed.txt --out nb-run || fail "haec replay of repaired collectives"

# 4. what cannot be repaired: waitAny (which request completed is not written), one-sided actions
simgrid_trace tp "$BUILD/bin/trace_patterns" 1
run_expect 2 "tp.txt_files/.*:[0-9]+: recv from/to -333" "$HAEC" trace check tp.txt
run_expect 2 "tp.txt_files/.*:[0-9]+: 'waitAny' .*does not say which request completed" \
  "$HAEC" trace repair tp.txt --out tp-fixed.txt
smpirun -np 3 -platform plat.xml -trace-ti --cfg=tracing/filename:rma.txt --cfg=smpi/host-speed:1Gf \
  "$BUILD/bin/trace_patterns" rma > rma.log 2>&1 || fail "rma trace"
run_expect 2 "rma.txt_files/.*:[0-9]+: MPI_Win_fence \(one-sided communication\) cannot be replayed" "$HAEC" trace check rma.txt
run_expect 2 "rma.txt_files/.*:[0-9]+: MPI_Win_fence" "$HAEC" trace repair rma.txt --out rma-fixed.txt
[[ ! -e tp-fixed.txt && ! -e rma-fixed.txt ]] || fail "unrepairable traces were written"
echo PASS
