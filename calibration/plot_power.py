#!/usr/bin/python3
"""Wattmeter logs and fitted levels of `haec calibrate power`: plot_power.py MANIFEST.csv OUT_DIR
Reads OUT_DIR/levels.csv, writes OUT_DIR/power.png."""
import csv
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main():
    out = sys.argv[2]
    with open(out + "/levels.csv") as f:
        levels = list(csv.DictReader(f))
    fig, ax = plt.subplots(figsize=(10, 6))
    colours = {"idle": "tab:green", "one": "tab:blue", "all": "tab:red"}
    for lv in levels:
        with open(lv["file"]) as f:
            rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")][1:]
        t = [float(r[0]) for r in rows]
        w = [float(r[1]) for r in rows]
        ax.step(t, w, where="post", color=colours[lv["load"]], alpha=0.5,
                label=f"pstate {lv['pstate']} {lv['load']}")
        ax.hlines(float(lv["watts"]), t[0], t[-1], color=colours[lv["load"]], linestyles="dashed")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("watts")
    ax.set_title("haec calibrate power: logs (steps) and fitted steady levels (dashed)")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out + "/power.png", dpi=90)


if __name__ == "__main__":
    main()
