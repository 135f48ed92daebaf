#!/usr/bin/env bash
# Our replayer (core/haec_replay_main.cpp, build/lib/haec-replay: SMPI's replay through its public
# API, with the suite's hook between SMPI's registration of its actions and the first one) replays
# exactly as SimGrid's own (smpireplaymain): every action of every rank logged with its simulated
# time (smpi_replay verbose) must be identical, byte for byte, with SimGrid alone and with the
# suite preloaded and our replayer, with and without privatization (haec run replays without).
# Traces: a hand-written one with point-to-point, non-blocking and collective actions, comments,
# blank lines, tabs, runs of spaces and a CRLF line; and the LU-like trace of bench/scale. Then:
# haec run replays with it; a recording run through SimGrid's replayer (whose actions the suite
# cannot see) is refused; a collective algorithm the user chose is stated.
source "$(dirname "$0")/common.sh"
suite="$build/lib/libhaec_suite.so"
cat > cluster.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-15" speed="1Gf" bw="125MBps" lat="50us" loopback_bw="1GBps" loopback_lat="1us"/>
</platform>
XML
for ((i = 0; i < 16; i++)); do echo "h$i"; done > hostfile

mkdir mixed
for r in 0 1 2 3; do
  right=$(((r + 1) % 4)); left=$(((r + 3) % 4))
  {
    printf '%d init\n# a comment\n\n%d compute 1000000\n' "$r" "$r"
    printf '%d isend %d 7 1000 0\n%d\tirecv  %d 7 1000 0   \n' "$r" "$right" "$r" "$left"
    printf '%d wait %d %d 7\n%d wait %d %d 7\r\n' "$r" "$r" "$right" "$r" "$left" "$r"
    if ((r % 2 == 0)); then
      printf '%d send %d 8 100000 0\n%d recv %d 8 100000 0\n' "$r" "$right" "$r" "$left"
    else
      printf '%d recv %d 8 100000 0\n%d send %d 8 100000 0\n' "$r" "$left" "$r" "$right"
    fi
    printf '%d bcast 5000 0\n%d reduce 5000 100000 0\n%d allreduce 5 100 0\n%d barrier\n' "$r" "$r" "$r" "$r"
    printf '%d alltoall 100 100 0 0\n%d allgather 10 10 0 0\n%d gather 68 68 0 0 0\n' "$r" "$r" "$r"
    printf '  %d sleep 0.001\n%d finalize\n' "$r" "$r"
  } > "mixed/rank-$r.txt"
  echo "mixed/rank-$r.txt" >> mixed.txt
done
/usr/bin/python3 "$source_dir/bench/scale/gen_lu_trace.py" --ranks 16 --iterations 2 --out lu > /dev/null

log=(--log=smpi_replay.thresh:verbose --log=no_loc)
replayer="$build/lib/haec-replay"
for trace in mixed.txt lu/lu.txt; do
  np=$(wc -l < "$trace")
  common=(-np "$np" -platform cluster.xml -hostfile hostfile --cfg=smpi/host-speed:1Gf -replay "$trace")
  # Every line of the replay's log but the configuration echo (which names the settings).
  replay() { smpirun "$@" 2>&1 | grep -v "xbt_cfg/INFO"; }
  replay "${common[@]}" "${log[@]}" > simgrid.out
  replay -no-privatize "${common[@]}" "${log[@]}" > simgrid-noprivatize.out
  replay -wrapper "env LD_PRELOAD=$suite" "${common[@]}" "$replayer" "${log[@]}" > suite.out
  replay -wrapper "env LD_PRELOAD=$suite" -no-privatize "${common[@]}" "$replayer" "${log[@]}" > suite-noprivatize.out
  replay "${common[@]}" "$replayer" "${log[@]}" > replayer-alone.out
  actions=$(grep -c "smpi_replay/VERBOSE" simgrid.out || true)
  [ "$actions" -gt $((np * 10)) ] || { echo "FAIL: $trace: only $actions actions logged"; cat simgrid.out; exit 1; }
  grep -q "Simulation time" simgrid.out || { echo "FAIL: $trace: no simulation time"; exit 1; }
  for other in simgrid-noprivatize suite suite-noprivatize replayer-alone; do
    cmp -s simgrid.out "$other.out" || { echo "FAIL: $trace: $other differs from SimGrid alone:"; diff simgrid.out "$other.out" | head; exit 1; }
  done
  echo "$trace: $actions actions, identical in 5 ways ($(grep -o 'Simulation time.*' simgrid.out))"
done

# haec run replays through our replayer, without privatization, and sees every action.
"$build/bin/haec" run --platform torus:4x2x2 --link dor --messages --replay lu/lu.txt --out haec -q
grep -q -- "-replay [^ ]*lu.txt [^ ]*/lib/haec-replay" haec/command.txt || { echo "FAIL: haec run does not use haec-replay"; cat haec/command.txt; exit 1; }
grep -q -- "--cfg=smpi/privatization:no" haec/command.txt || { echo "FAIL: haec run replays with privatization"; exit 1; }
/usr/bin/python3 - <<'PY'
import json
a = json.load(open("haec/summary.json"))
assert a["messages"] > 0 and a["checks"]["messages_sent_equals_received"]["result"] == "passed", a
print(f"haec run --link dor: makespan {a['makespan_s']!r} s, {a['messages']} transfers")
PY

# The suite recording a replay that SimGrid's replayer runs: refused at the end, one line, exit 2.
mkdir refused
set +e
smpirun -wrapper "env LD_PRELOAD=$suite" -np 16 -platform cluster.xml -hostfile hostfile --cfg=smpi/host-speed:1Gf \
  --cfg=haec/out:"$PWD/refused" -replay lu/lu.txt > refused.out 2> refused.err
status=$?
set -e
[ "$status" -eq 2 ] || { echo "FAIL: a recording run through smpireplaymain exited $status, not 2"; tail -3 refused.err; exit 1; }
grep -q "haec: smpi/replay: the trace was replayed by SimGrid's replayer" refused.err || { echo "FAIL: no refusal line"; tail -3 refused.err; exit 1; }
[ ! -e refused/summary.json ] || { echo "FAIL: the refused run wrote results"; exit 1; }
echo "SimGrid's replayer with the suite recording: refused (exit 2)"

# A collective algorithm chosen by the user (here the allreduce) changes the makespan: the run says
# so in summary.json and on the console, replays it alike twice, and without a choice says nothing.
"$build/bin/haec" run --platform torus:4x2x2 --link dor --replay lu/lu.txt --out rdb --cfg smpi/allreduce:rdb > rdb.out
"$build/bin/haec" run --platform torus:4x2x2 --link dor --replay lu/lu.txt --out rdb-again -q --cfg smpi/allreduce:rdb
grep -q "^collective algorithms *allreduce rdb" rdb.out || { echo "FAIL: the allreduce choice is not shown"; exit 1; }
/usr/bin/python3 - <<'PY'
import json
default, rdb, ref = (json.load(open(d + "/summary.json")) for d in ("haec", "rdb", "rdb-again"))
assert "collective_algorithms" not in default, default
assert rdb["collective_algorithms"] == {"allreduce": "rdb"} == ref["collective_algorithms"], rdb
assert rdb["makespan_s"] == ref["makespan_s"] and rdb["makespan_s"] != default["makespan_s"], (rdb, ref, default)
print(f"allreduce rdb: makespan {rdb['makespan_s']!r} s (default {default['makespan_s']!r} s), stated in summary.json")
PY
