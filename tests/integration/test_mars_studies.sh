#!/usr/bin/env bash
# scripts/mars_studies.py --small (16 ranks): both tables have their shape (every app x placement x
# reduce, every app x routes x policy), their figures are those of the runs' own files
# (summary.json, links.csv), and they show what MARS reports of the fat tree (seed 003 §3.2):
# random placement sends more of the bytes up to the top level than sequential placement, and
# reducing the upper levels' bandwidth never speeds a run up.
source "$(dirname "$0")/common.sh"
/usr/bin/python3 "$source_dir/scripts/mars_studies.py" "$build" "$work/out" --small > "$work/log" 2>&1 ||
  { echo "FAIL: the study script failed"; tail -20 "$work/log"; exit 1; }
[ -s "$work/out/tables.md" ] || { echo "FAIL: no tables.md"; exit 1; }

/usr/bin/python3 - "$work/out" <<'PY'
import csv, json, os, sys
out = sys.argv[1]
ft = list(csv.DictReader(open(f"{out}/fat_tree.csv")))
ind = list(csv.DictReader(open(f"{out}/indirect.csv")))
assert len(ft) == 2 * 2 * 4 and len(ft[0]) == 8, (len(ft), ft[0].keys())
assert len(ind) == 2 * (4 + 3 * 4 + 1) and len(ind[0]) == 7, (len(ind), ind[0].keys())
assert {(r["app"], r["placement"], r["reduce %"]) for r in ft} == \
    {(a, p, r) for a in ("lu_like", "stencil") for p in ("sequential", "random") for r in ("0", "25", "50", "75")}

# One value of each table against the run it came from.
row = next(r for r in ft if r["app"] == "stencil" and r["placement"] == "random" and r["reduce %"] == "75")
summary = json.load(open(f"{out}/runs/fat-stencil-random-75/summary.json"))
assert float(row["makespan s"]) == summary["makespan_s"], (row, summary["makespan_s"])
row = next(r for r in ind if r["app"] == "lu_like" and r["routes"] == "+2" and r["policy"] == "random")
run = f"{out}/runs/ind-lu_like-2-random"
summary = json.load(open(f"{run}/summary.json"))
assert float(row["makespan s"]) == summary["makespan_s"]
assert summary["routing"] == {"policy": "random", "seed": 1}, summary.get("routing")
l3 = max(float(r["bytes"]) for r in csv.DictReader(open(f"{run}/links.csv")) if r["type"] == "l3")
assert float(row["max l3 link bytes"]) == l3, (row, l3)

for app in ("lu_like", "stencil"):
    top = {p: float(next(r for r in ft if r["app"] == app and r["placement"] == p)["bytes to level 2 %"])
           for p in ("sequential", "random")}
    assert top["random"] > top["sequential"], (app, top)
    for p in ("sequential", "random"):
        times = [float(r["makespan s"]) for r in ft if r["app"] == app and r["placement"] == p]
        assert times == sorted(times), (app, p, times)
for r in ft:
    shares = float(r["bytes to level 1 %"]) + float(r["bytes to level 2 %"])
    assert abs(shares - 100) < 1e-9, r
print("mars studies: ok")
PY
echo "PASS"
