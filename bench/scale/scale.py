#!/usr/bin/python3
"""Scale benchmark: an LU-like TI trace (bench/scale/gen_lu_trace.py) replayed with one rank per node
of a torus by `haec run --link dor`, against bare SimGrid (smpirun -replay, no suite) on the equivalent
XML torus, in the same run.

    bench/scale/scale.py BUILD [--sizes 64,256,1024,4096] [--iterations 5] [--pairs 5]
                         [--variants default,system,default:rdb] [--allreduce ALGORITHM] [--leak]
                         [--baseline PREFIX] [--no-reference]

haec run is the build's: it runs the SimGrid the build was made against (`haec --version`).
Bare SimGrid is the smpirun of that same SimGrid (the build's CMake cache names it), or
PREFIX/bin/smpirun with --baseline PREFIX (e.g. another SimGrid version installed in PREFIX); its
version is printed in the header and every speed-up is against it.

For each size: --pairs rounds, each running bare SimGrid and every haec run variant once
(--variants: `default` is haec run as a user runs it (jemalloc in a replay where installed); `system`
runs with glibc's malloc (--allocator system), to show the allocator's share; `tty` is `default` with its
stderr on a pseudo-terminal and without -q, so that it draws the progress line (its cost: the median of
the per-round CPU ratios tty/default is printed); VARIANT:ALGORITHM also
selects smpi/allreduce:ALGORITHM for that variant only, a model change whose effect on the makespan
is printed beside it), the order rotating every round; each run is timed as a whole process tree
(/usr/bin/time: CPU = user + system of the process and all its children, peak RSS of the largest
process). Reported: medians, network transfers per second of CPU time, and the median of the
per-round speed-ups (bare CPU / haec CPU).
Then the makespan check, like with like: the reference is the same haec run with every speed-up of
the suite that can be turned off turned off (glibc's malloc: --allocator system; as
tests/integration/test_scale_reduced.sh), whose makespan every variant must equal to 1e-9 relative
(with the variant's allreduce). Bare SimGrid's makespan is printed too; it differs, as its network
model is not DOR. Bare SimGrid is smpirun -replay as a user runs it (SimGrid's default
privatization) with the SimGrid settings haec run gives it with a link model (smpi/host-speed:1Gf,
network/crosstraffic:0, and surf/precision:1e-13 or precision/timing:1e-13, the name of its
version) and, with --allreduce, the same smpi/allreduce.
Targets (4096 ranks): >= 100,000 transfers per second of CPU time, and 2.5x the bare SimGrid measured
in the same run; peak RSS <= 1 GiB; makespan equal to 1e-9. Work files and traces:
BUILD/bench-scale/ (traces kept and reused). Exit 0 when every size ran and the 4096-rank targets
(when 4096 is among the sizes) are met by haec run's default configuration, 1 otherwise.
"""
import argparse
import json
import os
import pty
import shlex
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The makespan reference: every speed-up of the suite that can be turned off, off (as in
# tests/integration/test_scale_reduced.sh).
REFERENCE_OPTIONS = ["--allocator", "system"]
DIMS = {64: "4x4x4", 256: "8x8x4", 1024: "16x8x8", 4096: "16x16x16", 512: "8x8x8", 2048: "16x16x8"}
TARGET_RATE, TARGET_SPEEDUP, TARGET_RSS_MIB, TARGET_REL = 100000, 2.5, 1024, 1e-9


def timed(argv, log, time_file, terminal=False):
    """Runs argv under /usr/bin/time; returns (cpu s, wall s, peak RSS MiB). terminal: its stderr is a
    pseudo-terminal, drained as it is written (what reaches it is appended to the log)."""
    timed_argv = ["/usr/bin/time", "-f", "%e %U %S %M", "-o", time_file] + argv
    with open(log, "w") as out:
        if terminal:
            master, slave = pty.openpty()
            p = subprocess.Popen(timed_argv, stdin=subprocess.DEVNULL, stdout=out, stderr=slave)
            os.close(slave)
            seen = b""
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: no writer left
                    break
                if not chunk:
                    break
                seen += chunk
            os.close(master)
            rc = p.wait()
            out.write(seen.decode(errors="replace"))
        else:
            rc = subprocess.run(timed_argv, stdout=out, stderr=subprocess.STDOUT).returncode
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

    def haec_run(self, out, more=(), allreduce=None, quiet=True):
        """allreduce: this run's smpi/allreduce (None: --allreduce, the bare side's); quiet: -q (no table,
        no progress line)."""
        algorithm = self.args.allreduce if allreduce is None else allreduce
        return [self.haec, "run", "--platform", f"torus:{self.dims}", "--link", "dor", "--replay", self.trace,
                "-np", str(self.ranks), "--out", out, "--force"] + (["-q"] if quiet else []) + list(more) + \
               (["--cfg", f"smpi/allreduce:{algorithm}"] if algorithm else [])

    def run_dir(self, variant):
        return os.path.join(self.work, f"run-{self.dims}-{variant.replace(':', '-')}")

    def bare_run(self, ours_dir):
        """Bare SimGrid on <cluster topology="TORUS">: the same hosts (node i = x + X*y + X*Y*z), speeds,
        links and rank placement as haec's platform.json and hostfile."""
        p = json.load(open(os.path.join(ours_dir, "platform.json")))
        x, y, z = self.dims.split("x")
        xml = os.path.join(self.work, f"torus-{self.dims}.xml")
        link, loop = p["links"]["link"], p["loopback"]
        # The cluster inside a zone: a stock SimGrid 4.0/4.1 crashes on a torus cluster directly under <platform>.
        open(xml, "w").write(f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
 <zone id="world" routing="Full">
  <cluster id="torus" prefix="node-" suffix="" radical="0-{self.ranks - 1}" speed="{p['node']['speeds_flops'][0]}f"
           core="{p['node']['cores']}" bw="{link['bandwidth_Bps']}Bps" lat="{link['latency_s']}s"
           loopback_bw="{loop['bandwidth_Bps']}Bps" loopback_lat="{loop['latency_s']}s"
           topology="TORUS" topo_parameters="{x},{y},{z}"/>
 </zone>
</platform>
""")
        hosts = os.path.join(self.work, f"bare-{self.dims}.hosts")
        X, Y = int(x), int(y)
        with open(hosts, "w") as f:
            for line in open(os.path.join(ours_dir, "hostfile")):
                name, _, count = line.strip().partition(":")
                _, a, b, c = name.split("-")
                f.write(f"node-{int(a) + X * int(b) + X * Y * int(c)}" + (f":{count}" if count else "") + "\n")
        precision = "precision/timing" if version_tuple(self.args.baseline_version) >= (3, 34) else "surf/precision"
        cfg = ["--cfg=smpi/host-speed:1Gf", "--cfg=network/crosstraffic:0", f"--cfg={precision}:1e-13"]
        if self.args.allreduce:
            cfg.append(f"--cfg=smpi/allreduce:{self.args.allreduce}")
        return [os.path.join(self.args.baseline, "bin", "smpirun"), "-np", str(self.ranks), "-platform", xml, "-hostfile", hosts] + cfg + \
               ["-replay", self.trace]

    def measure(self, variants):
        """Alternated rounds of bare SimGrid and each haec run variant (the order rotates every round)."""
        base = os.path.join(self.work, f"{self.dims}")
        ours = {v: self.haec_run(self.run_dir(v), allocator_of(v), allreduce_of(v), not at_terminal(v)) for v in variants}
        for v, argv in ours.items():  # warm-up; writes platform.json and hostfile
            timed(argv, f"{base}-{v}.log", f"{base}-{v}.time", at_terminal(v))
        bare = self.bare_run(self.run_dir(variants[0]))
        argvs = dict(bare=bare, **ours)
        sides = {side: [] for side in argvs}
        names = list(argvs)
        for p in range(self.args.pairs):
            for side in names[p % len(names):] + names[:p % len(names)]:
                sides[side].append(timed(argvs[side], f"{base}-{side}.log", f"{base}-{side}.time", at_terminal(side)))
        r = dict(cmds=argvs)
        for side, runs in sides.items():
            r[side] = {k: statistics.median(v[i] for v in runs) for i, k in enumerate(("cpu", "wall", "rss"))}
            if side == "tty" and "default" in sides:  # the progress line's cost, round by round
                r["tty_ratio"] = statistics.median(t[0] / d[0] for t, d in zip(runs, sides["default"]))
            if side != "bare":
                s = summary(self.run_dir(side))
                r[side].update(transfers=s["messages"], makespan=s["makespan_s"], library=s.get("simgrid_library", "?"),
                               speedup=statistics.median(b[0] / o[0] for b, o in zip(sides["bare"], runs)))
        if len({(allreduce_of(v), r[v]["transfers"]) for v in variants}) != len({allreduce_of(v) for v in variants}):
            sys.exit(f"scale: variants with the same allreduce count different transfers at {self.ranks} ranks")
        # The allreduce decides a collective's transfers: bare SimGrid's are those of a variant with its allreduce.
        r["transfers"] = r[next(v for v in variants if allreduce_of(v) is None)]["transfers"]
        r["bare_allreduce"] = self.args.allreduce or None
        bare_log = open(base + "-bare.log").read()
        r["bare"]["makespan"] = float(bare_log.rsplit("Simulation time ", 1)[1].split()[0])
        if not self.args.no_reference:  # one reference per allreduce in use
            r["reference"] = {}
            for algorithm in sorted({allreduce_of(v) for v in variants}, key=str):
                ref_dir = os.path.join(self.work, f"reference-{self.dims}-{algorithm or 'default'}")
                timed(self.haec_run(ref_dir, REFERENCE_OPTIONS, algorithm),
                      base + "-ref.log", base + "-ref.time")
                r["reference"][algorithm] = summary(ref_dir)["makespan_s"]
        return r


def simgrid_version(prefix):
    """The version of the SimGrid library in prefix, from its file name (libsimgrid.so.X.Y)."""
    import glob
    for lib in sorted(glob.glob(os.path.join(prefix, "lib*", "libsimgrid.so.*")) +
                      glob.glob(os.path.join(prefix, "lib", "*-linux-gnu", "libsimgrid.so.*"))):
        version = lib.rsplit("libsimgrid.so.", 1)[1]
        if version[:1].isdigit():
            return version
    return "unknown"


def version_tuple(version):
    """'3.32.0' -> (3, 32, 0); an unknown version -> (0,)."""
    digits = [int(part) for part in version.split(".") if part.isdigit()]
    return tuple(digits) or (0,)


def build_simgrid(build):
    """(prefix, version) of the SimGrid the build was made against: the smpirun its CMake cache names
    (PREFIX/bin/smpirun) and the `SimGrid ...` line of `haec --version`."""
    cache = os.path.join(build, "CMakeCache.txt")
    smpirun = next((line.split("=", 1)[1].strip() for line in open(cache) if line.startswith("SMPIRUN:FILEPATH=")),
                   None) if os.path.exists(cache) else None
    if not smpirun:
        sys.exit(f"scale: {build} is not a haec-smpi build (no SMPIRUN in its CMakeCache.txt): give the build "
                 f"directory, or the bare SimGrid with --baseline PREFIX")
    out = subprocess.run([os.path.join(build, "bin", "haec"), "--version"], capture_output=True, text=True).stdout
    line = next((l for l in out.splitlines() if l.startswith("SimGrid ")), "SimGrid unknown")
    return os.path.dirname(os.path.dirname(smpirun)), line


def allocator_of(variant):
    """system[:ALGORITHM]: glibc's malloc instead of haec run's default (jemalloc in a replay)."""
    return ["--allocator", "system"] if variant.split(":")[0] == "system" else []


def at_terminal(variant):
    """tty[:ALGORITHM]: haec run at a (pseudo-)terminal, drawing its progress line."""
    return variant.split(":")[0] == "tty"


def allreduce_of(variant):
    """The variant's own smpi/allreduce (LIBRARY:ALGORITHM), or None: the bare side's (--allreduce)."""
    return variant.split(":", 1)[1] if ":" in variant else None


def leak_check(args, work):
    """valgrind on the simulator of a small haec run: bytes definitely lost (all, and through our code)."""
    size = Size(args, work, 256)
    size.trace = trace_for(work, 256, 2)
    out = os.path.join(work, "leak-run")
    # glibc's malloc: valgrind's memcheck replaces it (a preloaded jemalloc would hide the allocations)
    timed(size.haec_run(out, ["--allocator", "system"]), out + ".log", out + ".time")
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


def print_header(args, variants):
    print(f"scale benchmark: LU-like TI replay, {args.iterations} iterations, nz=8, one rank per torus node; "
          f"{args.pairs} rounds (bare SimGrid and each haec run variant, order rotating); CPU = user + system of "
          f"the whole process tree; allreduce: {args.allreduce or 'SimGrid default'}")
    print(f"haec run: {args.haec_simgrid} (the build's SimGrid)")
    print(f"bare: SimGrid {args.baseline_version} (smpirun -replay of {args.baseline}); speed-up = bare CPU / "
          f"haec run CPU, per round, median")
    cols = f"{'ranks':>5} {'transfers':>9} | {'bare cpu_s':>10} {'tr/s':>7} {'RSS_MiB':>7}"
    for v in variants:
        cols += f" | {'haec ' + v + ' cpu_s':>19} {'tr/s':>7} {'RSS_MiB':>7} {'speed-up':>8} {'vs ref':>8}"
    print(cols + f" | {'makespan_s':>12} {'vs bare':>9}")


def print_row(ranks, r, variants):
    rate = lambda side: r[side].get("transfers", r["transfers"]) / r[side]["cpu"]
    row = f"{ranks:5d} {r['transfers']:9d} | {r['bare']['cpu']:10.2f} {rate('bare'):7.0f} {r['bare']['rss']:7.0f}"
    for v in variants:
        ref = r["reference"][allreduce_of(v)] if "reference" in r else float("nan")
        rel = abs(r[v]["makespan"] - ref) / ref
        r[v]["rel"] = rel
        row += (f" | {r[v]['cpu']:19.2f} {rate(v):7.0f} {r[v]['rss']:7.0f} {r[v]['speedup']:7.2f}x {rel:8.1e}")
    same = next(v for v in variants if allreduce_of(v) is None)  # bare SimGrid's allreduce
    ours = r[same]["makespan"]
    print(row + f" | {ours:12.9f} {(ours - r['bare']['makespan']) / r['bare']['makespan']:+9.2e}", flush=True)
    if "tty_ratio" in r:
        print(f"      tty: haec run drawing its progress line at a terminal takes {r['tty_ratio']:.3f}x the CPU "
              f"of the same run without a terminal (median of the per-round ratios)", flush=True)
    for v in (v for v in variants if allreduce_of(v) not in (None, r["bare_allreduce"])):
        # a model change, not a speed-up alone: say what it does to the prediction
        effect = (r[v]["makespan"] - r[same]["makespan"]) / r[same]["makespan"]
        print(f"      {v}: smpi/allreduce:{allreduce_of(v)} changes the makespan by {effect:+.3%} "
              f"({r[v]['makespan']:.9f} s against {r[same]['makespan']:.9f} s) and simulates "
              f"{r[v]['transfers']:,} transfers instead of {r[same]['transfers']:,}", flush=True)


def targets(args, r, variants):
    """The targets at 4096 ranks, printed for every variant. Met when haec run as a user runs it
    (a variant with glibc's malloc or its own allreduce is a comparison, not haec run's default) meets
    them all."""
    met = False
    for v in variants:
        rate = r[v]["transfers"] / r[v]["cpu"]
        checks = [(f"transfers/s of CPU time >= 100,000 ({rate:,.0f})", rate >= TARGET_RATE),
                  (f"speed-up over bare {args.baseline_version} >= {TARGET_SPEEDUP}x ({r[v]['speedup']:.2f}x)", r[v]["speedup"] >= TARGET_SPEEDUP),
                  (f"peak RSS <= 1 GiB ({r[v]['rss']:.0f} MiB)", r[v]["rss"] <= TARGET_RSS_MIB),
                  ("makespan = reference to 1e-9", r[v].get("rel", float("nan")) <= TARGET_REL)]
        default = allreduce_of(v) is None and not allocator_of(v) and not at_terminal(v)
        print(f"      targets at 4096 ranks (haec {v}{', as haec run runs by default' if default else ''}): " +
              "; ".join(f"{n}: {'PASS' if c else 'FAIL'}" for n, c in checks))
        met = met or (default and all(c for _, c in checks))
    print(f"      targets {'met' if met else 'NOT met'} by haec run's default configuration")
    return met


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--sizes", default="64,256,1024,4096")
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--variants", default="default,system,default:rdb",
                    help="haec run variants (comma-separated: default, haec run as a user runs it; system, with "
                         "glibc's malloc; tty, default at a pseudo-terminal, drawing its progress line; each "
                         "optionally :ALGORITHM for its own smpi/allreduce)")
    ap.add_argument("--allreduce", default="", help="smpi/allreduce algorithm for bare SimGrid and the variants "
                                                    "without their own (changes the makespan)")
    ap.add_argument("--baseline", help="prefix of the bare SimGrid to compare with (PREFIX/bin/smpirun; default: "
                                       "the prefix of the SimGrid the build was made against)")
    ap.add_argument("--no-reference", action="store_true", help="skip the makespan check run")
    ap.add_argument("--leak", action="store_true", help="also run valgrind's leak check on 256 ranks")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    if not os.access(os.path.join(args.build, "bin", "haec"), os.X_OK):
        sys.exit(f"scale: no haec in {args.build} ({args.build}/bin/haec missing): give a build directory of haec-smpi")
    build_prefix, args.haec_simgrid = build_simgrid(args.build)
    args.baseline = os.path.abspath(args.baseline or build_prefix)
    if not os.access(os.path.join(args.baseline, "bin", "smpirun"), os.X_OK):
        sys.exit(f"scale: no SimGrid in {args.baseline} ({args.baseline}/bin/smpirun missing): give the prefix of an "
                 f"installed SimGrid with --baseline")
    args.baseline_version = simgrid_version(args.baseline)
    if args.pairs < 5:
        sys.exit("scale: --pairs must be at least 5 (median of at least 5 alternated rounds)")
    variants = [v for v in args.variants.split(",") if v]
    for v in variants:
        if v.split(":")[0] not in ("default", "system", "tty") or v.endswith(":") or variants.count(v) > 1:
            sys.exit(f"scale: --variants {v}: give default, system or tty, each optionally :ALGORITHM "
                     f"(smpi/allreduce), each once, e.g. --variants default,system,default:rdb")
    if all(allreduce_of(v) is not None for v in variants):
        sys.exit("scale: --variants needs one variant without its own allreduce (bare SimGrid's transfers are counted "
                 "from it); add e.g. 'default'")
    sizes = args.sizes.split(",")
    if not all(n.isdigit() and int(n) in DIMS for n in sizes):
        sys.exit(f"scale: --sizes {args.sizes}: give rank counts among {','.join(map(str, sorted(DIMS)))}")
    work = os.path.join(args.build, "bench-scale")
    os.makedirs(work, exist_ok=True)
    print_header(args, variants)
    ok = True
    for ranks in map(int, sizes):
        r = Size(args, work, ranks).measure(variants)
        print_row(ranks, r, variants)
        wrong = [v for v in variants if "reference" in r and not r[v]["rel"] <= TARGET_REL]
        if wrong:
            print(f"      makespan differs from the reference by more than {TARGET_REL:g} at {ranks} ranks: "
                  f"{', '.join(wrong)} (a wrong result, not a slow one)", flush=True)
            ok = False
        if ranks == 4096:
            ok = targets(args, r, variants) and ok
        last = r
    libs = ", ".join(sorted({last[v]["library"] for v in variants}))
    print(f"(haec run's SimGrid library: {libs}; medians in seconds; speed-up: median of per-round "
          f"bare/haec CPU ratios; vs ref: |haec - reference| / reference of the makespan, the reference being the "
          f"same haec run with {shlex.join(REFERENCE_OPTIONS)}; vs bare: makespan difference to "
          f"bare SimGrid, whose network model is not DOR)")
    print("commands (last size):\n" + "\n".join(f"  {k}: {shlex.join(v)}" for k, v in last["cmds"].items()))
    if args.leak:
        ok = leak_check(args, work) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
