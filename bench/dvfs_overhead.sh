#!/usr/bin/env bash
# Whole-run benchmark of the DVFS governors: CPU time (user + system, less sensitive than wall time
# to a busy machine) and wall time of a TI replay of stencil_imbalance with each governor, against
# the performance governor measured in the same run. Each round runs every governor once, in turn
# (so they share the machine's noise); the ratio printed is the median over the rounds of each
# round's ratio, the times the medians of the rounds.
#   bench/dvfs_overhead.sh BUILD_DIR [ITERATIONS=300] [ROUNDS=5] [RANKS=16[,256,...]]
# RANKS: one or more sizes, comma-separated; stencil_imbalance's default (ondes3d) on each.
set -euo pipefail
build="$(cd "${1:-build}" && pwd)"
iterations="${2:-300}"
rounds="${3:-5}"
sizes="${4:-16}"
haec="$build/bin/haec"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
# GOVERNOR or GOVERNOR:PARAMS (haec/dvfs/params): lagrange with its coordinated plan (the default)
# and with the local rules only.
governors=(performance ondemand conservative adagio adagio-improved lagrange lagrange:lagrange_plan=0 mix)

# One size: records the trace, runs the rounds, writes times.txt (round governor cpu wall).
measure() {
  local ranks=$1 platform=cluster:$1,preset=taurus-node
  "$haec" trace record --platform "$platform" -np "$ranks" --out "t$ranks/s.txt" --quiet \
    --cfg smpi/simulate-computation:no -- "$build/bin/stencil_imbalance" --iters "$iterations" > /dev/null
  : > "times-$ranks.txt"
  for ((r = 0; r < rounds; r++)); do
    for g in "${governors[@]}"; do
      rm -rf "out-$ranks-$g"
      local params=()
      [[ $g == *:* ]] && params=(--cfg "haec/dvfs/params:${g#*:}")
      /usr/bin/time -f "%U %S %e" -o cpu.txt "$haec" run --platform "$platform" --replay "t$ranks/s.txt" \
        --governor "${g%%:*}" "${params[@]}" --out "out-$ranks-$g" --quiet
      awk -v r="$r" -v g="$g" '{print r, g, $1 + $2, $3}' cpu.txt >> "times-$ranks.txt"
    done
  done
}

IFS=, read -r -a size_list <<< "$sizes"
for ranks in "${size_list[@]}"; do
  measure "$ranks"
  /usr/bin/python3 - "$ranks" "$iterations" "$rounds" "times-$ranks.txt" "${governors[@]}" << 'EOF'
import json, statistics, sys
ranks, iterations, rounds, times, governors = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
rows = {}
for line in open(times):
    r, g, cpu, wall = line.split()
    rows.setdefault(g, {})[int(r)] = (float(cpu), float(wall))
ref = rows["performance"]
print(f"replay of stencil_imbalance, {ranks} ranks x {iterations} iterations on cluster:{ranks},preset=taurus-node, "
      f"medians of {rounds} alternated rounds:")
for g in governors:
    cpu = statistics.median(c for c, _ in rows[g].values())
    wall = statistics.median(w for _, w in rows[g].values())
    cpu_ratio = statistics.median(rows[g][r][0] / ref[r][0] for r in rows[g])
    wall_ratio = statistics.median(rows[g][r][1] / ref[r][1] for r in rows[g])
    switches = json.load(open(f"out-{ranks}-{g}/summary.json"))["pstate_switches"]
    print(f"  {g:26} {cpu:8.3f} s CPU  ratio {cpu_ratio:.3f}   {wall:8.3f} s wall  ratio {wall_ratio:.3f}"
          f"  ({switches} pstate switches)")
EOF
done
