#!/usr/bin/env bash
# Whole-run benchmark: the same TI replay of lu_like run as whole processes, in alternated pairs
# (A then B, PAIRS times, so both see the same machine noise), reported as the median wall time
# and the median CPU time (user + system, of the process and its children) of each side, and
# their ratios B / A.
#   A = plain smpirun (no suite), B = smpirun with the suite preloaded and the DOR model active;
#   with BASELINE_BUILD=DIR: A = the suite of that other build, B = the suite of BUILD, each run
#   twice per pair: through smpirun (the simulator alone) and through `haec run` (the whole command
#   a user types, its checks, staging and result files included).
# With CALLGRIND=1 also the instructions the simulator executes (repeatable on a busy machine).
#   [BASELINE_BUILD=DIR] [CALLGRIND=1] bench/whole_run_replay.sh BUILD_DIR [RANKS=64] [ITERATIONS=20] [PAIRS=5]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/timing.sh" # measure, median, col
build="$(cd "${1:-build}" && pwd)"
ranks="${2:-64}"
iterations="${3:-20}"
pairs="${4:-5}"
baseline="${BASELINE_BUILD:+$(cd "$BASELINE_BUILD" && pwd)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
nodes=$(( (ranks + 3) / 4 ))
cat > cluster.xml <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-$((nodes - 1))" speed="1Gf" core="4" bw="1.25GBps" lat="1.5us" loopback_bw="100GBps" loopback_lat="10ns"/>
</platform>
XML
for ((i = 0; i < nodes; i++)); do echo "h$i:4"; done > hostfile
mkdir trace
smpirun -np "$ranks" -platform cluster.xml -hostfile hostfile -trace-ti --cfg=tracing/filename:trace/lu.txt \
  --cfg=smpi/host-speed:1Gf "$build/bin/lu_like" "$iterations" > /dev/null 2>&1
common=(-np "$ranks" -platform cluster.xml -hostfile hostfile -replay trace/lu.txt)
dor=(--cfg=haec/link/model:dor --cfg=network/crosstraffic:0 --cfg=surf/precision:1e-13)

plain() { smpirun "${common[@]}"; }
suite() { # BUILD: the simulator with that build's suite preloaded, recording into out/
  rm -rf out && mkdir out
  smpirun -wrapper "env LD_PRELOAD=$1/lib/libhaec_suite.so" --cfg=haec/out:out "${dor[@]}" "${common[@]}"
}
haec_run() { # BUILD: the whole haec command
  rm -rf hout
  "$1/bin/haec" run --platform cluster.xml --hostfile hostfile --replay trace/lu.txt --link dor --out hout --quiet
}
report() { # A B: median wall and CPU of both, and the ratios B / A
  printf '  %-28s wall %.3f s  CPU %.3f s\n' "$1" "$(col "$1" 1)" "$(col "$1" 2)"
  printf '  %-28s wall %.3f s  CPU %.3f s\n' "$2" "$(col "$2" 1)" "$(col "$2" 2)"
  printf '  %-28s wall %.3f      CPU %.3f\n' "ratio" "$(echo "$(col "$2" 1) / $(col "$1" 1)" | bc -l)" \
    "$(echo "$(col "$2" 2) / $(col "$1" 2)" | bc -l)"
}

for ((p = 0; p < pairs; p++)); do
  if [ -z "$baseline" ]; then
    measure plain plain
    measure suite+DOR suite "$build"
  else
    measure baseline-smpirun suite "$baseline"
    measure build-smpirun suite "$build"
    measure baseline-haec-run haec_run "$baseline"
    measure build-haec-run haec_run "$build"
  fi
done
suite "$build" > /dev/null 2>&1
messages=$(/usr/bin/python3 -c 'import json; print(json.load(open("out/summary.json"))["messages"])')
printf 'replay of lu_like %d ranks x %d iterations (%s transfers), median of %d alternated pairs:\n' \
  "$ranks" "$iterations" "$messages" "$pairs"
if [ -z "$baseline" ]; then
  report plain suite+DOR
else
  echo " simulator (smpirun, suite preloaded, DOR), $baseline vs $build:"
  report baseline-smpirun build-smpirun
  echo " whole command (haec run --link dor):"
  report baseline-haec-run build-haec-run
fi

if [ "${CALLGRIND:-0}" = 1 ]; then
  a="${baseline:-}"
  if [ -z "$a" ]; then
    smpirun -wrapper "valgrind --tool=callgrind --callgrind-out-file=cg.a" "${common[@]}" > /dev/null 2>&1
  else
    smpirun -wrapper "env LD_PRELOAD=$a/lib/libhaec_suite.so valgrind --tool=callgrind --callgrind-out-file=cg.a" \
      --cfg=haec/out:out "${dor[@]}" "${common[@]}" > /dev/null 2>&1
  fi
  rm -rf out && mkdir out
  smpirun -wrapper "env LD_PRELOAD=$build/lib/libhaec_suite.so valgrind --tool=callgrind --callgrind-out-file=cg.b" \
    --cfg=haec/out:out "${dor[@]}" "${common[@]}" > /dev/null 2>&1
  a_ir=$(grep -h "^summary" cg.a | awk '{print $2}')
  b_ir=$(grep -h "^summary" cg.b | awk '{print $2}')
  printf '  instructions: %s %s, %s %s, ratio %.4f\n' "${baseline:+baseline}${baseline:-plain}" "$a_ir" \
    "suite" "$b_ir" "$(echo "$b_ir / $a_ir" | bc -l)"
fi
