#!/usr/bin/python3
"""Speed of every `haec map` strategy on 4096 ranks (target: <= 10 s each on 16x16x16).

    mapping_speed.py [--build build] [--platform torus:16x16x16] [--pattern stencil|lu] [--repeats 5]
                     [--strategies a,b,...]

Traffic: a 16x16x16 7-point stencil (stencil, 8 KB per neighbour) or a 64x64 LU-like 2-D
wavefront (lu), written as traffic_matrix.csv. For each strategy, `--repeats` alternated pairs of
whole `haec map` processes (baseline xyz, then the strategy): median wall and CPU (user + system)
seconds, and the ratios to the baseline of the same pairs. The mapping time `haec map` reports
(the strategy alone, without reading the matrix) is printed too. A strategy that declines (size
limit) shows its one-line error.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

STRATEGIES = ("xyz block-xyz random min-md sweep scan peano hilbert gray bokhari topo-aware greedy fhgreedy "
              "greedy-allc bipartition pacmap scotch auto").split()


def write_traffic(path, pattern):
    with open(path, "w") as f:
        f.write("src_rank,dst_rank,messages,bytes\n")
        if pattern == "stencil":
            n = 16
            for r in range(n ** 3):
                x, y, z = r % n, r // n % n, r // (n * n)
                for d, size in ((1, 1), (n, 1), (n * n, 1)):
                    c = (x, y, z)[{1: 0, n: 1, n * n: 2}[d]]
                    if c + 1 < n:
                        f.write(f"{r},{r + d},10,80000\n{r + d},{r},10,80000\n")
        else:
            n = 64
            for r in range(n * n):
                x, y = r % n, r // n
                if x + 1 < n:
                    f.write(f"{r},{r + 1},40,96000\n{r + 1},{r},40,96000\n")
                if y + 1 < n:
                    f.write(f"{r},{r + n},40,96000\n{r + n},{r},40,96000\n")


def cpu_of(cmd):
    """Runs cmd to its end: (wall s, cpu s = user + system of the child, stdout, stderr, status)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.stdout, p.stderr, p.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--platform", default="torus:16x16x16")
    ap.add_argument("--pattern", choices=("stencil", "lu"), default="stencil")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--strategies", default=",".join(STRATEGIES))
    a = ap.parse_args()
    haec = os.path.abspath(os.path.join(a.build, "bin", "haec"))
    work = tempfile.mkdtemp(prefix="haec-mapping-speed-")
    traffic = os.path.join(work, "traffic_matrix.csv")
    write_traffic(traffic, a.pattern)
    base = [haec, "map", "--platform", a.platform, "--traffic", traffic, "-np", "4096", "--out", work + "/out"]
    print(f"{a.platform}, {a.pattern} traffic, 4096 ranks, median of {a.repeats} alternated pairs")
    print(f"{'strategy':12} {'wall_s':>8} {'cpu_s':>8} {'map_s':>8} {'wall/xyz':>9} {'cpu/xyz':>8}")
    for s in a.strategies.split(","):
        walls, cpus, maps, ratio_w, ratio_c = [], [], [], [], []
        for _ in range(a.repeats):
            bw, bc, _, _, _ = cpu_of(base + ["--map", "xyz"])
            w, c, out, err, status = cpu_of(base + ["--map", s])
            if status != 0:
                print(f"{s:12} declines: {err.strip()}")
                break
            walls.append(w)
            cpus.append(c)
            maps.append(float(re.search(r" in ([0-9.]+) s:", out).group(1)))
            ratio_w.append(w / bw)
            ratio_c.append(c / bc)
        else:
            m = statistics.median
            print(f"{s:12} {m(walls):8.2f} {m(cpus):8.2f} {m(maps):8.2f} {m(ratio_w):9.2f} {m(ratio_c):8.2f}", flush=True)
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    sys.exit(main())
