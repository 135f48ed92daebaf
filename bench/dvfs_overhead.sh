#!/usr/bin/env bash
# Whole-run benchmark of the DVFS governors (issue: DVFS, target <= 5 %): CPU time (user + system,
# less sensitive than wall time to a busy machine) of one long TI replay of stencil_imbalance with
# each governor, as a ratio against the performance governor measured in the same run (best of N
# each, governors interleaved to share the machine's noise).
#   bench/dvfs_overhead.sh BUILD_DIR [ITERATIONS=300] [REPEATS=3] [RANKS=16]
# RANKS above 16: the replay of stencil_imbalance's default (ondes3d) on that many ranks.
set -euo pipefail
build="$(cd "${1:-build}" && pwd)"
iterations="${2:-300}"
repeats="${3:-3}"
ranks="${4:-16}"
haec="$build/bin/haec"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
P=cluster:$ranks,preset=taurus-node
"$haec" trace record --platform $P -np "$ranks" --out t/s.txt --quiet --cfg smpi/simulate-computation:no -- "$build/bin/stencil_imbalance" --iters "$iterations" > /dev/null
# GOVERNOR or GOVERNOR:PARAMS (haec/dvfs/params): lagrange with its coordinated plan (the default)
# and with the local rules only.
governors=(performance ondemand conservative adagio adagio-improved lagrange lagrange:lagrange_plan=0 mix)
declare -A best
for g in "${governors[@]}"; do best[$g]=1e9; done
for ((r = 0; r < repeats; r++)); do
  for g in "${governors[@]}"; do
    rm -rf "out-$g"
    params=()
    [[ $g == *:* ]] && params=(--cfg "haec/dvfs/params:${g#*:}")
    /usr/bin/time -f "%U %S" -o cpu.txt "$haec" run --platform $P --replay t/s.txt --governor "${g%%:*}" "${params[@]}" \
      --out "out-$g" --quiet
    best[$g]=$(awk -v b="${best[$g]}" '{t = $1 + $2; print (t < b) ? t : b}' cpu.txt)
  done
done
printf 'replay of stencil_imbalance, %d ranks x %d iterations on %s, best of %d:\n' "$ranks" "$iterations" "$P" "$repeats"
for g in "${governors[@]}"; do
  printf '  %-26s %.3f s CPU  ratio %.3f  (%s pstate switches)\n' "$g" "${best[$g]}" \
    "$(echo "${best[$g]} / ${best[performance]}" | bc -l)" \
    "$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pstate_switches"])' "out-$g/summary.json")"
done
