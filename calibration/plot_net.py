#!/usr/bin/python3
"""Samples and fitted segments of `haec calibrate net`: plot_net.py SAMPLES.csv OUT_DIR [INTRA.csv]
Reads OUT_DIR/segments.csv and points.csv, writes OUT_DIR/net.png (log-log, one panel per quantity)."""
import csv
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

PANELS = [("os", "MPI_Send", 1.0), ("ois", "MPI_Isend", 1.0), ("or", "MPI_Recv", 1.0), ("comm", "PingPong", 0.5)]


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main():
    samples, out = sys.argv[1], sys.argv[2]
    raw = {"inter": read(samples)}
    if len(sys.argv) > 3:
        raw["intra"] = read(sys.argv[3])
    segs, pts = read(out + "/segments.csv"), read(out + "/points.csv")
    fig, axes = plt.subplots(2, 2, figsize=(12, 9))
    colours = {"inter": "tab:blue", "intra": "tab:orange"}
    for ax, (q, op, scale) in zip(axes.flat, PANELS):
        for path, rows in raw.items():
            xs = [max(int(r["size"]), 1) for r in rows if r["op"] == op]
            ys = [float(r["duration"]) * scale for r in rows if r["op"] == op]
            ax.scatter(xs, ys, s=4, alpha=0.25, color=colours[path], label=f"{path} {op}" + (" / 2" if scale != 1 else ""))
            px = [max(int(p["size"]), 1) for p in pts if p["path"] == path and p["quantity"] == q]
            py = [float(p["value"]) for p in pts if p["path"] == path and p["quantity"] == q]
            ax.scatter(px, py, s=14, marker="x", color=colours[path], label=f"{path} {q} (median)")
            for s in segs:
                if s["path"] != path or s["quantity"] != q:
                    continue
                x = np.geomspace(max(int(s["first_size"]), 1), max(int(s["last_size"]), 1), 50)
                ax.plot(x, float(s["intercept"]) + float(s["slope"]) * x, color="k" if path == "inter" else "tab:red", lw=1.5)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel("seconds")
        ax.set_title({"os": "smpi/os (MPI_Send, detached sizes)", "ois": "smpi/ois (MPI_Isend)",
                      "or": "smpi/or (MPI_Recv, buffered sizes)", "comm": "network: PingPong/2 - os - or"}[q])
        ax.legend(fontsize=7)
    fig.suptitle("haec calibrate net: samples and fitted segments")
    fig.tight_layout()
    fig.savefig(out + "/net.png", dpi=90)


if __name__ == "__main__":
    main()
