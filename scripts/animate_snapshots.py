#!/usr/bin/python3
"""Render a run's snapshots as frames and an animation (MARS, seed 003 section 2.9).

    scripts/animate_snapshots.py RESULT_DIR --out DIR [--fps 4] [--max-links 64] [--dpi 80]

RESULT_DIR comes from `haec run --snapshot-period T` (snapshot_traffic.csv, snapshot_links.csv,
summary.json). Writes DIR/frame-0000.png ... (one per period: the traffic matrix of the period as a
heat map of bytes sent, rank x rank, and the utilisation of the most used links in that period),
DIR/snapshots.gif (matplotlib's PillowWriter) and DIR/snapshots.mp4 when ffmpeg is installed (else
says so). Colour and bar scales are those of the busiest period, so frames compare. Uses Debian's
/usr/bin/python3 (matplotlib, python3-pil)."""
import argparse
import csv
import json
import os
import sys


def fail(message):
    print(f"haec: {message}", file=sys.stderr)
    sys.exit(2)


def read_rows(path):
    if not os.path.exists(path):
        return None  # not observed in that run (no traffic matrix without the PMPI layer)
    with open(path) as f:
        return list(csv.DictReader(f))


def load(result_dir):
    summary_path = os.path.join(result_dir, "summary.json")
    if not os.path.exists(summary_path):
        fail(f"{result_dir}: no summary.json; give the result directory of a haec run")
    with open(summary_path) as f:
        summary = json.load(f)
    if "snapshot_periods" not in summary:
        fail(f"{result_dir}: the run has no snapshots; run haec run with --snapshot-period T")
    traffic = read_rows(os.path.join(result_dir, "snapshot_traffic.csv"))
    links = read_rows(os.path.join(result_dir, "snapshot_links.csv"))
    return summary, traffic, links


def traffic_frames(rows, periods, ranks):
    """Per period a ranks x ranks matrix of bytes (None when not observed)."""
    if rows is None:
        return None
    import numpy as np

    frames = np.zeros((periods, ranks, ranks))
    for r in rows:
        frames[int(r["period"]), int(r["src_rank"]), int(r["dst_rank"])] += float(r["bytes"])
    return frames


def link_frames(rows, periods, max_links):
    """The max_links links with the most flow bytes over the run (name order) and per period
    their utilisation."""
    if rows is None:
        return [], None
    import numpy as np

    total = {}
    for r in rows:
        total[r["link"]] = total.get(r["link"], 0.0) + float(r["occupied_bytes"])
    chosen = sorted(sorted(total, key=lambda l: -total[l])[:max_links])
    index = {name: i for i, name in enumerate(chosen)}
    util = np.zeros((periods, len(chosen)))
    for r in rows:
        if r["link"] in index and r["utilisation"]:
            util[int(r["period"]), index[r["link"]]] = float(r["utilisation"])
    return chosen, util


class Frames:
    """One figure redrawn per period: heat map left, link bars right."""

    def __init__(self, plt, summary, traffic, names, util):
        self.plt, self.summary, self.traffic, self.names, self.util = plt, summary, traffic, names, util
        self.fig, (self.ax_t, self.ax_l) = plt.subplots(1, 2, figsize=(12, 5.5), layout="constrained")
        self.vmax_t = max(1.0, traffic.max()) if traffic is not None and traffic.size else 1.0
        self.vmax_l = max(1e-12, util.max()) if util is not None and util.size else 1.0
        self.image = None

    def draw(self, k):
        period = float(self.summary["snapshot_period_s"])
        end = min((k + 1) * period, float(self.summary["makespan_s"]))
        self.fig.suptitle(f"period {k}: {k * period:.6g} s to {end:.6g} s")
        self.draw_traffic(k)
        self.draw_links(k)

    def draw_traffic(self, k):
        ax = self.ax_t
        if self.traffic is None:
            ax.clear()
            ax.text(0.5, 0.5, "application messages\nnot observed", ha="center", va="center")
            ax.set_axis_off()
            return
        if self.image is None:
            self.image = ax.imshow(self.traffic[k], cmap="viridis", vmin=0, vmax=self.vmax_t, origin="upper")
            self.fig.colorbar(self.image, ax=ax, label="bytes sent in the period")
            ax.set_xlabel("destination rank")
            ax.set_ylabel("source rank")
            ax.set_title("traffic matrix")
            ax.xaxis.get_major_locator().set_params(integer=True)
            ax.yaxis.get_major_locator().set_params(integer=True)
        else:
            self.image.set_data(self.traffic[k])

    def draw_links(self, k):
        ax = self.ax_l
        ax.clear()
        ax.set_title(f"utilisation of the {len(self.names)} most used links")
        ax.set_ylim(0, self.vmax_l * 1.05)
        ax.set_ylabel("utilisation in the period")
        if self.util is None or not self.names:
            ax.text(0.5, 0.5, "no link carried a transfer", ha="center", va="center", transform=ax.transAxes)
            return
        ax.bar(range(len(self.names)), self.util[k], color="tab:red")
        ax.set_xticks(range(len(self.names)))
        ax.set_xticklabels(self.names, rotation=90, fontsize=5)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("result_dir")
    ap.add_argument("--out", required=True, help="directory receiving the frames and the animation")
    ap.add_argument("--fps", type=float, default=4)
    ap.add_argument("--max-links", type=int, default=64, help="links drawn (the most used over the run)")
    ap.add_argument("--dpi", type=int, default=80)
    a = ap.parse_args()
    if a.fps <= 0 or a.max_links <= 0 or a.dpi <= 0:
        fail("--fps, --max-links and --dpi must be positive")
    summary, traffic_rows, link_rows = load(a.result_dir)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib import animation
    except ImportError:
        fail("animate_snapshots: matplotlib is missing; install python3-matplotlib (scripts/install-deps.sh)")

    periods, ranks = int(summary["snapshot_periods"]), int(summary.get("ranks", 0))
    if traffic_rows is not None and ranks <= 0:
        ranks = 1 + max([max(int(r["src_rank"]), int(r["dst_rank"])) for r in traffic_rows] or [0])
    names, util = link_frames(link_rows, periods, a.max_links)
    frames = Frames(plt, summary, traffic_frames(traffic_rows, periods, ranks), names, util)
    os.makedirs(a.out, exist_ok=True)
    gif = os.path.join(a.out, "snapshots.gif")
    writer = animation.PillowWriter(fps=a.fps)
    with writer.saving(frames.fig, gif, a.dpi):
        for k in range(periods):
            frames.draw(k)
            frames.fig.savefig(os.path.join(a.out, f"frame-{k:04d}.png"), dpi=a.dpi)
            writer.grab_frame()
    written = f"{periods} frames, {gif}"
    if animation.FFMpegWriter.isAvailable():
        mp4 = os.path.join(a.out, "snapshots.mp4")
        mp4_writer = animation.FFMpegWriter(fps=a.fps)
        with mp4_writer.saving(frames.fig, mp4, a.dpi):
            for k in range(periods):
                frames.draw(k)
                mp4_writer.grab_frame()
        written += f", {mp4}"
    else:
        written += " (no MP4: ffmpeg is not installed)"
    print(f"animate_snapshots: wrote {written}")


if __name__ == "__main__":
    main()
