#!/usr/bin/python3
"""Does the PMPI layer change the time it predicts? (pmpi/own_work.hpp)

    bench/wrapper_fidelity.py BUILD [--pairs 7] [--apps short_bursts,lu_like] [--configs plain,dvfs,counters]
                              [--external NAME:HAEC_BINARY:SMPICC_BINARY[:ARGS]] ...

For each program, built twice from one source (`haec cc`: MPI through libhaec_pmpi; `smpicc`: SMPI
alone; both of the SimGrid the build was made against, the smpicc its CMake cache names, and both run
on that SimGrid), emulated makespans (summary.json, or SMPI's own "Simulated time" for plain smpirun) of
whole processes in alternated pairs; reported per comparison: median makespan of each side, the
median of the per-pair makespan ratios (and their range), the median CPU ratio (user + system of
the process tree), and the target 1.00 +- 0.01 on the makespan:
  build     haec cc build ÷ smpicc build, both under `haec run`
  smpirun   haec cc build under `haec run` ÷ smpicc build under plain smpirun (the smpirun command
            haec run wrote into command.txt, without the suite and its haec/ settings; plain config only)
  record    `haec trace record` ÷ `haec run`, the haec cc build
Configurations: plain (`--link none`), dvfs (`--link dor --power --governor ondemand`), counters
(`--counters perf::TASK-CLOCK` on the haec side; skipped where PAPI cannot count). The programs:
short_bursts (apps/, 2 ranks: many short computations between small calls) and lu_like (apps/, 8
ranks); --external adds a program the user built both ways (never part of this repository).
Work files: BUILD/bench-wrapper-fidelity/ (kept). Exit 1 when a target is missed.
"""
import argparse
import json
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import time

TARGET = 0.01
APPS = {  # name: (source in apps/, ranks, arguments)
    "short_bursts": ("short_bursts.c", 2, ["--iters", "8000"]),
    "lu_like": ("lu_like.c", 8, ["6"]),
}
# One XML cluster for every side, so that plain smpirun runs on the same platform as haec run.
CLUSTER_XML = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-{last}" speed="2.3Gf,1.8Gf,1.2Gf" core="12"
           bw="1.25GBps" lat="1.5us" loopback_bw="100GBps" loopback_lat="10ns">
    <prop id="wattage_per_state" value="92.75:114.62:174.38,91.0:108.0:150.0,90.0:100.0:125.0"/>
    <prop id="wattage_off" value="10"/>
  </cluster>
</platform>
"""
CONFIGS = {"plain": ["--link", "none"], "dvfs": ["--link", "dor", "--power", "--governor", "ondemand"],
           "counters": ["--link", "none"]}


def run(argv, log, env=None):
    """Runs argv; returns (cpu seconds of the process tree, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    with open(log, "w") as out:
        rc = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, env=env).returncode
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if rc != 0:
        sys.exit(f"wrapper_fidelity: command failed (exit {rc}), see {log}: {shlex.join(argv)}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def without_suite(command_txt):
    """haec's smpirun command without the suite (its preload and haec/ settings), as bench/overhead.py."""
    argv, out, i = shlex.split(open(command_txt).read()), [], 0
    while i < len(argv):
        a = argv[i]
        if a == "-wrapper":
            words = [w for w in shlex.split(argv[i + 1]) if not w.startswith("LD_PRELOAD=")
                     and not w.startswith("HAEC_")]
            if words not in (["env"], ["env", "-S"]):
                out += ["-wrapper", " ".join(words)]
            i += 2
            continue
        if not a.startswith("--cfg=haec/"):
            out.append(a)
        i += 1
    return out


class Program:
    def __init__(self, name, haec_bin, smpicc_bin, ranks, args):
        self.name, self.haec_bin, self.smpicc_bin = name, haec_bin, smpicc_bin
        self.ranks, self.args = ranks, args


class Bench:
    def __init__(self, build, source, work):
        self.build, self.source, self.work = build, source, work
        self.haec = os.path.join(build, "bin", "haec")
        cache = os.path.join(build, "CMakeCache.txt")
        self.smpicc = next((line.split("=", 1)[1].strip() for line in open(cache) if line.startswith("SMPICC:FILEPATH=")),
                           None) if os.path.exists(cache) else None
        if not os.access(self.haec, os.X_OK) or not self.smpicc:
            sys.exit(f"wrapper_fidelity: {build} is not a haec-smpi build (bin/haec, and SMPICC in its CMakeCache.txt): "
                     "give the build directory")
        version = subprocess.run([self.haec, "--version"], capture_output=True, text=True).stdout.splitlines()
        self.simgrid = next((l for l in version if l.startswith("SimGrid ")), "SimGrid unknown")

    def platform(self, ranks):
        """(XML platform, hostfile) of a cluster of `ranks` nodes, one rank per node."""
        xml, hosts = os.path.join(self.work, f"cluster{ranks}.xml"), os.path.join(self.work, f"hosts{ranks}")
        open(xml, "w").write(CLUSTER_XML.format(last=ranks - 1))
        open(hosts, "w").write("".join(f"h{i}\n" for i in range(ranks)))
        return xml, hosts

    def compile(self, name, source, ranks, args):
        src = os.path.join(self.source, "apps", source)
        h, s = os.path.join(self.work, name + "-haec"), os.path.join(self.work, name + "-smpicc")
        run([self.haec, "cc", "-O2", "-o", h, src, "-lm"], os.path.join(self.work, name + "-haec-cc.log"))
        run([self.smpicc, "-O2", "-o", s, src, "-lm"], os.path.join(self.work, name + "-smpicc.log"))
        return Program(name, h, s, ranks, args)

    def haec_run(self, p, binary, flags, out, record=False):
        head = [self.haec, "trace", "record"] if record else [self.haec, "run"]
        xml, hosts = self.platform(p.ranks)
        argv = head + ["--platform", xml, "--hostfile", hosts, "-np", str(p.ranks)] + flags
        if record:
            argv += ["--out", os.path.join(out, "trace.txt"), "--keep-run", os.path.join(out, "run"), "--force"]
        else:
            argv += ["--out", out, "--force", "-q"]
        return argv + ["--", binary] + p.args

    def makespan(self, out, log):
        summary = os.path.join(out, "run" if os.path.isdir(os.path.join(out, "run")) else "", "summary.json")
        if os.path.exists(summary):
            return json.load(open(summary))["makespan_s"]
        m = re.search(r"Simulated time: ([0-9.eE+-]+)", open(log).read())
        if not m:
            sys.exit(f"wrapper_fidelity: no simulated time in {log}")
        return float(m.group(1))

    def side(self, p, kind, which, config):
        """(argv, out dir) of one side of a comparison."""
        out = os.path.join(self.work, f"{p.name}-{config}-{kind}-{which}")
        flags = CONFIGS[config] + (["--counters", "perf::TASK-CLOCK"] if config == "counters" and which == "c" else [])
        if kind == "build":
            return self.haec_run(p, p.haec_bin if which == "c" else p.smpicc_bin, flags, out), out
        if kind == "record":
            return self.haec_run(p, p.haec_bin, flags, out, record=(which == "c")), out
        if which == "c":  # smpirun: the candidate is the haec build under haec run
            return self.haec_run(p, p.haec_bin, flags, out), out
        probe = out + "-probe"
        run(self.haec_run(p, p.smpicc_bin, flags, probe), probe + ".log")
        keep = out + "-files"
        shutil.rmtree(keep, ignore_errors=True)
        shutil.copytree(probe, keep)
        base = [a.replace(probe + "/", keep + "/") for a in without_suite(os.path.join(probe, "command.txt"))]
        return base[:1] + ["--cfg=smpi/display-timing:yes"] + base[1:], out

    def compare(self, p, kind, config, pairs):
        (b_argv, b_out), (c_argv, c_out) = self.side(p, kind, "b", config), self.side(p, kind, "c", config)
        got = {"b": [], "c": []}
        for i in range(pairs):
            for which in ("b", "c") if i % 2 == 0 else ("c", "b"):
                argv, out = (b_argv, b_out) if which == "b" else (c_argv, c_out)
                shutil.rmtree(out, ignore_errors=True)
                cpu, _ = run(argv, out + ".log")
                got[which].append((self.makespan(out, out + ".log"), cpu))
        med = statistics.median
        ratios = [c[0] / b[0] for b, c in zip(got["b"], got["c"])]
        cpu = [c[1] / b[1] for b, c in zip(got["b"], got["c"])]
        return dict(base=med(m for m, _ in got["b"]), cand=med(m for m, _ in got["c"]), ratio=med(ratios),
                    spread=(min(ratios), max(ratios)), cpu=med(cpu), b_cpu=med(c for _, c in got["b"]),
                    c_cpu=med(c for _, c in got["c"]))


def can_count(bench, p):
    out = os.path.join(bench.work, "counters-probe")
    argv = bench.haec_run(p, p.haec_bin, ["--counters", "perf::TASK-CLOCK"], out)
    with open(out + ".log", "w") as log:
        ok = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT).returncode == 0
    return ok and os.path.exists(os.path.join(out, "counters.csv"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--apps", default="short_bursts,lu_like")
    ap.add_argument("--configs", default="plain,dvfs,counters")
    ap.add_argument("--external", action="append", default=[],
                    help="NAME:HAEC_BINARY:SMPICC_BINARY[:RANKS[:ARGS]] (ARGS split like a shell)")
    args = ap.parse_args()
    if args.pairs < 7:
        sys.exit("wrapper_fidelity: --pairs must be at least 7")
    configs = [c for c in args.configs.split(",") if c]
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown:
        sys.exit(f"wrapper_fidelity: --configs {unknown[0]}: unknown (known: {', '.join(CONFIGS)})")
    build = os.path.abspath(args.build)
    source = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bench = Bench(build, source, os.path.join(build, "bench-wrapper-fidelity"))
    os.makedirs(bench.work, exist_ok=True)
    apps = [a for a in args.apps.split(",") if a]
    unknown = [a for a in apps if a not in APPS]
    if unknown:
        sys.exit(f"wrapper_fidelity: --apps {unknown[0]}: unknown (known: {', '.join(APPS)})")
    programs = [bench.compile(name, *APPS[name]) for name in apps]
    for spec in args.external:
        f = spec.split(":", 4)
        if len(f) < 3 or not all(os.path.exists(x) for x in f[1:3]):
            sys.exit(f"wrapper_fidelity: --external {spec}: give NAME:HAEC_BINARY:SMPICC_BINARY[:RANKS[:ARGS]] "
                     "of two existing programs")
        ranks = int(f[3]) if len(f) > 3 and f[3] else 8
        programs.append(Program(f[0], os.path.abspath(f[1]), os.path.abspath(f[2]), ranks,
                                shlex.split(f[4]) if len(f) > 4 else []))
    print(f"wrapper fidelity: {args.pairs} alternated pairs per comparison; makespan ratios (target 1.00 +- "
          f"{TARGET:.2f}) and CPU ratios, medians; {bench.simgrid} (the build's), smpicc {bench.smpicc}")
    print(f"{'program':14} {'config':9} {'comparison':9} {'base_s':>12} {'haec_s':>12} {'ratio':>7} "
          f"{'(min..max)':>15} {'cpu':>6} {'met':>4}")
    missed = 0
    for p in programs:
        for config in configs:
            if config == "counters" and not can_count(bench, p):
                print(f"{p.name:14} {config:9} skipped: PAPI cannot count perf::TASK-CLOCK on this machine")
                continue
            for kind in ("build", "smpirun", "record") if config == "plain" else ("build", "record"):
                r = bench.compare(p, kind, config, args.pairs)
                ok = abs(r["ratio"] - 1) <= TARGET
                missed += not ok
                print(f"{p.name:14} {config:9} {kind:9} {r['base']:12.6f} {r['cand']:12.6f} {r['ratio']:7.4f} "
                      f"({r['spread'][0]:.4f}..{r['spread'][1]:.4f}) {r['cpu']:6.3f} {'yes' if ok else 'NO':>4}",
                      flush=True)
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
