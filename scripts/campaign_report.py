#!/usr/bin/env python3
"""The report of a campaign directory (haec campaign report DIR): PNG plots and DIR/report/index.html.

Reads DIR/results.csv (written by haec campaign run). Plots time- and energy-to-solution against
the platform's node count (one line per combination of the other axes, mean over seeds), the
energy-makespan Pareto front, and tables per mapping and per link model. Figures a run did not
compute are empty cells in results.csv and are left out, never drawn as 0. The report directory is
written next to its final place and renamed into it, so a failed report leaves none behind.
"""
import csv
import html
import os
import shutil
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FIXED = ["run", "status", "ranks", "nodes", "nodes_used", "makespan_s", "energy_j", "host_energy_j",
         "link_energy_j", "messages", "bytes", "transfer_hops", "message_hops", "mapping", "link_model", "governor",
         "pstate_switches", "migrations", "result_dir", "log"]
SIZE_AXES = {"platform", "np", "seed"}  # the x axis and the repetitions, not a series


def fail(where, problem, fix):
    print(f"haec: {where}: {problem}; {fix}", file=sys.stderr)
    sys.exit(2)


def number(s):
    return float(s) if s not in ("", None) else None


def read_rows(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames is None or reader.fieldnames[:2] != ["run", "status"]:
            fail(path, "is not a campaign results.csv", "give the --out directory of `haec campaign run`")
        axes = [c for c in reader.fieldnames[2:] if c not in FIXED]
        rows = list(reader)
    done = [r for r in rows if r["status"] == "done"]
    if not done:
        fail(path, "holds no finished run", "run the campaign first (haec campaign run)")
    for r in done:
        for k in ("makespan_s", "energy_j", "nodes"):
            r[k] = number(r[k])
    return axes, rows, done


def is_size_axis(axis, row):
    """The x axis and repetitions: platform, np, seed, or a bundle ("platform=... np=...") setting one."""
    if axis in SIZE_AXES:
        return True
    keys = {part.split("=", 1)[0] for part in row[axis].split(" ") if "=" in part}
    return bool(keys & SIZE_AXES)


def platform_kind(row, axes):
    """haec-box, fat-tree, cluster, ... (or the file name) of the row's platform, if an axis sets it."""
    for a in axes:
        for part in row[a].split(" ") if a != "platform" else ["platform=" + row[a]]:
            if part.startswith("platform="):
                return part[len("platform="):].split(":", 1)[0]
    return None


def series_key(row, axes, kinds):
    """Runs of one series differ only in size and seed; platforms of different kinds never share one."""
    parts = [f"{a}={row[a]}" for a in axes if not is_size_axis(a, row)]
    if len(kinds) > 1:
        parts.insert(0, platform_kind(row, axes))
    return ", ".join(parts) or "all runs"


def plot_vs_nodes(done, axes, figure, label, path):
    series = {}
    kinds = {platform_kind(r, axes) for r in done}
    for r in done:
        if r[figure] is not None:
            series.setdefault(series_key(r, axes, kinds), {}).setdefault(r["nodes"], []).append(r[figure])
    if not series:
        return False
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for name, points in sorted(series.items()):
        xs = sorted(points)
        ax.plot(xs, [statistics.mean(points[x]) for x in xs], marker="o", label=name)
    nodes = sorted({x for points in series.values() for x in points})
    if nodes[-1] >= 4 * nodes[0]:
        ax.set_xscale("log", base=2)
    ax.set_xticks(nodes, [f"{x:g}" for x in nodes])
    ax.set_xlabel("nodes of the platform")
    ax.set_ylabel(label)
    save_figure(fig, ax, path)
    return True


def save_figure(fig, ax, path):
    """Grid, legend, tight layout, PNG, closed: every plot of the report ends alike."""
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def pareto_front(points):
    """The runs no other run beats in both makespan and energy."""
    front = []
    for r in sorted(points, key=lambda r: (r["makespan_s"], r["energy_j"])):
        if not front or r["energy_j"] < front[-1]["energy_j"]:
            front.append(r)
    return front


def plot_pareto(done, path):
    points = [r for r in done if r["energy_j"] is not None]
    if not points:
        return []
    front = pareto_front(points)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.scatter([r["makespan_s"] for r in points], [r["energy_j"] for r in points], label="runs", color="tab:gray")
    ax.plot([r["makespan_s"] for r in front], [r["energy_j"] for r in front], marker="o", color="tab:red",
            label="Pareto front")
    ax.set_xlabel("makespan (s)")
    ax.set_ylabel("energy (J)")
    save_figure(fig, ax, path)
    return front


def fmt(v):
    return "" if v is None else f"{v:.6g}"


def group_table(done, column, title):
    groups = {}
    for r in done:
        groups.setdefault(r[column] or "(none)", []).append(r)
    out = [f"<h2>{html.escape(title)}</h2>", "<table><tr><th>" + html.escape(column) +
           "</th><th>runs</th><th>min makespan (s)</th><th>median makespan (s)</th><th>max makespan (s)</th>"
           "<th>median energy (J)</th></tr>"]
    for name, rs in sorted(groups.items()):
        times = [r["makespan_s"] for r in rs]
        energies = [r["energy_j"] for r in rs if r["energy_j"] is not None]
        out.append(f"<tr><td>{html.escape(name)}</td><td>{len(rs)}</td><td>{fmt(min(times))}</td>"
                   f"<td>{fmt(statistics.median(times))}</td><td>{fmt(max(times))}</td>"
                   f"<td>{fmt(statistics.median(energies)) if energies else ''}</td></tr>")
    out.append("</table>")
    return out


def runs_table(rows, axes, front):
    on_front = {r["run"] for r in front}
    head = axes + ["status", "nodes", "makespan_s", "energy_j", "Pareto"]
    out = ["<h2>All runs</h2>", "<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"]
    for r in rows:
        cells = [r[a] for a in axes] + [r["status"], r["nodes"], r["makespan_s"], r["energy_j"],
                                        "yes" if r["run"] in on_front else ""]
        text = [fmt(c) if isinstance(c, float) else ("" if c is None else str(c)) for c in cells]
        out.append("<tr>" + "".join(f"<td>{html.escape(t)}</td>" for t in text) + "</tr>")
    out.append("</table>")
    return out


def write_page(stage, rows, done, axes, images, front):
    body = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\"><title>haec campaign report</title>",
            "<link rel=\"icon\" href=\"data:,\">",
            "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1.5em}"
            "td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}img{max-width:100%}</style></head><body>",
            "<h1>haec campaign report</h1>",
            f"<p>{len(done)} of {len(rows)} runs finished; axes: {html.escape(', '.join(axes))}.</p>"]
    for png, caption in images:
        body.append(f"<figure><img src=\"{png}\" alt=\"{html.escape(caption)}\"><figcaption>"
                    f"{html.escape(caption)}</figcaption></figure>")
    if not any(r["energy_j"] is not None for r in done):
        body.append("<p>No energy figures: the runs did not compute energy (add \"power\": true).</p>")
    body += group_table(done, "mapping", "Per mapping")
    body += group_table(done, "link_model", "Per link model")
    body += runs_table(rows, axes, front)
    body.append("</body></html>")
    with open(os.path.join(stage, "index.html"), "w") as f:
        f.write("\n".join(body) + "\n")


def main():
    if len(sys.argv) != 2:
        fail("campaign_report.py", "needs one argument", "give the campaign directory")
    out = sys.argv[1]
    axes, rows, done = read_rows(os.path.join(out, "results.csv"))
    final = os.path.join(out, "report")
    stage = f"{final}.tmp-{os.getpid()}"
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(stage)
    try:
        images = []
        if plot_vs_nodes(done, axes, "makespan_s", "time to solution (s)", os.path.join(stage, "time_vs_nodes.png")):
            images.append(("time_vs_nodes.png", "Time to solution vs node count"))
        if plot_vs_nodes(done, axes, "energy_j", "energy to solution (J)", os.path.join(stage, "energy_vs_nodes.png")):
            images.append(("energy_vs_nodes.png", "Energy to solution vs node count"))
        front = plot_pareto(done, os.path.join(stage, "pareto.png"))
        if front:
            images.append(("pareto.png", "Energy-makespan Pareto front"))
        write_page(stage, rows, done, axes, images, front)
        shutil.rmtree(final, ignore_errors=True)
        os.rename(stage, final)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    print(os.path.join(final, "index.html"))


if __name__ == "__main__":
    main()
