#!/usr/bin/env bash
# Campaign benchmark: a 32-run campaign (replay of a 16-rank lu_like trace on taurus clusters of
# 2 to 16 nodes x 8 seeds of the random mapping), as whole processes, in alternated pairs:
#   A = the same 32 `haec run` commands one after another (the sequence a user would script),
#   B = `haec campaign run --jobs JOBS` (default: the number of cores),
#   C = `haec campaign run --jobs 1` (what the campaign machinery itself adds: (C - A) / 32 per run).
# Prints the median wall and CPU time of each and the speed-up A / B.
# The trace: lu_like recorded here with ITERATIONS iterations (40: runs of about 0.9 s here), or
# with ITERATIONS=0 the 5-iteration trace shipped with examples/campaigns (runs of about 0.2 s, where
# starting processes and loading SimGrid is most of a run).
#   bench/campaign_parallel.sh BUILD_DIR [PAIRS=5] [JOBS=nproc] [ITERATIONS=40]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/timing.sh" # measure, median, col
build="$(cd "${1:-build}" && pwd)"
pairs="${2:-5}"
jobs="${3:-$(nproc)}"
iterations="${4:-40}"
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
haec="$build/bin/haec"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
if [ "$iterations" = 0 ]; then
  cp -r "$source_dir/examples/campaigns/lu_like16" .
else
  "$haec" trace record --platform cluster:4,preset=taurus -np 16 --out lu_like16/trace.txt -- \
    "$build/bin/lu_like" "$iterations" 8 --mode flops > /dev/null
fi
cat > bench.json <<'JSON'
{
  "trace": "lu_like16/trace.txt",
  "run": {"power": true, "map": "random"},
  "axes": {"platform": ["cluster:2,preset=taurus", "cluster:4,preset=taurus", "cluster:8,preset=taurus",
                        "cluster:16,preset=taurus"],
           "seed": [1, 2, 3, 4, 5, 6, 7, 8]}
}
JSON
# The 32 commands, exactly as the campaign runs them (from its campaign.json), into seq/.
"$haec" campaign run bench.json --out probe --jobs "$jobs" > /dev/null 2>&1
/usr/bin/python3 - > sequence.sh <<'PY'
import json
for r in json.load(open("probe/campaign.json"))["runs"]:
    print("(cd lu_like16 && " + r["command"].replace("/probe/runs/", "/seq/runs/") + ")")
PY
[ "$(grep -c '' sequence.sh)" -eq 32 ] || { echo "FAIL: expected 32 runs"; exit 1; }
sequence() { rm -rf seq && mkdir -p seq/runs && bash sequence.sh; }
campaign() { rm -rf camp && "$haec" campaign run bench.json --out camp --jobs "$1"; }
for ((p = 0; p < pairs; p++)); do
  measure sequence sequence
  measure campaign-jobs-$jobs campaign "$jobs"
  measure campaign-jobs-1 campaign 1
done
[ "$(grep -c ',done,' camp/results.csv)" -eq 32 ] || { echo "FAIL: the campaign did not finish 32 runs"; exit 1; }
printf '32 runs (lu_like replay, 16 ranks, %s iterations), median of %d alternated rounds, %d cores:\n' \
  "$([ "$iterations" = 0 ] && echo 5 || echo "$iterations")" "$pairs" "$(nproc)"
for n in sequence campaign-jobs-$jobs campaign-jobs-1; do
  printf '  %-22s wall %.3f s  CPU %.3f s\n' "$n" "$(col $n 1)" "$(col $n 2)"
done
printf '  speed-up sequence / campaign --jobs %d: wall %.3f\n' "$jobs" \
  "$(echo "$(col sequence 1) / $(col campaign-jobs-$jobs 1)" | bc -l)"
printf '  campaign machinery per run (--jobs 1 minus sequence, / 32): wall %.3f s  CPU %.3f s\n' \
  "$(echo "($(col campaign-jobs-1 1) - $(col sequence 1)) / 32" | bc -l)" \
  "$(echo "($(col campaign-jobs-1 2) - $(col sequence 2)) / 32" | bc -l)"
