#!/usr/bin/env bash
# Energy on every generated platform kind (docs/MODELS.md §4.1): `--power` on haec-box,
# torus and mesh prices every host with its kind's default node profile (no host at 0 J, each
# between its idle and all-cores power over the run), and `--governor ondemand` on a HAEC box has
# pstates to switch between. The refusals on hosts without a profile are bad-input cases.
source "$(dirname "$0")/common.sh"
app=("$build/bin/stencil_imbalance" --iters 10)
run() { "$haec" run -np 8 --quiet --cfg smpi/simulate-computation:no "$@" -- "${app[@]}"; }
run --platform haec-box:2x2x2 --power --out box
run --platform torus:2x2x2 --power --out torus
run --platform mesh:2x2x2 --power --out mesh
run --platform haec-box:2x2x2 --governor performance --out box-perf
run --platform haec-box:2x2x2 --governor ondemand --out box-ondemand
"$py" - <<'PY'
import csv, json
# pstate 0 idle and all-cores watts of each kind's default node (MODELS.md §4.1 table).
bounds = {"box": (46.375, 98.0554545), "torus": (92.75, 196.1109091), "mesh": (92.75, 196.1109091)}
for d, (idle, busy) in bounds.items():
    s = json.load(open(d + "/summary.json"))
    T, E = s["makespan_s"], s["host_energy_j"]
    rows = list(csv.DictReader(open(d + "/hosts.csv")))
    assert len(rows) == 8, (d, rows)
    for r in rows:
        e = float(r["energy_j"])
        assert idle * T * (1 - 1e-12) <= e <= busy * T * (1 + 1e-12), (d, r["host"], e, idle * T, busy * T)
    assert E > 0 and abs(E - sum(float(r["energy_j"]) for r in rows)) <= 1e-9 * E, (d, E)
    print(f"{d}: makespan {T:.6f} s, host energy {E:.6f} J, mean {E / T / 8:.3f} W per host, link energy {s['link_energy_j']} J")
perf = json.load(open("box-perf/summary.json"))
od = json.load(open("box-ondemand/summary.json"))
assert perf["pstate_switches"] == 0, perf["pstate_switches"]
assert od["pstate_switches"] > 0, "ondemand made no pstate switch on a HAEC box"
rows = list(csv.DictReader(open("box-ondemand/hosts.csv")))
below = sum(float(r[k]) for r in rows for k in r if k.startswith("pstate") and k != "pstate0_s")
assert below > 0, "no host ran below pstate 0"
print(f"haec-box ondemand: {od['pstate_switches']} switches, {below:.6f} host-s below pstate 0, "
      f"makespan {od['makespan_s']:.6f} s vs {perf['makespan_s']:.6f} s, host energy {od['host_energy_j']:.6f} J vs {perf['host_energy_j']:.6f} J")
PY
echo "power on every platform kind: ok"
