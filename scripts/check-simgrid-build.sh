#!/usr/bin/env bash
# Checks a SimGrid 3.32 library built by scripts/build-simgrid.sh against Debian's: the same
# replays must give the same output, byte for byte, with every action of every rank logged with its
# simulated time (--log=smpi_replay.thresh:verbose) and the final simulated time.
#   scripts/check-simgrid-build.sh PREFIX [SIMGRID_SOURCE_DIR]
# Replays: SimGrid's own replay examples (examples/smpi/replay/actions*.txt on small_platform.xml,
# when the source is given), and the LU-like trace of bench/scale (64 ranks on an XML cluster,
# 256 ranks on an XML torus) with and without privatization and with the settings haec run gives
# SimGrid when a link model is active. Also: the patched library exports every symbol Debian's
# does, except ns-3's (not built). Prints one line per comparison; the last line is the summary.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$(cd "${1:?usage: check-simgrid-build.sh PREFIX [SIMGRID_SOURCE_DIR]}" && pwd)"
src="${2:-}"
stock=/usr/lib/x86_64-linux-gnu/libsimgrid.so.3.32
[ -f "$prefix/lib/libsimgrid.so.3.32" ] || { echo "check-simgrid-build: $prefix/lib/libsimgrid.so.3.32 missing" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
checked=0
failed=0

# $1 = name; the rest: smpirun arguments. Runs them with both libraries and compares the output.
compare() {
  local name="$1"; shift
  # The configuration echo names temporary files: left out.
  smpirun "$@" --log=smpi_replay.thresh:verbose --log=no_loc > "$work/debian.all" 2>&1 \
    || { echo "FAIL $name: Debian's library failed: $(tail -1 "$work/debian.all")"; failed=$((failed + 1)); return; }
  smpirun -wrapper "env LD_LIBRARY_PATH=$prefix/lib" "$@" --log=smpi_replay.thresh:verbose --log=no_loc \
    > "$work/patched.all" 2>&1 \
    || { echo "FAIL $name: the patched library failed: $(tail -1 "$work/patched.all")"; failed=$((failed + 1)); return; }
  grep -v "xbt_cfg/INFO" "$work/debian.all" > "$work/debian.out" || true
  grep -v "xbt_cfg/INFO" "$work/patched.all" > "$work/patched.out" || true
  local lines; lines=$(wc -l < "$work/debian.out")
  if cmp -s "$work/debian.out" "$work/patched.out" && grep -q "Simulation time" "$work/debian.out"; then
    echo "ok   $name: $lines lines identical ($(grep -o 'Simulation time [0-9.e+-]*' "$work/debian.out" | tail -1))"
    checked=$((checked + 1))
  else
    echo "FAIL $name: outputs differ: $(diff "$work/debian.out" "$work/patched.out" | sed -n 2p)"
    failed=$((failed + 1))
  fi
}

# The patched library must be the one loaded under the wrapper.
loaded=$(env LD_LIBRARY_PATH="$prefix/lib" ldd /usr/lib/x86_64-linux-gnu/simgrid/smpimain | awk '/libsimgrid/ { print $3 }')
[ "$loaded" = "$prefix/lib/libsimgrid.so.3.32" ] || { echo "FAIL smpimain loads $loaded, not the patched library"; exit 1; }

# Exported symbols: a drop-in replacement for applications linked against Debian's library. Not
# compared: ns-3's module (not built: names with ns3, its sink_from_sock) and instantiations of
# standard templates (std::..., typeinfo), which exist only where some code happens to use them.
nm -D --defined-only "$stock" | awk '{ print $NF }' | sort -u > "$work/stock.sym"
nm -D --defined-only "$prefix/lib/libsimgrid.so.3.32" | awk '{ print $NF }' | sort -u > "$work/patched.sym"
comm -23 "$work/stock.sym" "$work/patched.sym" | c++filt \
  | grep -v -i -E 'ns3|^sink_from_sock|^std::|^typeinfo (name )?for ' > "$work/missing.sym" || true
if [ ! -s "$work/missing.sym" ]; then
  echo "ok   exported symbols: all $(wc -l < "$work/stock.sym") of Debian's library (but ns-3's and std:: instantiations)"
  checked=$((checked + 1))
else
  echo "FAIL exported symbols: $(wc -l < "$work/missing.sym") of Debian's are missing, e.g. $(head -2 "$work/missing.sym" | tr '\n' ' ')"
  failed=$((failed + 1))
fi

# SimGrid's own replay examples.
if [ -n "$src" ] && [ -d "$src/examples/smpi/replay" ]; then
  # actions0.txt and actions1.txt are the two ranks of one trace (SimGrid's split_traces)
  printf '%s\n' "$src/examples/smpi/replay/actions0.txt" "$src/examples/smpi/replay/actions1.txt" > "$work/split.list"
  compare "simgrid example split_traces (2 ranks)" -no-privatize -np 2 --cfg=smpi/host-speed:1Gf \
    -platform "$src/examples/platforms/small_platform.xml" -hostfile "$src/examples/smpi/hostfile" -replay "$work/split.list"
  for t in "$src"/examples/smpi/replay/actions_*.txt; do # one file for all ranks: split per rank
    d="$work/$(basename "$t" .txt)"
    mkdir -p "$d"
    awk -v d="$d" 'NF > 0 && $1 ~ /^[0-9]+$/ { print > (d "/rank-" $1 ".txt") }' "$t"
    np=$(ls "$d" | wc -l)
    for ((r = 0; r < np; r++)); do echo "$d/rank-$r.txt"; done > "$d.list"
    compare "simgrid example $(basename "$t") ($np ranks)" -no-privatize -np "$np" --cfg=smpi/host-speed:1Gf \
      -platform "$src/examples/platforms/small_platform.xml" -hostfile "$src/examples/smpi/hostfile" -replay "$d.list"
  done
fi

# The LU-like trace of bench/scale.
/usr/bin/python3 "$here/bench/scale/gen_lu_trace.py" --ranks 64 --iterations 2 --out "$work/lu64" > /dev/null
/usr/bin/python3 "$here/bench/scale/gen_lu_trace.py" --ranks 256 --iterations 2 --out "$work/lu256" > /dev/null
cat > "$work/cluster.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-15" speed="1Gf" core="4" bw="1.25GBps" lat="1.5us" loopback_bw="100GBps" loopback_lat="10ns"/>
</platform>
XML
for ((i = 0; i < 16; i++)); do echo "h$i:4"; done > "$work/cluster.hosts"
cat > "$work/torus.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="t" prefix="node-" suffix="" radical="0-255" speed="1Gf" core="16" bw="9.375GBps" lat="1.27us"
           loopback_bw="100GBps" loopback_lat="10ns" topology="TORUS" topo_parameters="8,8,4"/>
</platform>
XML
for ((i = 0; i < 256; i++)); do echo "node-$i"; done > "$work/torus.hosts"
compare "lu-like 64 ranks, cluster" -np 64 -platform "$work/cluster.xml" -hostfile "$work/cluster.hosts" \
  --cfg=smpi/host-speed:1Gf -replay "$work/lu64/lu.txt"
compare "lu-like 64 ranks, cluster, no privatization" -no-privatize -np 64 -platform "$work/cluster.xml" \
  -hostfile "$work/cluster.hosts" --cfg=smpi/host-speed:1Gf -replay "$work/lu64/lu.txt"
compare "lu-like 256 ranks, torus, haec link-model settings" -no-privatize -np 256 -platform "$work/torus.xml" \
  -hostfile "$work/torus.hosts" --cfg=smpi/host-speed:1Gf --cfg=network/crosstraffic:0 --cfg=surf/precision:1e-13 \
  -replay "$work/lu256/lu.txt"

if [ "$failed" -eq 0 ]; then
  echo "checked against Debian's libsimgrid 3.32: $checked of $checked comparisons identical"
else
  echo "checked against Debian's libsimgrid 3.32: $failed of $((checked + failed)) comparisons FAILED"
  exit 1
fi
