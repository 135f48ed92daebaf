#!/usr/bin/env bash
# The suite's trace reader (core/replay_runner.cpp) replays exactly as SimGrid's own: every action
# of every rank logged with its simulated time (smpi_replay verbose) must be identical, byte for
# byte, with SimGrid alone, with the suite preloaded (its reader), and with the suite told to use
# SimGrid's reader (haec/replay/reader:simgrid); with and without privatization (haec run replays
# without). Traces: a hand-written one with point-to-point, non-blocking and collective actions,
# comments, blank lines, tabs, runs of spaces and a CRLF line; and the LU-like trace of bench/scale.
# Then haec run --link dor gives identical result files with either reader.
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
for trace in mixed.txt lu/lu.txt; do
  np=$(wc -l < "$trace")
  common=(-np "$np" -platform cluster.xml -hostfile hostfile --cfg=smpi/host-speed:1Gf -replay "$trace" "${log[@]}")
  # Every line of the replay's log but the configuration echo (which names the settings).
  replay() { smpirun "$@" "${common[@]}" 2>&1 | grep -v "xbt_cfg/INFO"; }
  replay > simgrid.out
  replay -no-privatize > simgrid-noprivatize.out
  replay -wrapper "env LD_PRELOAD=$suite" > suite.out
  replay -wrapper "env LD_PRELOAD=$suite" -no-privatize > suite-noprivatize.out
  replay -wrapper "env LD_PRELOAD=$suite" --cfg=haec/replay/reader:simgrid > suite-simgrid.out
  actions=$(grep -c "smpi_replay/VERBOSE" simgrid.out || true)
  [ "$actions" -gt $((np * 10)) ] || { echo "FAIL: $trace: only $actions actions logged"; cat simgrid.out; exit 1; }
  grep -q "Simulation time" simgrid.out || { echo "FAIL: $trace: no simulation time"; exit 1; }
  for other in simgrid-noprivatize suite suite-noprivatize suite-simgrid; do
    cmp -s simgrid.out "$other.out" || { echo "FAIL: $trace: $other differs from SimGrid alone:"; diff simgrid.out "$other.out" | head; exit 1; }
  done
  # The suite's runs did use the suite's reader (it says so at replay verbosity), and only them.
  smpirun -wrapper "env LD_PRELOAD=$suite" "${common[@]}" --log=replay.thresh:verbose > reader.log 2>&1
  grep -q "(haec reader)" reader.log || { echo "FAIL: $trace: the suite's reader was not used"; exit 1; }
  smpirun -wrapper "env LD_PRELOAD=$suite" --cfg=haec/replay/reader:simgrid "${common[@]}" --log=replay.thresh:verbose \
    > reader.log 2>&1
  ! grep -q "(haec reader)" reader.log || { echo "FAIL: $trace: haec/replay/reader:simgrid used the suite's reader"; exit 1; }
  echo "$trace: $actions actions, identical in 5 ways ($(grep -o 'Simulation time.*' simgrid.out))"
done

# haec run: the suite's reader and SimGrid's give the same result files.
"$build/bin/haec" run --platform torus:4x2x2 --link dor --messages --replay lu/lu.txt --out haec -q
"$build/bin/haec" run --platform torus:4x2x2 --link dor --messages --replay lu/lu.txt --out simgrid -q \
  --cfg haec/replay/reader:simgrid
for f in messages.csv msg_sizes.csv hops.csv traffic_matrix.csv; do
  cmp -s "haec/$f" "simgrid/$f" || { echo "FAIL: haec run: $f differs between the two readers"; exit 1; }
done
/usr/bin/python3 - <<'PY'
import json
a, b = json.load(open("haec/summary.json")), json.load(open("simgrid/summary.json"))
assert a["makespan_s"] == b["makespan_s"] and a["messages"] == b["messages"] and a["messages"] > 0, (a, b)
print(f"haec run --link dor: makespan {a['makespan_s']!r} s, {a['messages']} transfers with either reader")
PY
grep -q -- "--cfg=smpi/privatization:no" haec/command.txt || { echo "FAIL: haec run replays with privatization"; exit 1; }

# A collective algorithm chosen by the user (here the allreduce) changes the makespan: the run says
# so in summary.json and on the console, replays it alike with either reader, and without a choice
# says nothing.
"$build/bin/haec" run --platform torus:4x2x2 --link dor --replay lu/lu.txt --out rdb --cfg smpi/allreduce:rdb > rdb.out
"$build/bin/haec" run --platform torus:4x2x2 --link dor --replay lu/lu.txt --out rdb-simgrid -q \
  --cfg smpi/allreduce:rdb --cfg haec/replay/reader:simgrid
grep -q "^collective algorithms *allreduce rdb" rdb.out || { echo "FAIL: the allreduce choice is not shown"; exit 1; }
/usr/bin/python3 - <<'PY'
import json
default, rdb, ref = (json.load(open(d + "/summary.json")) for d in ("haec", "rdb", "rdb-simgrid"))
assert "collective_algorithms" not in default, default
assert rdb["collective_algorithms"] == {"allreduce": "rdb"} == ref["collective_algorithms"], rdb
assert rdb["makespan_s"] == ref["makespan_s"] and rdb["makespan_s"] != default["makespan_s"], (rdb, ref, default)
print(f"allreduce rdb: makespan {rdb['makespan_s']!r} s (default {default['makespan_s']!r} s), stated in summary.json")
PY
