#!/usr/bin/python3
"""Samples and fitted settings of `haec calibrate net`: plot_net.py SAMPLES.csv OUT_DIR [INTRA.csv]
Reads OUT_DIR/points.csv (medians and predictions) and model.csv (the settings' prediction on a
dense grid), writes OUT_DIR/net.png: one log-log panel per operation, and the relative error of
every median."""
import csv
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

OPS = ["MPI_Send", "MPI_Isend", "MPI_Recv", "PingPong", "MPI_Ssend"]
COLOURS = {"inter": "tab:blue", "intra": "tab:orange"}


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main():
    samples, out = sys.argv[1], sys.argv[2]
    raw = {"inter": read(samples)}
    if len(sys.argv) > 3:
        raw["intra"] = read(sys.argv[3])
    pts, model = read(out + "/points.csv"), read(out + "/model.csv")
    fig, axes = plt.subplots(2, 3, figsize=(15, 9))
    for ax, op in zip(axes.flat, OPS):
        for path, rows in raw.items():
            c = COLOURS[path]
            ax.scatter([max(int(r["size"]), 1) for r in rows if r["op"] == op],
                       [float(r["duration"]) for r in rows if r["op"] == op], s=4, alpha=0.2, color=c,
                       label=f"{path} samples")
            mine = [p for p in pts if p["path"] == path and p["op"] == op]
            ax.scatter([max(float(p["size"]), 1) for p in mine], [float(p["median"]) for p in mine], s=14,
                       marker="x", color=c, label=f"{path} medians")
            line = [m for m in model if m["path"] == path and m["op"] == op]
            ax.plot([max(float(m["size"]), 1) for m in line], [float(m["predicted"]) for m in line],
                    color="k" if path == "inter" else "tab:red", lw=1.2, label=f"{path} settings")
        ax.set(xscale="log", yscale="log", xlabel="message size (bytes)", ylabel="seconds", title=op)
        ax.legend(fontsize=7)
    ax = axes.flat[5]
    for op, marker in zip(OPS, "o^sdv"):
        mine = [p for p in pts if p["op"] == op]
        ax.scatter([max(float(p["size"]), 1) for p in mine], [100 * float(p["error"]) for p in mine], s=10,
                   marker=marker, label=op)
    ax.axhline(2, color="grey", lw=0.8, ls=":")
    ax.axhline(-2, color="grey", lw=0.8, ls=":")
    ax.set(xscale="log", xlabel="message size (bytes)", ylabel="settings vs median (%)", title="in-sample error")
    ax.legend(fontsize=7)
    fig.suptitle("haec calibrate net: samples, medians and what SMPI will charge with the fitted settings")
    fig.tight_layout()
    fig.savefig(out + "/net.png", dpi=80)


if __name__ == "__main__":
    main()
