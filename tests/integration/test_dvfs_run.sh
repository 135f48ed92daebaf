#!/usr/bin/env bash
# DVFS governors in real SimGrid runs (plugins/dvfs/README.md), on one recorded trace of
# stencil_imbalance (8 ranks, 30 iterations, cluster:8,preset=taurus-node), and the defects of
# SimGrid 3.32's own DVFS plugin that ours must not have:
#   - performance replays to exactly the simulated time of a replay without the plugin (no
#     actor of ours shifts the rank numbering; SimGrid's daemons did, giving too-short times);
#   - one governor per host (SimGrid's XML host creation fires twice: two competing daemons);
#   - a sampling governor's timers never stretch the run (they are removed with the last rank);
#   - Adagio learns (SimGrid's never did: its iteration signals are emitted nowhere in 3.32);
#   - ondemand picks the proportional pstate (SimGrid's truncates the load: unit-tested);
#   - iterations are detected (iterations.csv) and the performance run reports the offline optimum;
#   - mix saves energy within +1 % makespan; the same run in emulation works too.
source "$(dirname "$0")/common.sh"
P=cluster:8,preset=taurus-node
"$haec" trace record --platform $P -np 8 --out t/s.txt --quiet --cfg smpi/simulate-computation:no -- "$build/bin/stencil_imbalance" --iters 30 > /dev/null
"$haec" run --platform $P --replay t/s.txt --power --out none --quiet
for g in performance ondemand adagio mix; do
  "$haec" run --platform $P --replay t/s.txt --governor $g --out $g --quiet
done
"$haec" run --platform $P --replay t/s.txt --governor ondemand --cfg haec/dvfs/period:1000 --out ondemand-never --quiet
$py - <<'PY'
import csv, json
s = {d: json.load(open(d + "/summary.json")) for d in ["none", "performance", "ondemand", "adagio", "mix", "ondemand-never"]}
T = s["none"]["makespan_s"]
assert s["performance"]["makespan_s"] == T, (s["performance"]["makespan_s"], T)
assert s["performance"]["energy_j"] == s["none"]["energy_j"]
assert s["performance"]["pstate_switches"] == 0
assert s["ondemand-never"]["makespan_s"] == T, "a pending sampling timer stretched the run"
for d in ["performance", "ondemand", "adagio", "mix"]:
    rows = list(csv.DictReader(open(d + "/dvfs.csv")))
    assert len(rows) == 8 and len({r["host"] for r in rows}) == 8, ("one governor per host", rows)
    assert s[d]["ranks"] == 8
    assert open(d + "/traffic_matrix.csv").read() == open("none/traffic_matrix.csv").read(), d
# Adagio learned: it switched and spent time below the fastest pstate.
h = list(csv.DictReader(open("adagio/hosts.csv")))
assert s["adagio"]["pstate_switches"] > 0 and sum(float(r["pstate11_s"]) for r in h) > 0
# Iterations: up to 30 per rank (the first few, until the detector locks, are the prologue).
it = list(csv.DictReader(open("performance/iterations.csv")))
per_rank = {}
for r in it:
    per_rank.setdefault(r["rank"], []).append(r)
assert len(per_rank) == 8
for rank, rows in per_rank.items():
    n = max(int(r["iteration"]) for r in rows)
    assert 24 <= n <= 30, (rank, n)  # the detector locks after a few repeats of the loop
    for a, b in zip(rows, rows[1:]):
        assert a["end"] == b["start"]
opt = s["performance"]["dvfs_optimum_saving_j"]
assert 0 < opt < 0.2 * s["performance"]["energy_j"], opt
mix_saving = s["performance"]["energy_j"] - s["mix"]["energy_j"]
assert mix_saving > 0 and s["mix"]["makespan_s"] <= 1.01 * T, (mix_saving, s["mix"]["makespan_s"], T)
print("dvfs: performance == no plugin (%.6f s); mix saves %.0f J (%.0f %% of the offline optimum %.0f J), makespan %+.2f %%"
      % (T, mix_saving, 100 * mix_saving / opt, opt, 100 * (s["mix"]["makespan_s"] / T - 1)))
PY
# Lagrange with a plan too large for lagrange_plan_max races, and says so (summary and console).
"$haec" run --platform $P --replay t/s.txt --governor lagrange --cfg haec/dvfs/params:lagrange_plan_max=8 \
  --out lagrange-big > lagrange-big.txt
grep -q "^governor  *lagrange (0 pstate switches, 0 coordinated plans); no plan: a plan would hold more computations than lagrange_plan_max" \
  lagrange-big.txt || { cat lagrange-big.txt; fail "no refusal line for too large a plan"; }
$py -c 'import json; a, b = (json.load(open(d + "/summary.json")) for d in ("lagrange-big", "performance"))
assert a["dvfs_plan_refused"] and "lagrange_plan_max" in a["dvfs_plan_refusal"], a
assert a["makespan_s"] == b["makespan_s"] and a["energy_j"] == b["energy_j"] and a["pstate_switches"] == 0, (a, b)'
# Emulation: the same governors on the live program (timings vary a little from run to run).
"$haec" run --platform $P -np 8 --governor mix --out emu --quiet --cfg smpi/simulate-computation:no -- "$build/bin/stencil_imbalance" --iters 10
$py -c 'import json; s = json.load(open("emu/summary.json")); assert s["governor"] == "mix" and s["iterations"] >= 5 and s["pstate_switches"] > 0, s'
echo "dvfs ok"
