#!/usr/bin/env bash
# Whole-run benchmark: wall time of one TI replay with and without the suite, measured in the
# same run, reported as a ratio (best of N each, alternating to share the machine's noise), and
# with CALLGRIND=1 the instructions executed (valgrind counts them repeatably even on a busy machine).
#   [CALLGRIND=1] bench/whole_run_replay.sh BUILD_DIR [RANKS=64] [ITERATIONS=20] [REPEATS=5]
set -euo pipefail
build="$(cd "${1:-build}" && pwd)"
ranks="${2:-64}"
iterations="${3:-20}"
repeats="${4:-5}"
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
now() { date +%s.%N; }
best_plain=1e9; best_suite=1e9
for ((r = 0; r < repeats; r++)); do
  t0=$(now); smpirun "${common[@]}" > /dev/null 2>&1; t1=$(now)
  rm -rf out && mkdir out
  smpirun -wrapper "env LD_PRELOAD=$build/lib/libhaec_suite.so" --cfg=haec/out:out --cfg=haec/link/model:dor \
    --cfg=network/crosstraffic:0 --cfg=surf/precision:1e-13 "${common[@]}" > /dev/null 2>&1; t2=$(now)
  best_plain=$(echo "$t1 - $t0" | bc -l | awk -v b="$best_plain" '{print ($1 < b) ? $1 : b}')
  best_suite=$(echo "$t2 - $t1" | bc -l | awk -v b="$best_suite" '{print ($1 < b) ? $1 : b}')
done
messages=$(/usr/bin/python3 -c 'import json; print(json.load(open("out/summary.json"))["messages"])')
printf 'replay of lu_like %d ranks x %d iterations (%s transfers), best of %d:\n' "$ranks" "$iterations" "$messages" "$repeats"
printf '  plain smpirun        %.3f s\n  with suite + DOR     %.3f s\n  ratio                %.3f\n' \
  "$best_plain" "$best_suite" "$(echo "$best_suite / $best_plain" | bc -l)"

if [ "${CALLGRIND:-0}" = 1 ]; then
  smpirun -wrapper "valgrind --tool=callgrind --callgrind-out-file=cg.plain" "${common[@]}" > /dev/null 2>&1
  smpirun -wrapper "env LD_PRELOAD=$build/lib/libhaec_suite.so valgrind --tool=callgrind --callgrind-out-file=cg.suite" \
    --cfg=haec/out:out --cfg=haec/link/model:dor --cfg=network/crosstraffic:0 --cfg=surf/precision:1e-13 \
    "${common[@]}" > /dev/null 2>&1
  plain_ir=$(grep -h "^summary" cg.plain | awk '{print $2}')
  suite_ir=$(grep -h "^summary" cg.suite | awk '{print $2}')
  printf '  instructions: plain %s, with suite + DOR %s, ratio %.4f\n' "$plain_ir" "$suite_ir" \
    "$(echo "$suite_ir / $plain_ir" | bc -l)"
fi
