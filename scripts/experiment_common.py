"""What the experiment scripts (dvfs_experiment.py, balance_experiment.py) share: the build's
programs, a fresh output directory, running a command as it is shown, and writing the summary."""
import csv
import os
import shutil
import subprocess
import sys


def run(cmd, **kw):
    """Prints the command, runs it, stops the script if it fails."""
    print("+ " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)


def programs(build):
    """(haec, stencil_imbalance) of a build directory, as absolute paths."""
    build = os.path.abspath(build)
    return os.path.join(build, "bin", "haec"), os.path.join(build, "bin", "stencil_imbalance")


def fresh_directory(path, force, script):
    """Creates `path`; an existing one is replaced only with --force."""
    out = os.path.abspath(path)
    if os.path.exists(out):
        if not force:
            sys.exit(f"{script}: {out} exists; add --force to replace it")
        shutil.rmtree(out)
    os.makedirs(out)
    return out


def idle_table(name, hosts, digits):
    """The per-host idle table of one run, as summary.md lines."""
    lines = ["", f"Idle time per host, {name}:\n", "| host | idle (s) | idle % |", "|---|---|---|"]
    for h in hosts:
        lines.append(f"| {h['host']} | {float(h['idle_s']):.{digits}f} | {float(h['idle_pct']):.2f} |")
    return lines


def write_summary(out, lines, header, table):
    """Prints the summary and writes it (summary.md) and its table (table.csv) into `out`."""
    text = "\n".join(lines) + "\n"
    print(text)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(text)
    with open(os.path.join(out, "table.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(table)
