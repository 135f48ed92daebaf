#!/usr/bin/env python3
"""DVFS governor experiment (Heinrich 2019, §9.4.1; docs/MODELS.md §5).

16 ranks of apps/stencil_imbalance on 16 taurus-like nodes (one rank per node): the program runs
once under SMPI and is recorded as a time-independent trace; the trace is replayed with every
governor, so all of them see exactly the same workload, as in the thesis. Prints the table of
docs/MODELS.md §5 (governor, makespan, energy, saving %), each governor's saving as a fraction of the
offline optimum (computed by the DVFS plugin from the performance run), and the per-host idle
table for performance and for the best governor. Writes everything to OUT (summary.md, table.csv).

  scripts/dvfs_experiment.py [--build build] [--out results/dvfs] [--iters 120] [--pattern ondes3d]
                             [--params "peer_slack=1;peer_float=1"]
With --params (haec/dvfs/params, given to every governor) containing peer_slack, peer_float or peer_chain,
the performance run also reports the free-float bound (plugins/dvfs/README.md).
"""
import argparse
import csv
import json
import os
import subprocess

from experiment_common import fresh_directory, idle_table, programs, run, write_summary

GOVERNORS = ["performance", "powersave", "ondemand", "conservative", "adagio", "adagio-improved", "lagrange", "mix"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="results/dvfs")
    ap.add_argument("--ranks", type=int, default=16)
    ap.add_argument("--iters", type=int, default=120)
    ap.add_argument("--pattern", default="ondes3d")
    ap.add_argument("--preset", default="taurus-node", help="taurus-node: a rank is a whole node at full power (default); taurus: one core of 12")
    ap.add_argument("--app-args", default="", help="extra arguments for stencil_imbalance")
    ap.add_argument("--governors", default=",".join(GOVERNORS))
    ap.add_argument("--params", default="", help="haec/dvfs/params for every governor, e.g. 'lagrange_memory=16'")
    ap.add_argument("--force", action="store_true")
    args = ap.parse_args()

    haec, app = programs(args.build)
    out = fresh_directory(args.out, args.force, "dvfs_experiment")
    platform = f"cluster:{args.ranks},preset={args.preset}"

    # 1. Record the workload once.
    trace = os.path.join(out, "trace", "stencil.txt")
    app_cmd = [app, "--iters", str(args.iters), "--pattern", args.pattern] + args.app_args.split()
    # smpi/simulate-computation:no: only the app's injected flops cost time (apps/cost_injection.h).
    run([haec, "trace", "record", "--platform", platform, "-np", str(args.ranks), "--out", trace, "--quiet",
         "--cfg", "smpi/simulate-computation:no", "--"] + app_cmd, stdout=subprocess.DEVNULL)

    # 2. Replay it with every governor.
    rows = {}
    for g in args.governors.split(","):
        d = os.path.join(out, g)
        params = ["--cfg", "haec/dvfs/params:" + args.params] if args.params else []
        run([haec, "run", "--platform", platform, "--replay", trace, "--governor", g, "--out", d, "--quiet"] + params)
        s = json.load(open(os.path.join(d, "summary.json")))
        hosts = list(csv.DictReader(open(os.path.join(d, "hosts.csv"))))
        rows[g] = {"makespan": s["makespan_s"], "energy": s["energy_j"], "switches": s.get("pstate_switches", 0),
                   "summary": s, "hosts": hosts}
    base = rows["performance"]
    opt_saving = base["summary"].get("dvfs_optimum_saving_j")
    single_saving = base["summary"].get("dvfs_optimum_single_saving_j")
    free_float = base["summary"].get("dvfs_optimum_free_float_saving_j")

    lines = []
    lines.append(f"# DVFS governors: stencil_imbalance ({args.pattern}), {args.ranks} ranks on {platform}, "
                 f"{args.iters} iterations, one recorded trace"
                 + (f", haec/dvfs/params {args.params}" if args.params else "") + "\n")
    lines.append("| governor | makespan (s) | makespan % | energy (J) | saving % | of optimum's saving | switches |")
    lines.append("|---|---|---|---|---|---|---|")
    table = []
    for g, r in rows.items():
        dm = 100 * (r["makespan"] / base["makespan"] - 1)
        saving = base["energy"] - r["energy"]
        sp = 100 * saving / base["energy"]
        of_opt = f"{100 * saving / opt_saving:.1f} %" if opt_saving else "-"
        lines.append(f"| {g} | {r['makespan']:.6f} | {dm:+.2f} | {r['energy']:.2f} | {sp:+.2f} | {of_opt} | {r['switches']} |")
        table.append([g, r["makespan"], dm, r["energy"], sp, (saving / opt_saving) if opt_saving else "", r["switches"]])
    if opt_saving:
        lines.append("")
        lines.append(f"Offline optimum (from the performance run, per host and iteration, two-pstate mixes): "
                     f"saving {opt_saving:.2f} J = {100 * opt_saving / base['energy']:.2f} % "
                     f"(one pstate per iteration: {single_saving:.2f} J).")
    if free_float is not None:
        of_opt = f" = {100 * free_float / opt_saving:.1f} % of the optimum's" if opt_saving else ""
        lines.append(f"Free-float bound (each computation stretched only into its free float, moving no other event): "
                     f"saving {free_float:.2f} J = {100 * free_float / base['energy']:.2f} %{of_opt}.")
    candidates = [g for g in rows if g != "performance" and rows[g]["makespan"] <= base["makespan"] * 1.01]
    best = min(candidates, key=lambda g: rows[g]["energy"]) if candidates else "performance"
    for g in ["performance", best]:
        lines += idle_table(g, rows[g]["hosts"], 6)
    write_summary(out, lines, ["governor", "makespan_s", "makespan_pct", "energy_j", "saving_pct",
                               "fraction_of_optimum", "switches"], table)


if __name__ == "__main__":
    main()
