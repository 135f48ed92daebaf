"""What the experiment scripts (dvfs_experiment.py, balance_experiment.py) share: the build's
programs, a fresh output directory, and running a command as it is shown."""
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
