#!/usr/bin/env bash
# Two speed-ups that must not change a single result (README, "Performance"):
# 1. SMPI's message numbering with integer keys (core/smpi_message_counts.cpp) gives the same
#    simulated times as SMPI's own maps (--cfg=haec/message-ids:simgrid) and as SimGrid alone:
#    an emulation with wildcard receives on a duplicated communicator (trace_patterns, computation
#    not benchmarked so that times are exact), and a replay of lu_like, every action's time logged.
#    The same for MPI requests' Fortran handles given when Fortran asks (core/smpi_request_handles.cpp)
#    against SMPI's own, at construction (--cfg=haec/request-handles:simgrid), and for actors found
#    by pid in a vector (core/actor_lookup.cpp; --cfg=haec/actor-lookup:simgrid), and for SimGrid's
#    engine and current context read directly (core/simgrid_accessors.cpp;
#    --cfg=haec/simgrid-accessors:simgrid), each defined by the suite in SimGrid's place; SMPI's leak report
#    (smpi/list-leaks) still counts the requests a program never frees (fault_cases leak).
# 2. jemalloc in a replay's simulator (haec run --allocator) gives the same result files as
#    glibc's malloc; it is preloaded only in replays and summary.json names it.
source "$(dirname "$0")/common.sh"
suite="$build/lib/libhaec_suite.so"
record_lu16_trace

# 1a. Emulation: the application's output and the simulated time, three ways.
emulate() {
  smpirun "$@" -np 6 -platform cluster.xml -hostfile hostfile --cfg=smpi/host-speed:1Gf \
    --cfg=smpi/simulate-computation:no --cfg=smpi/display-timing:yes "$build/bin/trace_patterns" 4 2>&1 |
    grep -v "xbt_cfg/INFO\|The simulation took\|actual computation" # those two: wall-clock time
}
emulate > simgrid.out
emulate -wrapper "env LD_PRELOAD=$suite" > haec-ids.out
emulate -wrapper "env LD_PRELOAD=$suite" --cfg=haec/message-ids:simgrid > simgrid-ids.out
emulate -wrapper "env LD_PRELOAD=$suite" --cfg=haec/request-handles:simgrid > simgrid-handles.out
emulate -wrapper "env LD_PRELOAD=$suite" --cfg=haec/actor-lookup:simgrid > simgrid-actors.out
emulate -wrapper "env LD_PRELOAD=$suite" --cfg=haec/simgrid-accessors:simgrid > simgrid-accessors.out
grep -q "Simulated time" simgrid.out || { cat simgrid.out; fail "emulation: no simulated time"; }
for other in haec-ids simgrid-ids simgrid-handles simgrid-actors simgrid-accessors; do
  cmp -s simgrid.out "$other.out" || { diff simgrid.out "$other.out" | head; fail "emulation: $other differs"; }
done
echo "emulation: identical 6 ways ($(grep -o 'Simulated time.*' simgrid.out | head -1))"

# 1b. Replay: every action with its simulated time.
replay() {
  smpirun "$@" -np 16 -platform cluster.xml -hostfile hostfile --cfg=smpi/host-speed:1Gf -replay trace/lu.txt \
    --log=smpi_replay.thresh:verbose --log=no_loc 2>&1 | grep -v "xbt_cfg/INFO"
}
replay > replay-simgrid.out
replay -wrapper "env LD_PRELOAD=$suite" > replay-haec-ids.out
replay -wrapper "env LD_PRELOAD=$suite" --cfg=haec/message-ids:simgrid > replay-simgrid-ids.out
replay -wrapper "env LD_PRELOAD=$suite" --cfg=haec/request-handles:simgrid > replay-simgrid-handles.out
replay -wrapper "env LD_PRELOAD=$suite" --cfg=haec/actor-lookup:simgrid > replay-simgrid-actors.out
replay -wrapper "env LD_PRELOAD=$suite" --cfg=haec/simgrid-accessors:simgrid > replay-simgrid-accessors.out
actions=$(grep -c "smpi_replay/VERBOSE" replay-simgrid.out || true)
[ "$actions" -gt 1000 ] || fail "replay: only $actions actions logged"
for other in replay-haec-ids replay-simgrid-ids replay-simgrid-handles replay-simgrid-actors replay-simgrid-accessors; do
  cmp -s replay-simgrid.out "$other.out" || { diff replay-simgrid.out "$other.out" | head; fail "replay: $other differs"; }
done
echo "replay: $actions actions identical 6 ways"

# 1c. The suite really defines those SimGrid functions (else the comparisons above compare nothing).
defined=$(nm -D --defined-only "$suite")
for symbol in _ZN7simgrid6kernel10EngineImpl16get_actor_by_pidEl _ZN7simgrid4smpi3F2C5add_fEv \
  _ZN7simgrid3s4u6Engine12get_instanceEv _ZN7simgrid6kernel7context7Context4selfEv; do
  grep -q " T $symbol\$" <<< "$defined" || fail "the suite does not define $symbol"
done

# 1d. SMPI's leak report sees the requests fault_cases leak never frees, with the suite as without.
leaks() {
  smpirun "$@" -np 4 -platform cluster.xml -hostfile hostfile --cfg=smpi/list-leaks:5 "$build/bin/fault_cases" leak 2>&1 |
    grep -o "SMPI detected [0-9]* unfreed MPI handles\|[0-9]* leaked handles of type MPI_Request" | tr '\n' ' ' || true
}
expected=$(leaks)
[[ $expected == *"4 leaked handles of type MPI_Request"* ]] || fail "SimGrid alone: '$expected', not 4 leaked requests"
got=$(leaks -wrapper "env LD_PRELOAD=$suite")
[ "$got" = "$expected" ] || fail "leak report with the suite: '$got', SimGrid alone: '$expected'"
echo "leak report: $got, as SimGrid alone"

# 2. The allocator: the same result files; jemalloc only where it was asked for (or by default).
alloc_run() { "$haec" run --platform torus:4x2x2 --link dor --messages --replay trace/lu.txt --out "alloc-$1" -q --allocator "$1"; }
if ! alloc_run jemalloc 2> jemalloc.err; then
  grep -q "jemalloc is not installed" jemalloc.err && skip "jemalloc is not installed (scripts/install-deps.sh installs libjemalloc2)"
  # A sanitizer build (scripts/test-asan.sh) refuses jemalloc, and auto keeps the system's malloc.
  grep -q "cannot be used by a sanitizer build" jemalloc.err || { cat jemalloc.err; fail "--allocator jemalloc failed"; }
  alloc_run auto
  grep -q '"allocator": "system"' alloc-auto/summary.json || fail "sanitizer build: auto does not keep the system's malloc"
  echo "sanitizer build: jemalloc refused, auto keeps the system's malloc"
  exit 0
fi
alloc_run auto
alloc_run system
for f in messages.csv traffic_matrix.csv hops.csv msg_sizes.csv; do
  cmp -s "alloc-system/$f" "alloc-jemalloc/$f" || fail "--allocator: $f differs between system and jemalloc"
done
grep -q "libjemalloc.so.2:" alloc-jemalloc/command.txt || fail "--allocator jemalloc: not preloaded"
grep -q "libjemalloc" alloc-system/command.txt && fail "--allocator system: jemalloc preloaded"
grep -q "libjemalloc.so.2:" alloc-auto/command.txt || fail "--allocator auto: jemalloc not preloaded in a replay"
/usr/bin/python3 - <<'PY'
import json
s, j, a = (json.load(open(f"alloc-{k}/summary.json")) for k in ("system", "jemalloc", "auto"))
assert s["allocator"] == "system", s["allocator"]
assert j["allocator"].startswith("jemalloc: ") and a["allocator"] == j["allocator"], (j["allocator"], a["allocator"])
assert s["makespan_s"] == j["makespan_s"] and s["messages"] == j["messages"] > 0, (s, j)
print(f"allocator: system and jemalloc give makespan {s['makespan_s']!r} s, {s['messages']} transfers")
PY
# Emulation keeps the system's malloc by default.
"$haec" run --platform cluster.xml --hostfile hostfile -np 4 --out emul -q -- "$build/bin/pingpong" > /dev/null
grep -q "libjemalloc" emul/command.txt && fail "emulation: jemalloc preloaded"
grep -q '"allocator": "system"' emul/summary.json || fail "emulation: summary.json does not say allocator system"
echo "emulation uses the system's malloc"
