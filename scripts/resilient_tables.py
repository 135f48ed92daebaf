#!/usr/bin/env python3
"""Resilient link models on applications: the shape of seed 001 Tables 3-8 at a size that fits.

apps/lu_like and apps/bt_like are recorded once as time-independent traces (DIMS ranks), then
replayed on a DIMS mesh and torus with Gemini-like links (9.375 GB/s, 1.27 us), under the xyz and
min-md mappings (min-md from the trace's traffic), with DOR_r, PNC_r and NCD_r (loss p per link,
preset paper by default: docs/MODELS.md 3.2 Table 2). Writes:
  OUT/transfer_times.csv  app,topology,mapping,model,bytes,count,mean_transfer_us   (Tables 3-6)
  OUT/hops.csv            app,topology,mapping,transfer_hops,messages                 (Tables 7-8)
  OUT/summary.md          the tables as in the paper, and the two published trends checked
Exit status 1 when the published trend for large messages does not hold (NCD_r <= PNC_r <= DOR_r
for every size >= 100 KB); the hop totals of min-md and xyz are reported (min-md is expected to
travel fewer hops except where xyz already fits the pattern).

  scripts/resilient_tables.py [--build build] [--out results/resilient] [--dims 8x8x8]
                              [--iters 10] [--loss 0.01] [--preset paper]
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from experiment_common import provenance  # noqa: E402

MODELS = ["dor_r", "pnc_r", "ncd_r"]
TOPOLOGIES = ["mesh", "torus"]
MAPPINGS = ["xyz", "min-md"]


def run(cmd, quiet=True):
    print("+ " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL if quiet else None)


def app_commands(build, iters):
    return {
        "LU-like": [os.path.join(build, "bin", "lu_like"), str(iters), "8"],
        "BT-like": [os.path.join(build, "bin", "bt_like"), "--iters", str(iters)],
    }


def read_sizes(result):
    with open(os.path.join(result, "msg_sizes.csv")) as f:
        return [(int(r["bytes"]), int(r["count"]), float(r["mean_transfer_s"])) for r in csv.DictReader(f)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="results/resilient")
    ap.add_argument("--dims", default="8x8x8")
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--loss", default="0.01")
    ap.add_argument("--preset", default="paper")
    a = ap.parse_args()
    haec = os.path.join(a.build, "bin", "haec")
    try:
        x, y, z = (int(v) for v in a.dims.split("x"))
    except ValueError:
        sys.exit(f"resilient_tables: --dims {a.dims}: not AxBxC; give e.g. 8x8x8")
    ranks = x * y * z
    if os.path.exists(a.out):
        sys.exit(f"resilient_tables: --out {a.out}: already exists; remove it or choose another directory")
    work = tempfile.mkdtemp(prefix="resilient_tables.")
    rows, hops = [], []
    try:
        for app, cmd in app_commands(a.build, a.iters).items():
            trace = os.path.join(work, app + ".trace")
            # bt_like injects its flops: only those cost time (apps/cost_injection.h).
            flops_only = ["--cfg", "smpi/simulate-computation:no"] if app == "BT-like" else []
            run([haec, "trace", "record", "--platform", f"torus:{a.dims}", "-np", str(ranks), "--out", trace]
                + flops_only + ["--"] + cmd)
            for topo in TOPOLOGIES:
                platform = f"{topo}:{a.dims},link-bw=9.375GBps,link-lat=1.27us"
                for mapping in MAPPINGS:
                    for model in MODELS:
                        res = os.path.join(work, f"{app}-{topo}-{mapping}-{model}")
                        run([haec, "run", "--quiet", "--platform", platform, "--map", mapping] +
                            (["--traffic", trace] if mapping == "min-md" else []) +
                            ["--link", model, "--cfg", f"haec/link/loss:{a.loss}", "--cfg", f"haec/link/preset:{a.preset}",
                             "--replay", trace, "-np", str(ranks), "--out", res])
                        for size, count, mean in read_sizes(res):
                            rows.append({"app": app, "topology": topo, "mapping": mapping, "model": model,
                                         "bytes": size, "count": count, "mean_transfer_us": mean * 1e6})
                        if model == MODELS[0]:
                            with open(os.path.join(res, "summary.json")) as f:
                                s = json.load(f)
                            hops.append({"app": app, "topology": topo, "mapping": mapping,
                                         "transfer_hops": s["transfer_hops"], "messages": s["messages"]})
    finally:
        shutil.rmtree(work, ignore_errors=True)

    stage = a.out + ".partial"
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(stage)
    with open(os.path.join(stage, "transfer_times.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(stage, "hops.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(hops[0].keys()))
        w.writeheader()
        w.writerows(hops)

    md, failures, checked = [], [], []
    md.append(f"# Resilient models on LU-like and BT-like ({ranks} ranks, {a.dims} mesh and torus)\n")
    md.append(provenance() + "\n")
    md.append(f"Loss {a.loss} per link, preset `{a.preset}`, Gemini-like links (9.375 GB/s, 1.27 us), "
              f"{a.iters} iterations, trace replay. Mean transfer time per message size (us), "
              "as Pfennig et al. 2016, Tables 3-6; sizes with fewer than 100 messages are left out.\n")
    mean = {(r["app"], r["topology"], r["mapping"], r["model"], r["bytes"]): (r["mean_transfer_us"], r["count"]) for r in rows}
    for app in app_commands(a.build, a.iters):
        for topo in TOPOLOGIES:
            md.append(f"\n## {app}, 3D {topo}\n")
            md.append("| mapping | bytes | messages | DOR_r | PNC_r | NCD_r |")
            md.append("|---|---|---|---|---|---|")
            for mapping in MAPPINGS:
                sizes = sorted({k[4] for k in mean if k[:3] == (app, topo, mapping)})
                sizes = [b for b in sizes if mean[(app, topo, mapping, "dor_r", b)][1] >= 100]
                for b in sizes:
                    t = [mean[(app, topo, mapping, m, b)][0] for m in MODELS]
                    md.append(f"| {mapping} | {b} | {mean[(app, topo, mapping, 'dor_r', b)][1]} | " +
                              " | ".join(f"{v:.2f}" for v in t) + " |")
                for big in (b for b in sizes if b >= 100 * 1024):
                    d, p, n = (mean[(app, topo, mapping, m, big)][0] for m in MODELS)
                    checked.append(big)
                    if not (n <= p * (1 + 1e-9) and p <= d * (1 + 1e-9)):
                        failures.append(f"{app} {topo} {mapping} {big} B: NCD_r {n:.2f} PNC_r {p:.2f} DOR_r {d:.2f} us")
    md.append("\n## Transfer hops of all point-to-point transfers (Tables 7-8)\n")
    md.append("| topology | mapping | " + " | ".join(app_commands(a.build, a.iters)) + " |")
    md.append("|---|---|" + "---|" * len(app_commands(a.build, a.iters)))
    total = {(h["app"], h["topology"], h["mapping"]): h["transfer_hops"] for h in hops}
    for topo in TOPOLOGIES:
        for mapping in MAPPINGS:
            md.append(f"| {topo} | {mapping} | " +
                      " | ".join(f"{total[(app, topo, mapping)]:,}" for app in app_commands(a.build, a.iters)) + " |")
    md.append("\n## Published trends\n")
    md.append(f"- messages >= 100 KB ({len(checked)} table rows): NCD_r <= PNC_r <= DOR_r " +
              ("holds" if not failures else "FAILS for " + "; ".join(failures)))
    if not checked:
        failures.append("no message of 100 KB or more: nothing to compare")
    for app in app_commands(a.build, a.iters):
        for topo in TOPOLOGIES:
            x_h, m_h = total[(app, topo, "xyz")], total[(app, topo, "min-md")]
            md.append(f"- {app} on the {topo}: min-md {m_h:,} hops vs xyz {x_h:,} "
                      f"({100.0 * (m_h - x_h) / x_h:+.1f} %)")
    text = "\n".join(md) + "\n"
    with open(os.path.join(stage, "summary.md"), "w") as f:
        f.write(text)
    os.rename(stage, a.out)
    print(text)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
