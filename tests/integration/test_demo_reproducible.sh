#!/usr/bin/env bash
# The demonstration gives every user the same table: two recordings of lu_like (counted flops,
# smpi/simulate-computation:no), the second with another smpi/host-speed, give byte-identical
# traces, the same makespan in each of the six replays' summary.json, and the same table.
source "$(dirname "$0")/common.sh"
for run in 1 2; do
  speed=$([ "$run" = 1 ] && echo 1Gf || echo 3.7Gf)
  /usr/bin/python3 "$source_dir/scripts/demo_ciorba2014.py" --build "$build" --out "$work/demo$run" --iterations 3 \
    --host-speed "$speed" > "$work/log$run" 2>&1 || { tail -20 "$work/log$run"; exit 1; }
done
# The traces hold compute actions of counted flops only: identical rank by rank (SMPI names the
# per-rank files with a unique prefix, so they are matched by their rank suffix).
/usr/bin/python3 - "$work/demo1/record/trace/lu_like.txt_files" "$work/demo2/record/trace/lu_like.txt_files" <<'PY'
import os, re, sys
def ranks(d):
    return {re.search(r"rank-(\d+)\.txt$", f).group(1): open(os.path.join(d, f)).read() for f in os.listdir(d)}
a, b = ranks(sys.argv[1]), ranks(sys.argv[2])
assert len(a) == 81 and a.keys() == b.keys(), (len(a), len(b))
differ = [r for r in a if a[r] != b[r]]
assert not differ, f"FAIL: the two recordings differ for ranks {differ[:5]}"
computes = sum(t.count(" compute ") for t in a.values())
assert computes > 0, "FAIL: the recording holds no compute action (flops not charged)"
print(f"identical recordings: 81 ranks, {computes} compute actions")
PY
for dir in "$work"/demo1/*-dor "$work"/demo1/*-pnc; do
  name=$(basename "$dir")
  m1=$(/usr/bin/python3 -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["makespan_s"]))' "$dir/summary.json")
  m2=$(/usr/bin/python3 -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["makespan_s"]))' "$work/demo2/$name/summary.json")
  [ "$m1" = "$m2" ] || { echo "FAIL: $name: makespan $m1 s, then $m2 s"; exit 1; }
  echo "identical: $name makespan $m1 s"
done
cmp "$work/demo1/demo_table.csv" "$work/demo2/demo_table.csv" || { diff "$work/demo1/demo_table.csv" "$work/demo2/demo_table.csv"; exit 1; }
cat "$work/demo1/demo_table.csv"
