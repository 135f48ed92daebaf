#!/usr/bin/env python3
"""The demonstration study: the six simulations of Ciorba et al. 2014, Section 4.

As in the paper, the application runs once and its trace drives the six simulations, so every
mapping and model sees exactly the same workload: lu_like with 81 ranks runs once on the 3x3x3
HAEC box and is recorded as a SimGrid time-independent trace, then replayed with mappings
xyz / block-xyz / random and link models DOR and PNC.

The recording is deterministic: lu_like runs with --mode flops (its kernels count their
floating-point operations and charge that count with smpi_execute_flops) under
--cfg=smpi/simulate-computation:no (SMPI does not add the measured CPU time). The table is then the
same on every machine and for every --host-speed (which only converts measured CPU time, unused
here); tests/integration/test_demo_reproducible.sh checks it. Prints one table (mapping, model, makespan,
mean transfer time per message size, IaNLC, IeNLC), writes the result directories, and checks
every message against the independent Python implementation of Eq. (1)-(2)
(tests/verify/verify_messages.py).
"""
import argparse
import csv
import json
import os
import subprocess
import sys

from experiment_common import simgrid_program

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(cmd):
    print("+ " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="build directory (default: build)")
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "demo"), help="where the six result directories go")
    ap.add_argument("--platform", default="haec-box:3x3x3,preset=ciorba2014", help="platform spec")
    ap.add_argument("--ranks", type=int, default=81)
    ap.add_argument("--iterations", type=int, default=40, help="lu_like iterations")
    ap.add_argument("--sizes", type=int, default=4, help="message sizes shown in the table (most frequent first)")
    ap.add_argument("--host-speed", default="1Gf",
                    help="smpi/host-speed of the recording (converts measured CPU time; unused by the flops mode)")
    args = ap.parse_args()

    haec = os.path.join(args.build, "bin", "haec")
    app = os.path.join(args.build, "bin", "lu_like")
    suite = os.path.join(args.build, "lib", "libhaec_suite.so")
    verifier = os.path.join(ROOT, "tests", "verify", "verify_messages.py")
    out_dir = os.path.abspath(args.out)
    record = os.path.join(out_dir, "record")
    os.makedirs(record, exist_ok=True)

    # 1. Run the application once on the box (block-xyz) and record its trace.
    platform_json = os.path.join(record, "platform.json")
    run([haec, "platform", args.platform, "--out", platform_json])
    run([haec, "map", "--platform", platform_json, "--map", "block-xyz", "-np", str(args.ranks), "--out", record])
    trace = os.path.join(record, "trace", "lu_like.txt")
    os.makedirs(os.path.dirname(trace), exist_ok=True)
    env = dict(os.environ, LD_PRELOAD=suite)
    print(f"+ recording {args.ranks}-rank lu_like into {trace}", flush=True)
    with open(os.path.join(record, "simgrid.log"), "w") as log:
        subprocess.run([simgrid_program(args.build, "smpirun"), "-np", str(args.ranks), "-platform", suite, "-hostfile",
                        os.path.join(record, "hostfile"), f"--cfg=haec/platform:{platform_json}",
                        f"--cfg=smpi/host-speed:{args.host_speed}", "--cfg=smpi/simulate-computation:no",
                        "-trace-ti", f"--cfg=tracing/filename:{trace}", app, str(args.iterations), "--mode", "flops"],
                       env=env, check=True, stdout=log, stderr=log)

    # 2. Six replays of that trace.
    rows = []
    for mapping in ("xyz", "block-xyz", "random"):
        for model in ("dor", "pnc"):
            out = os.path.join(args.out, f"{mapping}-{model}")
            run([haec, "run", "--platform", platform_json, "--map", mapping, "--seed", "4", "--link", model,
                 "--messages", "--replay", trace, "--out", out, "--force", "--quiet"])
            check = subprocess.run([sys.executable, verifier, out], capture_output=True, text=True)
            if check.returncode != 0:
                sys.stderr.write(check.stdout + check.stderr)
                sys.exit(f"demo: {out}: messages disagree with the independent implementation")
            with open(os.path.join(out, "summary.json")) as f:
                summary = json.load(f)
            with open(os.path.join(out, "msg_sizes.csv")) as f:
                sizes = list(csv.DictReader(f))
            rows.append((mapping, model, summary, sizes, check.stdout.strip().splitlines()[-1]))

    # The sizes to show: the most frequent ones over all runs, in increasing size.
    counts = {}
    for _, _, _, sizes, _ in rows:
        for s in sizes:
            counts[int(s["bytes"])] = counts.get(int(s["bytes"]), 0) + int(s["count"])
    shown = sorted(sorted(counts, key=lambda b: -counts[b])[: args.sizes])

    header = ["mapping", "model", "makespan_s"] + [f"mean_us@{b}B" for b in shown] + ["IaNLC", "IeNLC"]
    table = []
    for mapping, model, summary, sizes, _ in rows:
        by = {int(s["bytes"]): float(s["mean_transfer_s"]) for s in sizes}
        metrics = summary.get("mapping", {}).get("metrics", {})
        table.append([mapping, model, f"{summary['makespan_s']:.6f}"] +
                     [f"{by[b] * 1e6:.4f}" if b in by else "-" for b in shown] +
                     [str(metrics.get("ianlc", "-")), str(metrics.get("ienlc", "-"))])

    widths = [max(len(str(r[i])) for r in [header] + table) for i in range(len(header))]
    lines = ["  ".join(str(c).rjust(w) for c, w in zip(r, widths)) for r in [header] + table]
    print()
    print(f"demonstration of Ciorba et al. 2014: lu_like {args.iterations} iterations (counted flops), {args.ranks} ranks, "
          f"{args.platform}, one recorded trace replayed six times")
    print("\n".join(lines))
    print("independent check (tests/verify/verify_messages.py): " + rows[0][4])
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "demo_table.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([header] + table)
    with open(os.path.join(args.out, "demo_table.md"), "w") as f:
        f.write("| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n")
        for r in table:
            f.write("| " + " | ".join(r) + " |\n")


if __name__ == "__main__":
    main()
