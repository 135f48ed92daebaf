#!/usr/bin/python3
"""Plot the power of a run: each host's watts over time (power.csv, a step function) and the
energy per host (hosts.csv).

    scripts/plot_power.py RESULT_DIR [--out power.png] [--hosts node-0,node-1] [--max-hosts 16]

RESULT_DIR comes from `haec run --power-series` (power.csv; without it only the energy bars
are drawn). Uses Debian's /usr/bin/python3 (matplotlib)."""
import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_series(path, makespan):
    series = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            series.setdefault(row["host"], []).append((float(row["time"]), float(row["watts"])))
    for pts in series.values():  # each level holds until the next point, the last until the end
        pts.append((makespan, pts[-1][1]))
    return series


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("result_dir")
    ap.add_argument("--out", help="image file (default RESULT_DIR/power.png)")
    ap.add_argument("--hosts", help="comma-separated hosts to draw (default: the first --max-hosts)")
    ap.add_argument("--max-hosts", type=int, default=16)
    a = ap.parse_args()

    hosts_csv = os.path.join(a.result_dir, "hosts.csv")
    if not os.path.exists(hosts_csv):
        sys.exit(f"plot_power: {hosts_csv}: not found; run haec run with --power or --power-series")
    with open(hosts_csv) as f:
        hosts = list(csv.DictReader(f))
    makespan = max(float(h["busy_s"]) + float(h["idle_s"]) + float(h["off_s"]) for h in hosts)
    names = a.hosts.split(",") if a.hosts else [h["host"] for h in hosts][: a.max_hosts]
    unknown = set(names) - {h["host"] for h in hosts}
    if unknown:
        sys.exit(f"plot_power: --hosts: unknown host(s) {', '.join(sorted(unknown))}")

    power_csv = os.path.join(a.result_dir, "power.csv")
    have_series = os.path.exists(power_csv)
    fig, axes = plt.subplots(2 if have_series else 1, 1, figsize=(10, 7 if have_series else 3.5), squeeze=False)
    if have_series:
        ax = axes[0][0]
        series = read_series(power_csv, makespan)
        for name in names:
            pts = series.get(name, [])
            if pts:
                ax.step([t for t, _ in pts], [w for _, w in pts], where="post", label=name, linewidth=0.8)
        ax.set_xlabel("simulated time (s)")
        ax.set_ylabel("power (W)")
        ax.set_title(f"Host power, {len(names)} of {len(hosts)} hosts")
        if len(names) <= 16:
            ax.legend(fontsize="small", ncol=4)
    ax = axes[-1][0]
    chosen = [h for h in hosts if h["host"] in names]
    ax.bar(range(len(chosen)), [float(h["energy_j"]) for h in chosen])
    ax.set_xticks(range(len(chosen)))
    ax.set_xticklabels([h["host"] for h in chosen], rotation=90, fontsize="small")
    ax.set_ylabel("energy (J)")
    total = sum(float(h["energy_j"]) for h in hosts)
    ax.set_title(f"Energy per host (all hosts: {total:.6g} J over {makespan:.6g} s)")
    fig.tight_layout()
    out = a.out or os.path.join(a.result_dir, "power.png")
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
