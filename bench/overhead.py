#!/usr/bin/python3
"""The suite's own overhead against SimGrid alone, as a user runs it.

    bench/overhead.py BUILD [--iterations 40] [--pairs 5] [--modes replay,emulation] [--callgrind]

lu_like with 64 ranks on a 64-node XML cluster (12 cores, 3 pstates, wattage_per_state), one rank
per node, as a TI trace recorded once by SimGrid's own tracer (replay) and run live (emulation).
Three comparisons, each against SimGrid alone in the same run:
  (a) smpirun with the suite preloaded and no haec flag      vs plain smpirun          target <= 1.01
  (b) haec run --link none                                   vs plain smpirun          target <= 1.03
  (c) haec run --link dor --power --governor ondemand        vs plain smpirun          target <= 1.05
The baseline of (b) and (c) is the smpirun command haec wrote into command.txt, without the suite
(its -wrapper preloads, jemalloc's in a replay included, and its haec/ settings): the same SimGrid
settings and library, so the ratio is what haec run costs against plain smpirun (the SimGrid of
the build: its smpirun, named in the build's CMake cache; in replay haec's command, and so the
baseline, has smpi/privatization:no and haec's replayer, which replays as SimGrid's own). Each comparison runs --pairs alternated pairs (the order
flips every pair); reported: median CPU time (user + system of the whole process tree) and wall
time of each side, and the median of the per-pair ratios. --callgrind adds instruction counts
(repeatable on a busy machine) of the `haec run` process alone and of the simulator with and
without the suite, for (b) in replay. Work files: BUILD/bench-overhead/ (kept).
"""
import argparse
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import time

RANKS = 64
TARGETS = {"a": 1.01, "b": 1.03, "c": 1.05}
LABELS = {
    "a": "(a) suite preloaded, no haec flag",
    "b": "(b) haec run --link none",
    "c": "(c) --link dor --power --governor ondemand",
}

CLUSTER_XML = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-63" speed="2.3Gf,1.8Gf,1.2Gf" core="12"
           bw="1.25GBps" lat="1.5us" loopback_bw="100GBps" loopback_lat="10ns">
    <prop id="wattage_per_state" value="92.75:114.62:174.38,91.0:108.0:150.0,90.0:100.0:125.0"/>
    <prop id="wattage_off" value="10"/>
  </cluster>
</platform>
"""


def run(argv, log):
    """Runs argv; returns (cpu seconds of the whole process tree, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    with open(log, "w") as out:
        rc = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT).returncode
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if rc != 0:
        sys.exit(f"overhead: command failed (exit {rc}), see {log}: {shlex.join(argv)}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def without_suite(command_txt):
    """haec's smpirun command (command.txt) without the suite: its preload and haec/ settings go,
    any other variable of the -wrapper stays."""
    argv = shlex.split(open(command_txt).read())
    out = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "-wrapper":
            words = [w for w in shlex.split(argv[i + 1]) if not w.startswith("LD_PRELOAD=")]
            if words not in (["env"], ["env", "-S"]):
                out += ["-wrapper", " ".join(words)]
            i += 2
            continue
        if a.startswith("--cfg=haec/"):
            i += 1
            continue
        out.append(a)
        i += 1
    if "libhaec_suite" in " ".join(out):
        sys.exit(f"overhead: cannot take the suite out of {command_txt}")
    return out


class Bench:
    def __init__(self, build, work, iterations):
        self.build, self.work, self.iterations = build, work, iterations
        self.smpirun = next((line.split("=", 1)[1].strip() for line in open(os.path.join(build, "CMakeCache.txt"))
                             if line.startswith("SMPIRUN:FILEPATH=")), "smpirun")
        self.haec = os.path.join(build, "bin", "haec")
        self.suite = os.path.join(build, "lib", "libhaec_suite.so")
        self.app = os.path.join(build, "bin", "lu_like")
        self.xml = os.path.join(work, "cluster.xml")
        self.hosts = os.path.join(work, "hostfile")
        self.trace = os.path.join(work, "trace", "lu.txt")

    def prepare(self):
        for f in (self.haec, self.suite, self.app):
            if not os.path.exists(f):
                sys.exit(f"overhead: {f} missing: build first (cmake --build {self.build})")
        os.makedirs(self.work, exist_ok=True)
        open(self.xml, "w").write(CLUSTER_XML)
        open(self.hosts, "w").write("".join(f"h{i}\n" for i in range(RANKS)))
        shutil.rmtree(os.path.join(self.work, "trace"), ignore_errors=True)
        os.makedirs(os.path.join(self.work, "trace"))
        run([self.smpirun, "-np", str(RANKS), "-platform", self.xml, "-hostfile", self.hosts, "-trace-ti",
             f"--cfg=tracing/filename:{self.trace}", "--cfg=smpi/host-speed:1Gf", self.app, str(self.iterations)],
            os.path.join(self.work, "record.log"))

    def workload(self, mode):
        return ["-replay", self.trace] if mode == "replay" else [self.app, str(self.iterations)]

    def haec_run(self, mode, flags, out):
        argv = [self.haec, "run", "--platform", self.xml, "--hostfile", self.hosts, "-np", str(RANKS), "--out", out,
                "--force", "-q"] + flags
        return argv + (["--replay", self.trace] if mode == "replay" else ["--", self.app, str(self.iterations)])

    def commands(self, mode, which):
        """(baseline argv, candidate argv) of comparison `which` in `mode`."""
        out = os.path.join(self.work, f"out-{mode}-{which}")
        if which == "a":
            plain = [self.smpirun, "-np", str(RANKS), "-platform", self.xml, "-hostfile", self.hosts,
                     "--cfg=smpi/host-speed:1Gf"] + self.workload(mode)
            return plain, plain[:1] + ["-wrapper", f"env LD_PRELOAD={self.suite}"] + plain[1:]
        flags = ["--link", "none"] if which == "b" else ["--link", "dor", "--power", "--governor", "ondemand"]
        candidate = self.haec_run(mode, flags, out)
        run(candidate, out + ".log")  # once, for command.txt
        # The baseline reads haec's platform and hostfile from a copy: the candidate replaces `out`.
        keep = out + "-baseline"
        shutil.rmtree(keep, ignore_errors=True)
        shutil.copytree(out, keep)
        base = [a.replace(out + "/", keep + "/") for a in without_suite(os.path.join(out, "command.txt"))]
        return base, candidate

    def compare(self, mode, which, pairs):
        base, cand = self.commands(mode, which)
        log = os.path.join(self.work, f"{mode}-{which}")
        b_cpu, c_cpu, b_wall, c_wall, r_cpu, r_wall = [], [], [], [], [], []
        for p in range(pairs):
            order = [("b", base), ("c", cand)] if p % 2 == 0 else [("c", cand), ("b", base)]
            got = {side: run(argv, f"{log}-{side}.log") for side, argv in order}
            b_cpu.append(got["b"][0]); c_cpu.append(got["c"][0])
            b_wall.append(got["b"][1]); c_wall.append(got["c"][1])
            r_cpu.append(got["c"][0] / got["b"][0]); r_wall.append(got["c"][1] / got["b"][1])
        med = statistics.median
        return dict(base=base, cand=cand, b_cpu=med(b_cpu), c_cpu=med(c_cpu), b_wall=med(b_wall),
                    c_wall=med(c_wall), cpu=med(r_cpu), wall=med(r_wall), spread=(min(r_cpu), max(r_cpu)))

    def callgrind(self):
        """Instructions of haec run itself and of its simulator, and of the simulator alone ((b), replay)."""
        cg = os.path.join(self.work, "callgrind")
        shutil.rmtree(cg, ignore_errors=True)
        os.makedirs(cg)
        out = os.path.join(self.work, "out-callgrind")
        vg = ["valgrind", "--tool=callgrind"]
        run(vg + [f"--callgrind-out-file={cg}/haec.out", "--trace-children=no"] +
            self.haec_run("replay", ["--link", "none"], out), f"{cg}/haec.log")
        base = without_suite(os.path.join(out, "command.txt"))
        run(base[:1] + ["-wrapper", f"valgrind --tool=callgrind --callgrind-out-file={cg}/plain.out"] + base[1:],
            f"{cg}/plain.log")
        # The simulator that haec starts: its command.txt with valgrind added to the -wrapper.
        argv = shlex.split(open(os.path.join(out, "command.txt")).read())
        i = argv.index("-wrapper")
        argv[i + 1] += f" valgrind --tool=callgrind --callgrind-out-file={cg}/suite.out"
        run(argv, f"{cg}/suite.log")

        def total(f):
            for line in open(f):
                if line.startswith("summary:") or line.startswith("totals:"):
                    return int(line.split()[1])
            sys.exit(f"overhead: no total in {f}")
        plain, suite, haec = total(f"{cg}/plain.out"), total(f"{cg}/suite.out"), total(f"{cg}/haec.out")
        print(f"\ninstructions (callgrind, replay, (b)): simulator alone {plain:,}; simulator with the suite "
              f"{suite:,} ({suite / plain:.4f}x); the haec run process itself {haec:,} "
              f"({(suite + haec) / plain:.4f}x in all); profiles in {cg}/")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--iterations", type=int, default=40)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--modes", default="replay,emulation")
    ap.add_argument("--only", default="abc", help="comparisons to run, e.g. bc")
    ap.add_argument("--callgrind", action="store_true")
    args = ap.parse_args()
    if args.pairs < 5:
        sys.exit("overhead: --pairs must be at least 5 (median of at least 5 alternated pairs)")
    build = os.path.abspath(args.build)
    bench = Bench(build, os.path.join(build, "bench-overhead"), args.iterations)
    bench.prepare()
    print(f"overhead benchmark: lu_like, {RANKS} ranks, {args.iterations} iterations, 64-node XML cluster "
          f"(12 cores, 3 pstates, wattage_per_state), one rank per node; {args.pairs} alternated pairs each; "
          f"CPU = user + system of the whole process tree")
    print(f"{'mode':10} {'comparison':44} {'base_cpu':>8} {'cpu':>8} {'ratio':>7} {'base_wall':>9} {'wall':>8} "
          f"{'ratio':>7} {'target':>7}")
    failed = 0
    for mode in args.modes.split(","):
        for which in args.only:
            r = bench.compare(mode, which, args.pairs)
            ok = r["cpu"] <= TARGETS[which]
            failed += not ok
            print(f"{mode:10} {LABELS[which]:44} {r['b_cpu']:8.3f} {r['c_cpu']:8.3f} {r['cpu']:7.3f} "
                  f"{r['b_wall']:9.3f} {r['c_wall']:8.3f} {r['wall']:7.3f} {'<=' + str(TARGETS[which]):>7} "
                  f"{'PASS' if ok else 'FAIL'} (CPU ratios {r['spread'][0]:.3f}..{r['spread'][1]:.3f})", flush=True)
            with open(os.path.join(bench.work, f"commands-{mode}-{which}.txt"), "w") as f:
                f.write(f"baseline:  {shlex.join(r['base'])}\ncandidate: {shlex.join(r['cand'])}\n")
    print(f"(times: medians in seconds; ratio: median of the per-pair ratios; commands in {bench.work}/commands-*.txt)")
    if args.callgrind:
        bench.callgrind()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
