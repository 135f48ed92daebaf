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


def simgrid_program(build, name):
    """SimGrid's `name` (smpirun, smpicc, ...) of the installation the build uses (its CMake cache);
    a sanitizer build's own launcher of it when it has one (build/sanitizers/, docs/SANITIZERS.md)."""
    launcher = os.path.join(os.path.abspath(build), "sanitizers", name)
    if os.access(launcher, os.X_OK):
        return launcher
    key = name.upper() + ":FILEPATH="
    with open(os.path.join(os.path.abspath(build), "CMakeCache.txt")) as cache:
        for line in cache:
            if line.startswith(key):
                return line[len(key):].strip()
    sys.exit(f"{build}: its CMake cache names no {name} (configure the build first)")


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


def provenance(script_start=None):
    """One Markdown line saying how a results file was made: the command (paths inside the
    repository relative to it, other absolute paths shortened to their last part, so that no
    machine's paths are committed under docs/results), the date and the commit."""
    import datetime
    import time
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def portable(arg):
        if not os.path.isabs(arg):
            return arg
        if os.path.commonpath([repo, arg]) == repo:
            return os.path.relpath(arg, repo)
        return ".../" + os.path.basename(arg.rstrip("/"))

    argv = [os.path.relpath(os.path.abspath(sys.argv[0]), repo)] + [portable(a) for a in sys.argv[1:]]
    try:
        commit = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    took = f", {time.time() - script_start:.0f} s" if script_start else ""
    return f"Written by `{' '.join(argv)}` on {datetime.date.today().isoformat()} (commit {commit}{took})."
