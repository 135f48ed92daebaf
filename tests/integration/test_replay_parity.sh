#!/usr/bin/env bash
# Replay parity per plugin (issue: traces): a run emulated and recorded with `haec trace record`,
# then replayed with the same plugins, gives the same results.
#   - link model (dor) + power on a taurus cluster: makespan, every message's times, each host's
#     energy and busy time, total energy: equal (measured bit for bit; tolerance 1e-12 relative);
#   - DVFS governors on stencil_imbalance (deterministic flops): performance and ondemand give the
#     same makespan, energy and switch count (measured: bit for bit); mix the same makespan and
#     energy within 1e-3 relative (measured 5.5e-4: its task keys are MPI call sites in emulation
#     and replayed actions in replay, which may differ in how they tell two tasks apart);
#   - load balancing: makespan within 5 % and migrations within 20 % (measured 3.0 % and 55 vs 59:
#     iterations are detected from call sites in emulation and from actions in replay, so the
#     balancing windows can start an iteration apart).
source "$(dirname "$0")/common.sh"

"$haec" trace record --platform cluster:4,preset=taurus -np 8 --power --link dor --messages --out t/lu.txt \
  --keep-run em -- "$build/bin/lu_like" 3 > /dev/null
"$haec" run --platform cluster:4,preset=taurus --power --link dor --messages --replay t/lu.txt --out rep --quiet
$py - <<'PY'
import csv, json
a, b = json.load(open("em/summary.json")), json.load(open("rep/summary.json"))
def close(x, y): return abs(x - y) <= 1e-12 * max(abs(x), abs(y), 1e-300)
for k in ["makespan_s", "energy_j", "host_energy_j", "link_energy_j", "messages"]:
    assert close(a[k], b[k]), (k, a[k], b[k])
ha = {r["host"]: r for r in csv.DictReader(open("em/hosts.csv"))}
hb = {r["host"]: r for r in csv.DictReader(open("rep/hosts.csv"))}
assert ha.keys() == hb.keys()
for h in ha:
    for col in ["energy_j", "busy_s", "idle_s"]:
        assert close(float(ha[h][col]), float(hb[h][col])), (h, col, ha[h][col], hb[h][col])
ma = list(csv.DictReader(open("em/messages.csv"))); mb = list(csv.DictReader(open("rep/messages.csv")))
assert len(ma) == len(mb) > 100
key = lambda r: (float(r["start"]), r["src_rank"], r["dst_rank"])
for x, y in zip(sorted(ma, key=key), sorted(mb, key=key)):
    assert x["bytes"] == y["bytes"] and close(float(x["end"]), float(y["end"])), (x, y)
print("link + power parity: makespan %.9g s, energy %.9g J, %d messages" % (a["makespan_s"], a["energy_j"], len(ma)))
PY
P=cluster:8,preset=taurus-node
for g in performance ondemand mix; do
  "$haec" trace record --platform $P -np 8 --governor $g --out t/$g.txt --keep-run em-$g --quiet --cfg smpi/simulate-computation:no -- \
    "$build/bin/stencil_imbalance" --iters 30 > /dev/null
  "$haec" run --platform $P --replay t/$g.txt --governor $g --out rep-$g --quiet
done
for n in 0 1 2 3; do echo "node-$n:4"; done > hostfile
"$haec" trace record --platform cluster:4,preset=taurus-node -np 16 --hostfile hostfile --oversubscribe --balance greedy --every 5 \
  --out t/lb.txt --keep-run em-lb --quiet --cfg smpi/simulate-computation:no -- "$build/bin/stencil_imbalance" --iters 30 > /dev/null
"$haec" run --platform cluster:4,preset=taurus-node --hostfile hostfile --oversubscribe --replay t/lb.txt --balance greedy --every 5 \
  --out rep-lb --quiet
$py - <<'PY'
import json
def pair(name): return json.load(open("em-" + name + "/summary.json")), json.load(open("rep-" + name + "/summary.json"))
for g in ["performance", "ondemand"]:
    a, b = pair(g)
    assert a["makespan_s"] == b["makespan_s"] and a["energy_j"] == b["energy_j"], (g, a, b)
    assert a["pstate_switches"] == b["pstate_switches"], g
a, b = pair("mix")
assert abs(a["makespan_s"] / b["makespan_s"] - 1) <= 1e-3 and abs(a["energy_j"] / b["energy_j"] - 1) <= 1e-3, (a, b)
c, d = pair("lb")
assert abs(c["makespan_s"] / d["makespan_s"] - 1) <= 0.05, (c["makespan_s"], d["makespan_s"])
assert c["migrations"] > 0 and abs(c["migrations"] - d["migrations"]) <= 0.2 * c["migrations"], (c["migrations"], d["migrations"])
print("dvfs parity: mix energy %.2e relative; balancing makespan %.2e relative, migrations %d vs %d"
      % (abs(a["energy_j"] / b["energy_j"] - 1), abs(c["makespan_s"] / d["makespan_s"] - 1), c["migrations"], d["migrations"]))
PY
echo "replay parity ok"
