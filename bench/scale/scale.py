#!/usr/bin/python3
"""Scale benchmark: an LU-like TI trace (bench/scale/gen_lu_trace.py) replayed with one rank per node
of a torus by `haec run --link dor`, against bare SimGrid 3.32 (Debian's smpirun, no suite) on the
equivalent XML torus, in the same run.

    bench/scale/scale.py BUILD [--sizes 64,256,1024,4096] [--iterations 5] [--pairs 5]
                         [--simgrid auto|debian|patched] [--allreduce ALGORITHM] [--leak]

For each size: --pairs alternated pairs (the order flips every pair) of bare SimGrid and haec run,
each timed as a whole process tree (/usr/bin/time: CPU = user + system of the process and all its
children, peak RSS of the largest process); reported are medians, network transfers per second of
CPU time and the median of the per-pair speed-ups (bare CPU / ours CPU). Then the makespan check,
like with like: the same haec run on SimGrid's own components (Debian's library, SimGrid's own trace
reader: --simgrid debian --cfg haec/replay/reader:simgrid), whose makespan ours must equal to 1e-9
relative. Bare SimGrid's makespan is printed too; it differs, as its network model is not DOR.
Bare SimGrid gets the SimGrid settings haec run gives it with a link model (smpi/host-speed:1Gf,
network/crosstraffic:0, surf/precision:1e-13) and, with --allreduce, the same smpi/allreduce.
Targets (4096 ranks): >= 100,000 transfers per second of CPU time, peak RSS <= 1 GiB, makespan equal
to 1e-9. Work files and traces: BUILD/bench-scale/ (traces kept and reused).
"""
import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DIMS = {64: "4x4x4", 256: "8x8x4", 1024: "16x8x8", 4096: "16x16x16", 512: "8x8x8", 2048: "16x16x8"}
TARGET_RATE, TARGET_RSS_MIB, TARGET_REL = 100000, 1024, 1e-9


def timed(argv, log, time_file):
    """Runs argv under /usr/bin/time; returns (cpu s, wall s, peak RSS MiB)."""
    with open(log, "w") as out:
        rc = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", time_file] + argv, stdout=out,
                            stderr=subprocess.STDOUT).returncode
    if rc != 0:
        sys.exit(f"scale: command failed (exit {rc}), see {log}: {shlex.join(argv)}")
    wall, user, system, rss_kib = open(time_file).read().split()[-4:]
    return float(user) + float(system), float(wall), int(rss_kib) / 1024


def trace_for(work, ranks, iterations):
    d = os.path.join(work, "traces", f"lu-{ranks}r-{iterations}i-nz8")
    trace = os.path.join(d, "lu.txt")
    gen = os.path.join(HERE, "gen_lu_trace.py")
    if not os.path.exists(trace) or os.path.getmtime(gen) > os.path.getmtime(trace):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        subprocess.run(["/usr/bin/python3", gen, "--ranks", str(ranks), "--iterations", str(iterations), "--out", d],
                       check=True, stdout=subprocess.DEVNULL)
    return trace


def summary(run_dir):
    return json.load(open(os.path.join(run_dir, "summary.json")))


class Size:
    def __init__(self, args, work, ranks):
        self.args, self.work, self.ranks, self.dims = args, work, ranks, DIMS[ranks]
        self.trace = trace_for(work, ranks, args.iterations)
        self.haec = os.path.join(args.build, "bin", "haec")
        self.extra = ["--cfg", f"smpi/allreduce:{args.allreduce}"] if args.allreduce else []

    def haec_run(self, out, more=()):
        return [self.haec, "run", "--platform", f"torus:{self.dims}", "--link", "dor", "--replay", self.trace,
                "-np", str(self.ranks), "--out", out, "--force", "-q"] + list(more) + self.extra

    def bare_run(self, ours_dir):
        """Bare SimGrid on <cluster topology="TORUS">: the same hosts (node i = x + X*y + X*Y*z), speeds,
        links and rank placement as haec's platform.json and hostfile."""
        p = json.load(open(os.path.join(ours_dir, "platform.json")))
        x, y, z = self.dims.split("x")
        xml = os.path.join(self.work, f"torus-{self.dims}.xml")
        link, loop = p["links"]["link"], p["loopback"]
        open(xml, "w").write(f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="torus" prefix="node-" suffix="" radical="0-{self.ranks - 1}" speed="{p['node']['speeds_flops'][0]}f"
           core="{p['node']['cores']}" bw="{link['bandwidth_Bps']}Bps" lat="{link['latency_s']}s"
           loopback_bw="{loop['bandwidth_Bps']}Bps" loopback_lat="{loop['latency_s']}s"
           topology="TORUS" topo_parameters="{x},{y},{z}"/>
</platform>
""")
        hosts = os.path.join(self.work, f"bare-{self.dims}.hosts")
        X, Y = int(x), int(y)
        with open(hosts, "w") as f:
            for line in open(os.path.join(ours_dir, "hostfile")):
                name, _, count = line.strip().partition(":")
                _, a, b, c = name.split("-")
                f.write(f"node-{int(a) + X * int(b) + X * Y * int(c)}" + (f":{count}" if count else "") + "\n")
        cfg = ["--cfg=smpi/host-speed:1Gf", "--cfg=network/crosstraffic:0", "--cfg=surf/precision:1e-13"]
        if self.args.allreduce:
            cfg.append(f"--cfg=smpi/allreduce:{self.args.allreduce}")
        return ["/usr/bin/smpirun", "-np", str(self.ranks), "-platform", xml, "-hostfile", hosts] + cfg + \
               ["-replay", self.trace]

    def measure(self):
        ours_dir = os.path.join(self.work, f"run-{self.dims}")
        base = os.path.join(self.work, f"{self.dims}")
        ours = self.haec_run(ours_dir, ["--simgrid", self.args.simgrid])
        timed(ours, base + "-ours.log", base + "-ours.time")  # warm-up; writes platform.json and hostfile
        bare = self.bare_run(ours_dir)
        sides = {"bare": [], "ours": []}
        for p in range(self.args.pairs):
            order = ["bare", "ours"] if p % 2 == 0 else ["ours", "bare"]
            for side in order:
                argv = bare if side == "bare" else ours
                sides[side].append(timed(argv, f"{base}-{side}.log", f"{base}-{side}.time"))
        s = summary(ours_dir)
        r = dict(transfers=s["messages"], makespan=s["makespan_s"], library=s.get("simgrid_library", "?"),
                 bare_cmd=bare, ours_cmd=ours)
        for side, runs in sides.items():
            r[side] = {k: statistics.median(v[i] for v in runs) for i, k in enumerate(("cpu", "wall", "rss"))}
        r["speedup"] = statistics.median(b[0] / o[0] for b, o in zip(sides["bare"], sides["ours"]))
        bare_log = open(base + "-bare.log").read()
        r["bare_makespan"] = float(bare_log.rsplit("Simulation time ", 1)[1].split()[0])
        if not self.args.no_reference:
            ref_dir = os.path.join(self.work, f"reference-{self.dims}")
            timed(self.haec_run(ref_dir, ["--simgrid", "debian", "--cfg", "haec/replay/reader:simgrid"]),
                  base + "-ref.log", base + "-ref.time")
            r["reference"] = summary(ref_dir)["makespan_s"]
        return r


def leak_check(args, work):
    """valgrind on the simulator of a small haec run: bytes definitely lost (all, and through our code)."""
    size = Size(args, work, 256)
    size.trace = trace_for(work, 256, 2)
    out = os.path.join(work, "leak-run")
    timed(size.haec_run(out, ["--simgrid", args.simgrid]), out + ".log", out + ".time")
    argv = shlex.split(open(os.path.join(out, "command.txt")).read())
    i = argv.index("-wrapper")
    vg_log = os.path.join(work, "leak-valgrind.log")
    argv[i + 1] += f" valgrind --leak-check=full --show-leak-kinds=definite --num-callers=40 --log-file={vg_log}"
    leak_out = os.path.join(work, "leak-out")
    shutil.rmtree(leak_out, ignore_errors=True)
    os.makedirs(leak_out)
    argv = [a.replace(f"haec/out:{out}", f"haec/out:{leak_out}") for a in argv]
    timed(argv, os.path.join(work, "leak-smpirun.log"), os.path.join(work, "leak.time"))
    lost_all = lost_ours = 0
    record, n, ours = False, 0, False
    for line in open(vg_log).read().splitlines() + ["==0== "]:
        if "are definitely lost in loss record" in line:
            n, record, ours = int(line.split()[1].replace(",", "")), True, False
            lost_all += n
        elif record and ("libhaec_" in line or args.build in line):
            ours = True
        elif record and line.rstrip().endswith("=="):
            lost_ours += n if ours else 0
            record = False
    errors = [l for l in open(vg_log) if "ERROR SUMMARY" in l][-1].split("ERROR SUMMARY:")[1].strip()
    print(f"leak check (valgrind on the simulator, 256 ranks, 2 iterations): definitely lost "
          f"{lost_all} bytes, {lost_ours} through our code; {errors}")
    return lost_ours == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--sizes", default="64,256,1024,4096")
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--simgrid", default="auto", choices=["auto", "debian", "patched"])
    ap.add_argument("--allreduce", default="", help="smpi/allreduce algorithm for both sides (changes the makespan)")
    ap.add_argument("--no-reference", action="store_true", help="skip the makespan check run")
    ap.add_argument("--leak", action="store_true", help="also run valgrind's leak check on 256 ranks")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    if args.pairs < 5:
        sys.exit("scale: --pairs must be at least 5 (median of at least 5 alternated pairs)")
    work = os.path.join(args.build, "bench-scale")
    os.makedirs(work, exist_ok=True)
    print(f"scale benchmark: LU-like TI replay, {args.iterations} iterations, nz=8, one rank per torus node; "
          f"{args.pairs} alternated pairs; CPU = user + system of the whole process tree; "
          f"allreduce: {args.allreduce or 'SimGrid default'}")
    print(f"{'ranks':>5} {'transfers':>9} | {'bare cpu_s':>10} {'tr/s':>7} {'RSS_MiB':>7} | {'haec cpu_s':>10} "
          f"{'tr/s':>7} {'RSS_MiB':>7} | {'speed-up':>8} | {'makespan_s':>12} {'vs reference':>12} {'vs bare':>9}")
    ok = True
    for ranks in (int(s) for s in args.sizes.split(",")):
        r = Size(args, work, ranks).measure()
        rate = lambda side: r["transfers"] / r[side]["cpu"]
        rel = abs(r["makespan"] - r["reference"]) / r["reference"] if "reference" in r else float("nan")
        rel_bare = (r["makespan"] - r["bare_makespan"]) / r["bare_makespan"]
        print(f"{ranks:5d} {r['transfers']:9d} | {r['bare']['cpu']:10.2f} {rate('bare'):7.0f} {r['bare']['rss']:7.0f} | "
              f"{r['ours']['cpu']:10.2f} {rate('ours'):7.0f} {r['ours']['rss']:7.0f} | {r['speedup']:7.2f}x | "
              f"{r['makespan']:12.9f} {rel:12.1e} {rel_bare:+9.2e}", flush=True)
        if ranks == 4096:
            checks = [("transfers/s of CPU time >= 100,000", rate("ours") >= TARGET_RATE),
                      ("peak RSS <= 1 GiB", r["ours"]["rss"] <= TARGET_RSS_MIB),
                      ("makespan = reference to 1e-9", rel <= TARGET_REL)]
            print("      targets at 4096 ranks: " + "; ".join(f"{n}: {'PASS' if c else 'FAIL'}" for n, c in checks))
            ok = ok and all(c for _, c in checks)
        last = r
    print(f"(haec run used SimGrid {last['library']}; medians in seconds; speed-up: median of per-pair bare/haec "
          f"CPU ratios; vs reference: |haec - reference| / reference, the reference being the same haec run on "
          f"Debian's library with SimGrid's own trace reader; vs bare: makespan difference to bare SimGrid, whose "
          f"network model is not DOR)")
    print(f"commands (last size):\n  bare: {shlex.join(last['bare_cmd'])}\n  haec: {shlex.join(last['ours_cmd'])}")
    if args.leak:
        ok = leak_check(args, work) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
