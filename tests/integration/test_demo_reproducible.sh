#!/usr/bin/env bash
# The demonstration gives every user the same table: two recordings of lu_like (counted flops,
# smpi/simulate-computation:no), the second with another smpi/host-speed, give byte-identical
# traces, the same makespan in each of the six replays' summary.json, and the same table.
set -euo pipefail
build="$(cd "$1" && pwd)"
source_dir="$(cd "$2" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for run in 1 2; do
  speed=$([ "$run" = 1 ] && echo 1Gf || echo 3.7Gf)
  /usr/bin/python3 "$source_dir/scripts/demo_seed004.py" --build "$build" --out "$work/demo$run" --iterations 3 \
    --host-speed "$speed" > "$work/log$run" 2>&1 || { tail -20 "$work/log$run"; exit 1; }
done
# The traces hold compute actions of counted flops only: identical file by file.
diff -r "$work/demo1/record/trace" "$work/demo2/record/trace" > "$work/trace.diff" \
  || { echo "FAIL: the two recordings differ:"; head -6 "$work/trace.diff"; exit 1; }
grep -q " compute " "$work/demo1/record/trace/"*/* 2> /dev/null || grep -rq " compute " "$work/demo1/record/trace" \
  || { echo "FAIL: the recording holds no compute action (flops not charged)"; exit 1; }
for dir in "$work"/demo1/*-dor "$work"/demo1/*-pnc; do
  name=$(basename "$dir")
  m1=$(/usr/bin/python3 -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["makespan_s"]))' "$dir/summary.json")
  m2=$(/usr/bin/python3 -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["makespan_s"]))' "$work/demo2/$name/summary.json")
  [ "$m1" = "$m2" ] || { echo "FAIL: $name: makespan $m1 s, then $m2 s"; exit 1; }
  echo "identical: $name makespan $m1 s"
done
cmp "$work/demo1/demo_table.csv" "$work/demo2/demo_table.csv" || { diff "$work/demo1/demo_table.csv" "$work/demo2/demo_table.csv"; exit 1; }
cat "$work/demo1/demo_table.csv"
