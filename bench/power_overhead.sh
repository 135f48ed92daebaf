#!/usr/bin/env bash
# Whole-run benchmark of the power plugin (issue: energy, target <= 3 %): wall time of one TI
# replay with the suite and --cfg=haec/power:yes against the same replay with the suite alone,
# measured in the same run (best of N each, alternating), plus the load changes per simulated
# second the replay drives through the plugin. CALLGRIND=1 adds instruction counts, which stay
# repeatable on a busy machine.
#   [CALLGRIND=1] bench/power_overhead.sh BUILD_DIR [RANKS=64] [ITERATIONS=40] [REPEATS=5]
set -euo pipefail
build="$(cd "${1:-build}" && pwd)"
ranks="${2:-64}"
iterations="${3:-40}"
repeats="${4:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
"$build/bin/haec" platform "cluster:$(( (ranks + 11) / 12 )),preset=taurus" --out plat.json > /dev/null
nodes=$(( (ranks + 11) / 12 ))
for ((i = 0; i < nodes; i++)); do echo "node-$i:12"; done > hostfile
mkdir trace
smpirun -np "$ranks" -platform "$build/lib/libhaec_suite.so" --cfg=haec/platform:plat.json \
  -hostfile hostfile -wrapper "env LD_PRELOAD=$build/lib/libhaec_suite.so" -trace-ti \
  --cfg=tracing/filename:trace/lu.txt --cfg=smpi/host-speed:1Gf "$build/bin/lu_like" "$iterations" > /dev/null 2>&1
common=(-np "$ranks" -platform "$build/lib/libhaec_suite.so" --cfg=haec/platform:plat.json
        -hostfile hostfile -wrapper "env LD_PRELOAD=$build/lib/libhaec_suite.so" -replay trace/lu.txt)
now() { date +%s.%N; }
best_base=1e9; best_power=1e9
for ((r = 0; r < repeats; r++)); do
  rm -rf base power && mkdir base power
  t0=$(now); smpirun "${common[@]}" --cfg=haec/out:base > /dev/null 2>&1; t1=$(now)
  smpirun "${common[@]}" --cfg=haec/out:power --cfg=haec/power:yes > /dev/null 2>&1; t2=$(now)
  best_base=$(echo "$t1 - $t0" | bc -l | awk -v b="$best_base" '{print ($1 < b) ? $1 : b}')
  best_power=$(echo "$t2 - $t1" | bc -l | awk -v b="$best_power" '{print ($1 < b) ? $1 : b}')
done
read -r changes makespan < <(/usr/bin/python3 -c '
import json; s = json.load(open("power/summary.json"))
print(s["power_change_points"], s["makespan_s"])')
printf 'replay of lu_like %d ranks x %d iterations on %d taurus nodes, best of %d:\n' "$ranks" "$iterations" "$nodes" "$repeats"
printf '  load changes         %d in %.6f simulated s (%.0f per simulated s)\n' "$changes" "$makespan" \
  "$(echo "$changes / $makespan" | bc -l)"
printf '  suite alone          %.3f s\n  suite + power        %.3f s\n  ratio                %.3f\n' \
  "$best_base" "$best_power" "$(echo "$best_power / $best_base" | bc -l)"

if [ "${CALLGRIND:-0}" = 1 ]; then
  rm -rf base power && mkdir base power
  smpirun -np "$ranks" -platform "$build/lib/libhaec_suite.so" --cfg=haec/platform:plat.json \
    -hostfile hostfile -wrapper "env LD_PRELOAD=$build/lib/libhaec_suite.so valgrind --tool=callgrind --callgrind-out-file=cg.base" \
    -replay trace/lu.txt --cfg=haec/out:base > /dev/null 2>&1
  smpirun -np "$ranks" -platform "$build/lib/libhaec_suite.so" --cfg=haec/platform:plat.json \
    -hostfile hostfile -wrapper "env LD_PRELOAD=$build/lib/libhaec_suite.so valgrind --tool=callgrind --callgrind-out-file=cg.power" \
    -replay trace/lu.txt --cfg=haec/out:power --cfg=haec/power:yes > /dev/null 2>&1
  base_ir=$(grep -h "^summary" cg.base | awk '{print $2}')
  power_ir=$(grep -h "^summary" cg.power | awk '{print $2}')
  printf '  instructions: suite %s, suite + power %s, ratio %.4f\n' "$base_ir" "$power_ir" \
    "$(echo "$power_ir / $base_ir" | bc -l)"
fi
