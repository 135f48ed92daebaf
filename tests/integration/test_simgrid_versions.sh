#!/usr/bin/env bash
# The same runs on two SimGrid versions: this build and another build of the same source tree
# against another SimGrid version (the first build*/ directory beside it whose SimGrid version differs:
# scripts/build.sh makes build/, scripts/test-simgrid41.sh build-simgrid41/). Every result
# file and every summary.json figure must be the same, bit for bit, but the SimGrid's own
# description: makespans, energies, transfers, routes. Runs: replays of the LU-like trace of
# bench/scale (64 ranks) on a torus with DOR and power, with SMPI's own network model and no link
# model, on an XML cluster, and on a fat tree; an emulation of lu_like without measured computation
# (PNC). Also: each build runs its own SimGrid (haec --version), and the simulator loads that
# library. Skipped (exit 77) unless such a second build exists. Differences between the versions
# are explained in the SimGrid page of the manual (docs/guide/simgrid-versions.md).
source "$(dirname "$0")/common.sh"
default="$build" system=""
"$default/bin/haec" --version > default.version
mine=$(sed -n 2p default.version | cut -d' ' -f2)
for b in "$source_dir"/build*/; do
  b=${b%/}
  [ -x "$b/bin/haec" ] && [ "$(cd "$b" && pwd -P)" != "$(cd "$build" && pwd -P)" ] || continue
  [ "$("$b/bin/haec" --version | sed -n 2p | cut -d' ' -f2)" != "$mine" ] && { system="$b"; break; }
done
[ -n "$system" ] || { echo "no build against another SimGrid version than $mine beside $build (scripts/test-simgrid41.sh)"; exit 77; }
"$system/bin/haec" --version > system.version
echo "this build: $(sed -n 2p default.version)"; echo "the other: $(sed -n 2p system.version) ($system)"
/usr/bin/python3 "$source_dir/bench/scale/gen_lu_trace.py" --ranks 64 --iterations 2 --out lu > /dev/null
cat > cluster.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <cluster id="c" prefix="h" suffix="" radical="0-15" speed="1Gf" core="4" bw="1.25GBps" lat="1.5us"
             loopback_bw="100GBps" loopback_lat="10ns"/>
  </zone>
</platform>
XML
for ((i = 0; i < 16; i++)); do echo "h$i:4"; done > cluster.hosts

run_both() { # NAME haec-run-arguments... (@BUILD@: the build's directory): the run in each build, into NAME-default (this one) and NAME-system (the other)
  local name=$1; shift
  for side in default system; do
    local b="$default"; [ "$side" = system ] && b="$system"
    "$b/bin/haec" run --out "$name-$side" -q "${@//@BUILD@/$b}" || fail "$name: the run failed on the $side build"
  done
}
same() { # NAME [FILE...]: every result file and summary figure equal, but the SimGrid's description;
  # the FILEs named equal to a relative 1e-12 in each number (the SimGrid page says why)
  local name=$1; shift
  for f in "$name-default"/*.csv; do
    local base; base=$(basename "$f")
    cmp -s "$f" "$name-system/$base" && continue
    [[ " $* " == *" $base "* ]] || fail "$name: $base differs between SimGrid $mine and the other"
    /usr/bin/python3 - "$f" "$name-system/$base" <<'PY' || fail "$name: $base differs by more than 1e-12 between the SimGrids"
import csv, math, sys
a, b = (list(csv.reader(open(f))) for f in sys.argv[1:3])
assert len(a) == len(b), "rows"
for ra, rb in zip(a, b):
    assert len(ra) == len(rb), (ra, rb)
    for x, y in zip(ra, rb):
        if x == y:
            continue
        fx, fy = float(x), float(y)  # only numbers may differ
        assert math.isclose(fx, fy, rel_tol=1e-12), (ra, rb)
print(f"  {sys.argv[1]}: equal to 1e-12 (not bit for bit)")
PY
  done
  /usr/bin/python3 - "$name-default" "$name-system" <<'PY' || fail "$name: summary.json differs"
import json, sys
a, b = (json.load(open(f"{d}/summary.json")) for d in sys.argv[1:3])
for k in ("simgrid_library", "simgrid_version"):
    assert a.pop(k) != b.pop(k), k
a.pop("program", None), b.pop("program", None)  # each build runs its own copy of the program
diff = [k for k in a if a[k] != b.get(k)]
assert not diff, [(k, a[k], b.get(k)) for k in diff]
energy = f", energy {a['energy_j']} J" if "energy_j" in a else ""
print(f"  {sys.argv[1][:-8]}: identical, makespan {a['makespan_s']!r} s{energy}, {a['messages']} transfers")
PY
}

run_both torus-dor-power --platform torus:4x4x4 --link dor --power --messages --replay lu/lu.txt
same torus-dor-power
run_both torus-smpi --platform torus:4x4x4 --messages --replay lu/lu.txt
same torus-smpi
run_both cluster --platform cluster.xml --hostfile cluster.hosts --messages --replay lu/lu.txt
same cluster
run_both fat-tree --platform 'fat-tree:2;4,4;1,2;1,1' --messages --replay lu/lu.txt --oversubscribe
same fat-tree regions.csv # a few regions' times differ in their last bits (the SimGrid page)
run_both emulation --platform torus:2x2x2 --link pnc --messages -np 16 --cfg smpi/simulate-computation:no \
  -- @BUILD@/bin/lu_like 3 # each build's own program (built by its SimGrid's smpicc)
same emulation

# Each simulator loads the library of its build's SimGrid (the dynamic loader says which file).
for side in default system; do
  lib=$(sed -n 's/.* in \([^,]*\),.*/\1/p' "$side.version" | head -1)
  cmd=$(sed "s#LD_PRELOAD=#LD_DEBUG=libs LD_PRELOAD=#; s#haec/out:[^ ']*#haec/out:$work/debug-$side#" torus-smpi-$side/command.txt)
  mkdir "debug-$side"
  eval "$cmd" > "debug-$side.log" 2>&1 || true
  loaded=$(grep -o "calling init: [^ ]*libsimgrid.so[^ ]*" "debug-$side.log" | head -1 | cut -d' ' -f3)
  case "$loaded" in "$lib"/*) echo "  $side: the simulator loaded $loaded";; *) fail "$side: the simulator loaded '$loaded', not its SimGrid's ($lib)";; esac
done
echo PASS
