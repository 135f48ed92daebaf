#!/usr/bin/env bash
# The float bounds of a performance run with peer-aware slack (plugins/dvfs/README.md,
# "Peer-aware slack"), on stencil_imbalance (ondes3d pattern, 16 ranks on
# cluster:16,preset=taurus-node, 30 iterations):
#   - the run writes dvfs_float_graph.json and the free-float bound, which is positive and below
#     the offline optimum's saving;
#   - scripts/dvfs_float_lp.py reproduces the run's makespan and energy from the graph (every
#     computation racing) within 1e-5, and its least energy at +0 % makespan saves at least what
#     the free-float bound and Lagrange (default, within 1e-5 of performance's makespan here) save.
# Measured: free float 812 J, LP at +0 % 4384 J (5.87 %), Lagrange 2612 J (3.50 %).
source "$(dirname "$0")/common.sh"
"$py" -c "import scipy.optimize" 2> /dev/null || { echo "SciPy missing for $py: skipped"; exit 77; }
P=cluster:16,preset=taurus-node
"$haec" trace record --platform $P -np 16 --out s/s.txt --quiet --cfg smpi/simulate-computation:no -- \
  "$build/bin/stencil_imbalance" --iters 30 --pattern ondes3d > /dev/null
"$haec" run --platform $P --replay s/s.txt --governor performance --cfg haec/dvfs/params:peer_float=1 --out perf --quiet
"$haec" run --platform $P --replay s/s.txt --governor lagrange --out lagrange --quiet
"$py" "$source_dir/scripts/dvfs_float_lp.py" perf --slack 0 > lp.txt
cat lp.txt
"$py" - <<'PY'
import json, re
s, l = json.load(open("perf/summary.json")), json.load(open("lagrange/summary.json"))
ff, opt = s["dvfs_optimum_free_float_saving_j"], s["dvfs_optimum_saving_j"]
assert 0 < ff < opt, (ff, opt)
text = open("lp.txt").read()
m = re.search(r"makespan ([0-9.]+) s \(run ([0-9.]+) s\), ([0-9.]+) J \(run ([0-9.]+) J\)", text)
T, run_T, E, run_E = map(float, m.groups())
assert abs(T / run_T - 1) < 1e-5 and abs(E / run_E - 1) < 1e-5, (T, run_T, E, run_E)
least = float(re.search(r"\| \+0\.00 % \| ([0-9.]+) \|", text).group(1))
lp_saving = E - least
lagrange_saving = s["energy_j"] - l["energy_j"]
# Lagrange's lookahead counts on iterations after the run's last one: its last plans may end a
# few microseconds later (measured +7.4e-7 here).
assert l["makespan_s"] <= s["makespan_s"] * (1 + 1e-5), ("lagrange longer here", l["makespan_s"])
assert lp_saving >= max(ff, lagrange_saving), (lp_saving, ff, lagrange_saving)
print("free float %.0f J, LP at +0 %% %.0f J, lagrange %.0f J" % (ff, lp_saving, lagrange_saving))
PY
echo "dvfs float lp ok"
