#!/usr/bin/env python3
"""The report of a campaign directory (haec campaign report DIR): PNG plots and DIR/report/index.html.

Reads DIR/results.csv (written by haec campaign run). Plots time- and energy-to-solution against
the platform's node count (one line per combination of the other axes, mean over seeds), the
energy-makespan Pareto front, and tables per mapping and per link model. Figures a run did not
compute are empty cells in results.csv and are left out, never drawn as 0. The report directory is
written next to its final place and renamed into it, so a failed report leaves none behind.

Every problem is one line on stderr: a results.csv that is not one of ours (a non-number where a
figure belongs, a row of the wrong length, bytes that are not UTF-8, ...) names the file, the line
and the column, exit 2; an output that cannot be written (full disk) exit 3. Never a traceback.
"""
import csv
import html
import io
import math
import os
import re
import shutil
import statistics
import sys

FIXED = ["run", "status", "ranks", "nodes", "nodes_used", "makespan_s", "energy_j", "host_energy_j",
         "link_energy_j", "messages", "bytes", "transfer_hops", "message_hops", "mapping", "link_model", "governor",
         "pstate_switches", "migrations", "result_dir", "log"]
SIZE_AXES = {"platform", "np", "seed"}  # the x axis and the repetitions, not a series
NUMBERS = ["makespan_s", "energy_j", "host_energy_j", "link_energy_j",
           "message_hops"]  # empty (not computed) or a finite number >= 0
TALLIES = ["messages", "bytes", "transfer_hops", "pstate_switches", "migrations"]  # empty or a whole number >= 0
COUNTS = ["ranks", "nodes", "nodes_used"]  # whole numbers, haec campaign run always writes them
STATUSES = {"done", "failed", "pending"}
CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # bytes no results.csv holds (tab, CR, LF aside)
LIMIT = 1e300  # beyond this, no plot can place a figure: not one of ours
FIX = "rewrite it with `haec campaign run` (the same command again rewrites results.csv)"
plt = None  # matplotlib.pyplot, loaded once results.csv has passed its checks


class BadInput(Exception):
    """One line for the user: where, what is wrong, how to fix it; exit status 2 or 3."""

    def __init__(self, where, problem, fix, status=2):
        super().__init__(f"{where}: {problem}; {fix}")
        self.status = status


def fail(where, problem, fix, status=2):
    raise BadInput(where, problem, fix, status)


def quoted(text, limit=40):
    """A cell quoted in an error line: escaped, at most `limit` characters."""
    text = text.encode("unicode_escape").decode("ascii")
    return "'" + (text if len(text) <= limit else text[:limit - 3] + "...") + "'"


def decode(path, data):
    """The file's text; a byte that is not UTF-8 names its line and column."""
    def where(at):
        start = data.rfind(b"\n", 0, at) + 1
        line = data.count(b"\n", 0, at) + 1
        return f"{path}:{line}", data.count(b",", start, at) + 1

    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (a file saved by a spreadsheet) is not text
    except UnicodeDecodeError as e:
        line, column = where(e.start)
        fail(line, f"column {column}: byte 0x{data[e.start]:02x} is not UTF-8", FIX)
    control = CONTROL.search(data)
    if control:  # a NUL or an escape byte: not text haec campaign run writes
        line, column = where(control.start())
        fail(line, f"column {column}: control byte 0x{data[control.start()]:02x} is not text", FIX)
    return text


def parse_csv(path, text):
    """The header and the rows with their line numbers; quoting errors name the line."""
    rows = []
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        for fields in reader:
            rows.append((reader.line_num, fields))
    except csv.Error as e:
        fail(f"{path}:{max(reader.line_num, 1)}", f"is not valid CSV ({e})", FIX)
    if not rows:
        fail(path, "is empty", FIX)
    return rows[0][1], rows[1:]


def check_header(path, header):
    if header[:2] != ["run", "status"]:
        fail(f"{path}:1", "is not a campaign results.csv (no run,status header)",
             "give the --out directory of `haec campaign run`")
    seen = set()
    for column in header:
        if column in seen:
            fail(f"{path}:1", f"column {quoted(column)} appears twice", FIX)
        seen.add(column)
    missing = [c for c in FIXED if c not in seen]
    if missing:
        fail(f"{path}:1", f"column {quoted(missing[0])} is missing", FIX)


def number(where, column, text, whole):
    """A cell of a figure column: None when empty, else a finite number >= 0 (whole if asked)."""
    if text == "":
        return None
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or value < 0 or value > LIMIT or (whole and value != int(value)):
        kind = "a whole number >= 0" if whole else "a finite number >= 0"
        fail(where, f"column {quoted(column)}: {quoted(text)} is not {kind}", FIX)
    return value


def check_row(path, line, header, fields, ids):
    """The row as a dict of checked values (figures as float or None)."""
    where = f"{path}:{line}"
    if len(fields) < len(header):
        fail(where, f"column {quoted(header[len(fields)])} is missing: the row has {len(fields)} fields, the header "
             f"{len(header)}", FIX)
    if len(fields) > len(header):
        fail(where, f"field {len(header) + 1} has no column: the row has {len(fields)} fields, the header "
             f"{len(header)}", FIX)
    row = dict(zip(header, fields))
    if row["status"] not in STATUSES:
        fail(where, f"column 'status': {quoted(row['status'])} is not done, failed or pending", FIX)
    if row["run"] == "" or row["run"] in ids:
        fail(where, f"column 'run': {quoted(row['run'])} is {'empty' if not row['run'] else 'given twice'}", FIX)
    ids.add(row["run"])
    for column in COUNTS + TALLIES:
        row[column] = number(where, column, row[column], whole=True)
    for column in NUMBERS:
        row[column] = number(where, column, row[column], whole=False)
    if row["status"] == "done":
        for column in ("makespan_s", "nodes"):
            if row[column] is None:
                fail(where, f"column {quoted(column)} is empty in a finished run", FIX)
        if row["nodes"] < 1:
            fail(where, "column 'nodes': a platform has at least 1 node", FIX)
    return row


def read_rows(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        fail(path, f"cannot be read ({e.strerror})", "check the path and its permissions")
    header, records = parse_csv(path, decode(path, data))
    check_header(path, header)
    axes = [c for c in header[2:] if c not in FIXED]
    ids = set()
    rows = [check_row(path, line, header, fields, ids) for line, fields in records]
    done = [r for r in rows if r["status"] == "done"]
    if not done:
        fail(path, "holds no finished run", "run the campaign first (haec campaign run)")
    return axes, rows, done


def legend_text(text):
    """Text for matplotlib: '$' would start mathematics, a leading '_' hides a legend entry."""
    text = text.replace("$", r"\$")
    return text if len(text) <= 80 else text[:77] + "..."


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
    if len(kinds) > 1:  # a row without a platform axis of its own is a kind of its own
        parts.insert(0, platform_kind(row, axes) or "(no platform axis)")
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
        ax.plot(xs, [statistics.mean(points[x]) for x in xs], marker="o", label=legend_text(name))
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


def check_target(out):
    """DIR/report must be free or a directory (a report of ours, replaced)."""
    final = os.path.join(out, "report")
    if os.path.islink(final) or (os.path.lexists(final) and not os.path.isdir(final)):
        fail(final, "exists and is not a report directory", "move it away or remove it")
    return final


def write_report(out, axes, rows, done):
    final = check_target(out)
    stage = f"{final}.tmp-{os.getpid()}"
    shutil.rmtree(stage, ignore_errors=True)
    try:
        os.makedirs(stage)
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
    except OSError as e:
        shutil.rmtree(stage, ignore_errors=True)
        fail(e.filename or final, f"cannot be written ({e.strerror})",
             "free space or check the directory's permissions; nothing was written", status=3)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return os.path.join(final, "index.html")


def report(out):
    """The whole report of campaign directory `out`; raises BadInput."""
    axes, rows, done = read_rows(os.path.join(out, "results.csv"))
    global plt
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        fail("haec campaign report", f"matplotlib cannot be loaded ({e})", "install python3-matplotlib", status=3)
    return write_report(out, axes, rows, done)


def one_line(text):
    text = " ".join(str(text).split())
    return text if len(text) <= 200 else text[:197] + "..."


def main():
    if len(sys.argv) != 2:
        print("haec: campaign_report.py: needs one argument; give the campaign directory", file=sys.stderr)
        return 2
    try:
        print(report(sys.argv[1]))
        return 0
    except BadInput as e:
        print(f"haec: {one_line(e)}", file=sys.stderr)
        return e.status
    except KeyboardInterrupt:
        print("haec: campaign report interrupted (SIGINT): nothing was written", file=sys.stderr)
        return 130
    except Exception as e:  # a defect of ours: still one line, never a traceback
        print(f"haec: campaign report failed ({type(e).__name__}: {one_line(e)}); please report it", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
