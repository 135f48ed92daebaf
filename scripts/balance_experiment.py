#!/usr/bin/env python3
"""Load-balancing experiment (Heinrich 2019, Table 9.8; docs/MODELS.md §6).

64 ranks of apps/stencil_imbalance on 16 single-core taurus-node hosts (--preset taurus: 12-core
nodes), 4 consecutive ranks per node, recorded once, replayed without balancing and with GreedyLB and RefineLB every k
iterations; then the best balancing with the best governor (mix) on the residual imbalance.
Prints the table (strategy, k, makespan, energy, saving %, migrations) and the per-host idle
table of the baseline and of the best run; writes OUT/summary.md and OUT/table.csv.

  scripts/balance_experiment.py [--build build] [--out results/balance] [--iters 100] [--preset taurus]
"""
import argparse
import csv
import json
import os
import subprocess

from experiment_common import fresh_directory, idle_table, programs, run as common_run, write_summary


def run(cmd):
    common_run(cmd, stdout=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="results/balance")
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--nodes", type=int, default=16)
    ap.add_argument("--ranks", type=int, default=64)
    ap.add_argument("--periods", default="5,10,15,20,25,30")
    ap.add_argument("--strategies", default="greedy,refine")
    ap.add_argument("--pattern", default="ondes3d")
    ap.add_argument("--preset", default="taurus-node",
                    help="node preset: taurus-node (1 core, the thesis's setting) or taurus (12 cores)")
    ap.add_argument("--governors", default="conservative,ondemand,mix", help="'' for none")
    ap.add_argument("--force", action="store_true")
    args = ap.parse_args()

    haec, app = programs(args.build)
    out = fresh_directory(args.out, args.force, "balance_experiment")
    platform = f"cluster:{args.nodes},preset={args.preset}"
    per_node = args.ranks // args.nodes
    hostfile = os.path.join(out, "hostfile")
    with open(hostfile, "w") as f:
        for n in range(args.nodes):
            f.write(f"node-{n}:{per_node}\n")
    trace = os.path.join(out, "trace", "stencil.txt")
    # Several ranks share each single-core taurus-node host: the imbalance balancing corrects.
    run([haec, "trace", "record", "--platform", platform, "-np", str(args.ranks), "--hostfile", hostfile, "--oversubscribe",
         "--out", trace, "--quiet", "--cfg", "smpi/simulate-computation:no",  # only the injected flops cost time
         "--", app, "--iters", str(args.iters), "--pattern", args.pattern])

    common = ["--platform", platform, "--hostfile", hostfile, "--oversubscribe", "--replay", trace, "--power", "--quiet"]

    def replay(name, extra):
        d = os.path.join(out, name)
        run([haec, "run"] + common + extra + ["--out", d])
        s = json.load(open(os.path.join(d, "summary.json")))
        return {"name": name, "makespan": s["makespan_s"], "energy": s["energy_j"], "migrations": s.get("migrations", 0),
                "hosts": list(csv.DictReader(open(os.path.join(d, "hosts.csv"))))}

    base = replay("none", [])
    results = []
    for strategy in args.strategies.split(","):
        for k in [int(x) for x in args.periods.split(",")]:
            r = replay(f"{strategy}-{k}", ["--balance", strategy, "--every", str(k)])
            r.update(strategy=strategy, k=k)
            results.append(r)
    best = min(results, key=lambda r: r["energy"])
    # Balancing plus DVFS on the residual imbalance: every governor that can follow a host shared
    # by several ranks, the best one kept (least energy; makespan within +1 % of balancing alone
    # if any is).
    combos = []
    for g in [g for g in args.governors.split(",") if g]:
        c = replay(f"{best['strategy']}-{best['k']}-{g}",
                   ["--balance", best["strategy"], "--every", str(best["k"]), "--governor", g])
        c["governor"] = g
        combos.append(c)
    fit = [c for c in combos if c["makespan"] <= 1.01 * best["makespan"]] or combos
    combo = min(fit, key=lambda c: c["energy"]) if fit else None

    lines = [f"# Load balancing: stencil_imbalance ({args.pattern}), {args.ranks} ranks on {args.nodes} "
             f"{platform.split(',')[1]} nodes, {args.iters} iterations, one recorded trace\n",
             "| strategy | k | makespan (s) | makespan % | energy (J) | saving % | migrations |",
             "|---|---|---|---|---|---|---|",
             f"| none | - | {base['makespan']:.3f} | +0.00 | {base['energy']:.0f} | 0.00 | 0 |"]
    table = [["none", "", base["makespan"], 0, base["energy"], 0, 0]]
    for r in results + [dict(c, strategy=f"{best['strategy']} + {c['governor']}", k=best["k"]) for c in combos]:
        dm = 100 * (r["makespan"] / base["makespan"] - 1)
        de = 100 * (1 - r["energy"] / base["energy"])
        lines.append(f"| {r['strategy']} | {r['k']} | {r['makespan']:.3f} | {dm:+.2f} | {r['energy']:.0f} | {de:+.2f} | {r['migrations']} |")
        table.append([r["strategy"], r["k"], r["makespan"], dm, r["energy"], de, r["migrations"]])
    if combo:
        extra = 100 * (1 - combo["energy"] / best["energy"])
        lines.append("")
        lines.append(f"Balancing plus DVFS: {best['strategy']} every {best['k']} with the {combo['governor']} governor saves a further "
                     f"{extra:.2f} % over balancing alone (makespan {100 * (combo['makespan'] / best['makespan'] - 1):+.2f} %).")
    for r in [base, best] + ([combo] if combo else []):
        lines += idle_table(r["name"], r["hosts"], 3)
    write_summary(out, lines, ["strategy", "k", "makespan_s", "makespan_pct", "energy_j", "saving_pct",
                               "migrations"], table)


if __name__ == "__main__":
    main()
