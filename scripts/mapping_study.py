#!/usr/bin/python3
"""Mapping study (README: "Mapping study"): every strategy of `haec map` on the apps and on
NPB-like patterns, 64 ranks on 4x4x4 and 512 on 8x8x8 meshes, tori and HAEC boxes; then the
simulated makespan and energy (DOR link model, --power) of auto, of the three best MapLib/Scotch
strategies by hop-bytes and of xyz.

    mapping_study.py [--build build] [--out docs/results/mapping] [--work /tmp/haec-mapping-study]
                     [--sizes 64,512] [--topologies mesh,torus,haec-box] [--workloads ...] [--no-sim]

Workloads: lu, bt, cg (scripts/npb_like_traces.py, generated TI traces) and the apps lu_like,
bt_like, stencil (stencil_imbalance, 2-D), recorded with `haec trace record` on a cluster (their
traffic does not depend on the platform). Every mapping reads its matrix from the TI trace.
Writes metrics.csv (one row per case and strategy), sims.csv and summary.md into --out.

With --maplib DIR (a clone of github.com/unibas-dmi-hpc/MapLib; not part of this repository), also
compares on MapLib's four published byte matrices (64 ranks; mesh, torus and MapLib's HAEC box, i.e.
haec-box with full wireless) xyz, min-md, scotch and auto with the best mapping MapLib published.
"""
import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npb_like_traces  # noqa: E402
from experiment_common import provenance  # noqa: E402

MAPLIB = ["sweep", "scan", "peano", "hilbert", "gray", "bokhari", "topo-aware", "greedy", "fhgreedy",
          "greedy-allc", "bipartition", "pacmap"]
COMPETITORS = MAPLIB + ["scotch"]
STRATEGIES = ["xyz", "min-md"] + COMPETITORS + ["auto"]
APPS = {  # recorded apps: program and arguments
    "lu_like": ["lu_like", "5"],
    "bt_like": ["bt_like", "--iters", "3"],
    "stencil": ["stencil_imbalance", "--dims", "2", "--iters", "5", "--pattern", "uniform", "--size", "4096",
                "--flops-per-cell", "20"],
}
FIELDS = ["hop_bytes", "avg_dilation", "max_dilation", "max_link_load", "wireless_share", "ienlc"]


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[:300]}")
    return p.stdout


def trace_of(workload, ranks, work, build):
    """A TI trace (list file) of the workload with `ranks` ranks, generated or recorded once."""
    path = os.path.join(work, "traces", f"{workload}-{ranks}")
    if workload in npb_like_traces.PATTERNS:
        listing = os.path.join(path, "list.txt")
        if not os.path.exists(listing):
            npb_like_traces.generate(workload, ranks, 1, path)
        return listing
    if not os.path.exists(path):
        app = [os.path.join(build, "bin", APPS[workload][0])] + APPS[workload][1:]
        run([os.path.join(build, "bin", "haec"), "trace", "record", "--platform", f"cluster:{ranks}", "-np", str(ranks),
             "--out", path, "--"] + app)
    return path


def platform(topology, ranks):
    side = round(ranks ** (1 / 3))
    return f"{topology}:{side}x{side}x{side}"


def map_one(haec, trace, plat, ranks, strategy, out):
    """Runs `haec map`; returns the metrics.json figures plus the mapping time."""
    stdout = run([haec, "map", "--platform", plat, "--map", strategy, "--traffic", trace, "-np", str(ranks),
                  "--out", out])
    seconds = float(re.search(r" in ([0-9.]+) s:", stdout).group(1))
    j = json.load(open(os.path.join(out, "metrics.json")))
    row = {k: j["metrics"].get(k, "") for k in FIELDS}
    row["link_model_time_s"] = j.get("link_model", {}).get("time_s", "")
    row["map_seconds"] = seconds
    return row


def simulate(haec, trace, plat, ranks, mapping, out):
    run([haec, "run", "--replay", trace, "--platform", plat, "--mapping-file", mapping, "-np", str(ranks), "--link",
         "dor", "--power", "--out", out, "--force", "--quiet"])
    s = json.load(open(os.path.join(out, "summary.json")))
    return s["makespan_s"], s["energy_j"]


def best_three(rows):
    """The three MapLib/Scotch strategies of least hop-bytes (ties: link-model time, then name)."""
    ranked = sorted((r for r in rows if r["strategy"] in COMPETITORS),
                    key=lambda r: (r["hop_bytes"], r["link_model_time_s"] or 0, r["strategy"]))
    return [r["strategy"] for r in ranked[:3]]


def study_case(args, haec, workload, ranks, topology, metrics_out, sims_out):
    trace = trace_of(workload, ranks, args.work, args.build)
    plat = platform(topology, ranks)
    case_dir = os.path.join(args.work, "maps", f"{workload}-{ranks}-{topology}")
    rows = []
    for s in STRATEGIES:
        row = {"workload": workload, "ranks": ranks, "topology": topology, "strategy": s}
        row.update(map_one(haec, trace, plat, ranks, s, os.path.join(case_dir, s)))
        rows.append(row)
        metrics_out.writerow(row)
    print(f"{workload}-{ranks} {topology}: mapped", flush=True)
    if args.no_sim:
        return rows, []
    sims = []
    for s in dict.fromkeys(["auto"] + best_three(rows) + ["xyz"]):
        makespan, energy = simulate(haec, trace, plat, ranks, os.path.join(case_dir, s, "mapping.txt"),
                                    os.path.join(args.work, "runs", f"{workload}-{ranks}-{topology}-{s}"))
        sim = {"workload": workload, "ranks": ranks, "topology": topology, "strategy": s, "makespan_s": makespan,
               "energy_j": energy}
        sims.append(sim)
        sims_out.writerow(sim)
    return rows, sims


MAPLIB_TOPOLOGIES = {"mesh": "mesh:4x4x4", "torus": "torus:4x4x4", "haec": "haec-box:4x4x4,wireless=full"}


def maplib_table(haec, maplib, work):
    """Hop-bytes on MapLib's matrices relative to the best mapping MapLib published for them."""
    lines = ["| matrix | topology | best published (strategy) | xyz | min-md | scotch | auto |", "|---|---|---|---|---|---|---|"]
    for app in ("amg", "btmz", "cg", "lulesh"):
        matrix = os.path.join(maplib, "mapping-matters-commMatrices", f"{app}CMatrices", "comm_matrix.p2p.size.csv")
        for topo, plat in MAPLIB_TOPOLOGIES.items():
            folder = os.path.join(maplib, "mapping-matters-Mappings", "size", f"{app}MAP{topo}")
            published = {}
            for name in sorted(os.listdir(folder)):
                if name.endswith(".csv"):
                    out = os.path.join(work, "maplib", app, topo, name)
                    run([haec, "map", "--platform", plat, "--mapping-file", os.path.join(folder, name), "--traffic",
                         matrix, "-np", "64", "--out", out])
                    published[name.split(".")[4]] = json.load(open(os.path.join(out, "metrics.json")))["metrics"]["hop_bytes"]
            best = min(published, key=published.get)
            ours = []
            for s in ("xyz", "min-md", "scotch", "auto"):
                out = os.path.join(work, "maplib", app, topo, s)
                ours.append(map_one(haec, matrix, plat, 64, s, out)["hop_bytes"] / published[best])
            lines.append(f"| {app} | {topo} | {published[best]} ({best}) | " + " | ".join(f"{r:.3f}" for r in ours) + " |")
    return lines


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def goal_table(cases):
    """Per case: the best competitor, auto's hop-bytes against it, and the simulated figures."""
    lines = ["| case | best MapLib/Scotch | its hop-bytes | auto / best | auto makespan / best's | "
             "auto makespan / fastest of the three | auto energy / best's |", "|---|---|---|---|---|---|---|"]
    better = worse = 0
    for (w, n, t), (rows, sims) in cases.items():
        by = {r["strategy"]: r for r in rows}
        best = best_three(rows)[0]
        ratio = by["auto"]["hop_bytes"] / by[best]["hop_bytes"]
        better += ratio < 1
        worse += ratio > 1
        cells = ["", "", ""]
        if sims:
            sim = {s["strategy"]: s for s in sims}
            three = [s for s in best_three(rows) if s in sim]
            fastest = min(sim[s]["makespan_s"] for s in three)
            energy = (f"{sim['auto']['energy_j'] / sim[best]['energy_j']:.4f}" if sim[best]["energy_j"] > 0
                      else "n/a")  # no power calibration on this platform kind
            cells = [f"{sim['auto']['makespan_s'] / sim[best]['makespan_s']:.4f}",
                     f"{sim['auto']['makespan_s'] / fastest:.4f}", energy]
        lines.append(f"| {w}-{n} {t} | {best} | {by[best]['hop_bytes']} | {ratio:.4f} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"auto strictly better on hop-bytes in {better} of {len(cases)} cases, worse in {worse}.")
    return lines


def strategy_table(cases, topologies):
    """Geometric mean over workloads and sizes of each strategy's hop-bytes relative to auto."""
    lines = ["| strategy | " + " | ".join(topologies) + " |", "|---|" + "---|" * len(topologies)]
    for s in STRATEGIES:
        cells = []
        for t in topologies:
            ratios = []
            for (w, n, tt), (rows, _) in cases.items():
                by = {r["strategy"]: r for r in rows}
                if tt == t and by["auto"]["hop_bytes"] > 0:
                    ratios.append(by[s]["hop_bytes"] / by["auto"]["hop_bytes"])
            cells.append(f"{geomean(ratios):.3f}" if ratios else "")
        lines.append(f"| {s} | " + " | ".join(cells) + " |")
    return lines


def run_cases(args, haec, topologies):
    cases = {}
    with open(os.path.join(args.out, "metrics.csv"), "w", newline="") as mf, \
            open(os.path.join(args.out, "sims.csv"), "w", newline="") as sf:
        metrics_out = csv.DictWriter(mf, ["workload", "ranks", "topology", "strategy"] + FIELDS +
                                     ["link_model_time_s", "map_seconds"])
        sims_out = csv.DictWriter(sf, ["workload", "ranks", "topology", "strategy", "makespan_s", "energy_j"])
        metrics_out.writeheader()
        sims_out.writeheader()
        for n in map(int, args.sizes.split(",")):
            for w in args.workloads.split(","):
                for t in topologies:
                    cases[(w, n, t)] = study_case(args, haec, w, n, t, metrics_out, sims_out)
    return cases


def read_cases(out):
    """The cases of an earlier run, from metrics.csv and sims.csv."""
    def num(v):
        return float(v) if v not in ("", None) and re.fullmatch(r"[-0-9.e+]+", v) else v
    cases = {}
    for r in csv.DictReader(open(os.path.join(out, "metrics.csv"))):
        row = {k: num(v) for k, v in r.items()}
        row["ranks"] = int(row["ranks"])
        row["hop_bytes"] = int(row["hop_bytes"])
        cases.setdefault((r["workload"], row["ranks"], r["topology"]), ([], []))[0].append(row)
    for r in csv.DictReader(open(os.path.join(out, "sims.csv"))):
        sim = {k: num(v) for k, v in r.items()}
        sim["ranks"] = int(sim["ranks"])
        cases[(r["workload"], sim["ranks"], r["topology"])][1].append(sim)
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="docs/results/mapping")
    ap.add_argument("--work", default="/tmp/haec-mapping-study")
    ap.add_argument("--sizes", default="64,512")
    ap.add_argument("--topologies", default="mesh,torus,haec-box")
    ap.add_argument("--workloads", default="lu,bt,cg,lu_like,bt_like,stencil")
    ap.add_argument("--no-sim", action="store_true", help="metrics only, no simulation")
    ap.add_argument("--report", action="store_true", help="only rewrite summary.md from --out's CSV files")
    ap.add_argument("--maplib", help="a MapLib clone: also compare with MapLib's published mappings")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    haec = os.path.join(args.build, "bin", "haec")
    topologies = args.topologies.split(",")
    os.makedirs(args.out, exist_ok=True)
    start = time.time()
    if args.report:
        cases = read_cases(args.out)
    else:
        cases = run_cases(args, haec, topologies)
    origin = " (tables from the CSV files of an earlier run)" if args.report else ""
    summary = ["# Mapping study", "", provenance(start) + origin, "",
               "## auto against the best MapLib/Scotch strategy (hop-bytes) per case", ""]
    summary += goal_table(cases)
    summary += ["", "## Hop-bytes relative to auto (geometric mean over workloads and sizes)", ""]
    summary += strategy_table(cases, topologies)
    if args.maplib:
        summary += ["", "## MapLib's matrices: hop-bytes relative to MapLib's best published mapping", ""]
        summary += maplib_table(haec, os.path.abspath(args.maplib), args.work)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write("\n".join(summary) + "\n")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
