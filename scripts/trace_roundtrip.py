#!/usr/bin/python3
"""Round trip of a public MPI test suite through a trace: emulate, record, check, replay.

    scripts/trace_roundtrip.py SUITE_DIR --build BUILD [--work DIR] [--only REGEX] [--jobs 2] [--report FILE]
    scripts/trace_roundtrip.py --merge REPORT.json...   # one table of runs made in parts (--only)

SUITE_DIR is the MPICH test suite as SimGrid ships it (teshsuite/smpi/mpich3-test of a SimGrid
source tree): its `testlist` files name the programs and their rank counts, its CMakeLists.txt
the sources of the few programs not named after their source. Nothing of it is copied into this
repository; programs are compiled into --work with `haec cc` / `haec f77` / `haec fc`.

For each (program, ranks, arguments) entry of the lists, on a cluster of that many hosts:
  1. `haec trace record ... --keep-run`: exit 0 with the program's "No Errors" (as MPICH's runtests
     wants it), or a refusal (exit 2, one line naming the call); when not, `haec run -- PROG` tells
     a program that does not emulate correctly (not counted) from a recording that fails;
  3. `haec trace check TRACE`: "ok";
  4. `haec run --replay TRACE`: exit 0, the same makespan as the recording run (1e-12 relative)
     and the same number of network transfers.
Prints one line per entry and a table of counts (also written to --report as JSON)."""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

TOLERANCE = 1e-12
OUTCOMES = ["roundtrip", "refused", "emulation-fails", "record-fails", "check-fails", "replay-fails", "differs",
            "build-fails"]


def testlists(suite):
    """(directory, language, entry words) for every active entry of the suite's lists."""
    out = []

    def walk(d, lang):
        path = os.path.join(d, "testlist")
        if not os.path.exists(path):
            return
        for line in open(path):
            line = line.split("#")[0].strip()
            if not line or line.startswith("!"):
                continue
            words = line.split()
            sub = os.path.join(d, words[0])
            if len(words) == 1 and os.path.isdir(sub):
                walk(sub, lang)
            elif len(words) >= 2:
                out.append((d, lang, words))

    for top, lang in (("", "c"), ("f77", "f77"), ("f90", "f90")):
        d = os.path.join(suite, top) if top else suite
        path = os.path.join(d, "testlist")
        for line in open(path):
            line = line.split("#")[0].strip()
            if line and not line.startswith("!") and line not in ("f77", "f90") and os.path.isdir(os.path.join(d, line)):
                walk(os.path.join(d, line), lang)
    return out


def sources(directory, name, lang):
    """The source files and extra flags of program `name` (from CMakeLists.txt when not name.<ext>)."""
    cmake = open(os.path.join(directory, "CMakeLists.txt")).read() if os.path.exists(
        os.path.join(directory, "CMakeLists.txt")) else ""
    flags = []
    m = re.search(r"set_target_properties\(%s PROPERTIES COMPILE_FLAGS \"([^\"]*)\"" % re.escape(name), cmake)
    if m:
        flags = [f for f in m.group(1).split() if "${" not in f] # CMake variables: the suite's own flags
    m = re.search(r"add_executable\(%s\s+EXCLUDE_FROM_ALL\s+([^)]*)\)" % re.escape(name), cmake)
    if m:
        files = [f.replace("${CMAKE_CURRENT_SOURCE_DIR}/", "") for f in m.group(1).split()]
        return [os.path.normpath(os.path.join(directory, f)) for f in files if "dtypes.c" not in f], flags
    for block in re.finditer(r"foreach\((\w+)\s+([^)]*)\)(.*?)endforeach", cmake, re.S):
        var, names, body = block.group(1), block.group(2).split(), block.group(3)
        if name in names:
            m = re.search(r"add_executable\(\$\{%s\}\s+EXCLUDE_FROM_ALL\s+([^)]*)\)" % var, body)
            if m:
                files = [f.replace("${%s}" % var, name) for f in m.group(1).split()]
                return [os.path.join(directory, f) for f in files], flags
    ext = {"c": ".c", "f77": ".f", "f90": ".f90"}[lang]
    return [os.path.join(directory, name + ext)], flags


def run(argv, cwd=None, timeout=600, env=None):
    try:
        p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, env=env)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return -1, "", "timeout after %d s" % timeout


class Suite:
    def __init__(self, args):
        self.suite = os.path.abspath(args.suite)
        self.haec = os.path.join(os.path.abspath(args.build), "bin", "haec")
        self.work = os.path.abspath(args.work)
        os.makedirs(self.work, exist_ok=True)
        self.utils = {}

    def util(self, lang):
        """The suite's support library for `lang` (mtest), compiled once."""
        if lang in self.utils:
            return self.utils[lang]
        d = os.path.join(self.work, "util-" + lang)
        os.makedirs(d, exist_ok=True)
        inc = ["-I" + os.path.join(self.suite, "include")]
        if lang == "c":
            srcs, tool = ["dtypes.c", "mtest.c", "mtest_datatype.c", "mtest_datatype_gen.c"], "cc"
            srcs = [os.path.join(self.suite, "util", s) for s in srcs]
        elif lang == "f77":
            srcs, tool = [os.path.join(self.suite, "f77", "util", "mtestf.f")], "f77"
        else:
            srcs, tool = [os.path.join(self.suite, "f90", "util", "mtestf90.f90")], "fc"
        objs = []
        for s in srcs:
            o = os.path.join(d, os.path.basename(s) + ".o")
            if not os.path.exists(o):
                rc, out, err = run([self.haec, tool, "-c", "-O2"] + inc + ["-o", o, s], cwd=d)
                if rc != 0:
                    raise RuntimeError("cannot compile %s: %s" % (s, err.strip()[-400:]))
            objs.append(o)
        self.utils[lang] = (objs, d)
        return self.utils[lang]

    def build(self, directory, lang, name):
        rel = os.path.relpath(directory, self.suite)
        out_dir = os.path.join(self.work, "bin", rel)
        os.makedirs(out_dir, exist_ok=True)
        exe = os.path.join(out_dir, name)
        if os.path.exists(exe):
            return exe, ""
        srcs, flags = sources(directory, name, lang)
        if all(s.endswith(".c") for s in srcs): # a C program among Fortran ones (f77/ext/c2fmult)
            lang = "c"
        objs, util_dir = self.util(lang)
        tool = {"c": "cc", "f77": "f77", "f90": "fc"}[lang]
        # headers the suite's CMake configures (configure_file X.in X @ONLY): 64-bit sizes
        cmake_path = os.path.join(directory, "CMakeLists.txt")
        cmake = open(cmake_path).read() if os.path.exists(cmake_path) else ""
        for src, dst in re.findall(r"configure_file\(\$\{CMAKE_CURRENT_SOURCE_DIR\}/(\S+)\s+(\S+)\s+@ONLY\)", cmake):
            text = open(os.path.join(directory, src)).read().replace("@CMAKE_SIZEOF_VOID_P@", "8")
            open(os.path.join(out_dir, dst), "w").write(text)
        # smpiff writes temporary files next to its sources: compile copies in the work tree
        copies = []
        for s in srcs:
            c = os.path.join(out_dir, os.path.basename(s))
            if not os.path.exists(c):
                shutil.copy(s, c)
            copies.append(c)
        extra = ["-std=legacy"] if lang != "c" else []
        argv = [self.haec, tool, "-O2"] + extra + flags + ["-I" + os.path.join(self.suite, "include"), "-I" + directory,
                                                         "-I" + out_dir, "-I" + util_dir, "-o", exe] + copies + objs + (["-lm"] if lang == "c" else [])
        rc, out, err = run(argv, cwd=out_dir)
        if rc != 0:
            return None, (err or out).strip().splitlines()[-1:] or ["?"]
        return exe, ""

    def entry(self, directory, lang, words):
        name, np = words[0], int(words[1])
        prog_args = [w[4:] for w in words[2:] if w.startswith("arg=")]
        label = "%s/%s np=%d%s" % (os.path.relpath(directory, self.suite), name, np,
                                   (" " + " ".join(prog_args)) if prog_args else "")
        tag = re.sub(r"[^A-Za-z0-9_.-]", "_", label)
        d = os.path.join(self.work, "runs", tag)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        exe, why = self.build(directory, lang, name)
        if exe is None:
            return label, "build-fails", " ".join(why)
        platform = ["--platform", "cluster:%d" % max(np, 1), "-np", str(np)]
        passes = lambda text: re.search(r"No [Ee]rrors|Test Passed", text) is not None
        # the recording run is an emulation: a plain one only tells a failing program from a failing recording
        rc, out, err = run([self.haec, "trace", "record"] + platform + ["--out", "t/trace", "--keep-run", "rec", "--",
                                                                      exe] + prog_args, cwd=d)
        rec_out = os.path.join(d, "rec", "stdout.txt")
        if rc != 0 or not passes(open(rec_out).read() if os.path.exists(rec_out) else ""):
            erc, eout, eerr = run([self.haec, "run"] + platform + ["--out", "emu", "--", exe] + prog_args, cwd=d)
            emu_out = os.path.join(d, "emu", "stdout.txt")
            output = eout + (open(emu_out).read() if os.path.exists(emu_out) else "")
            if erc != 0 or not passes(output): # xfail entries count by what they print
                return label, "emulation-fails", (eerr.strip().splitlines() or ["no 'No Errors'"])[-1][:200]
            if rc == 2 and "cannot be replayed" in err:
                return label, "refused", err.strip().splitlines()[-1][:240]
            return label, "record-fails", ("exit %d: " % rc) + (err.strip().splitlines() or ["no 'No Errors'"])[-1][:240]
        # the trace is checked and replayed from another directory than its own
        rc, out, err = run([self.haec, "trace", "check", os.path.join(d, "t", "trace")], cwd=self.work)
        if rc != 0:
            return label, "check-fails", ("exit %d: " % rc) + (err.strip().splitlines() or ["?"])[-1][:240]
        rc, out, err = run([self.haec, "run"] + platform + ["--replay", os.path.join(d, "t", "trace"), "--out",
                                                          os.path.join(d, "rep")], cwd=self.work)
        if rc != 0:
            return label, "replay-fails", ("exit %d: " % rc) + (err.strip().splitlines() or ["?"])[-1][:240]
        rec = json.load(open(os.path.join(d, "rec", "summary.json")))
        rep = json.load(open(os.path.join(d, "rep", "summary.json")))
        a, b = rec["makespan_s"], rep["makespan_s"]
        diffs = []
        if abs(a - b) > TOLERANCE * max(abs(a), abs(b)):
            diffs.append("makespan %r vs %r" % (a, b))
        for key in ("messages",): # network messages (the communicator constructors' own included)
            if key in rec and rec.get(key) != rep.get(key):
                diffs.append("%s %r vs %r" % (key, rec.get(key), rep.get(key)))
        if diffs:
            return label, "differs", "; ".join(diffs)
        shutil.rmtree(d, ignore_errors=True)
        return label, "roundtrip", "makespan %r" % a


def print_table(results):
    """The counts per language as a Markdown table (the traces page's round-trip table)."""
    def lang(entry):
        return {"f77": "Fortran 77", "f90": "Fortran 90"}.get(entry.split("/")[0], "C")
    cols = ["entries", "emulate correctly", "round trip", "refused", "record fails", "check fails", "replay fails",
            "differs"]
    print("\n| programs | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for name in ["C", "Fortran 77", "Fortran 90", "all"]:
        rs = [r for r in results if name == "all" or lang(r["entry"]) == name]
        n = lambda o: sum(1 for r in rs if r["outcome"] == o)
        row = [len(rs), len(rs) - n("emulation-fails") - n("build-fails"), n("roundtrip"), n("refused"),
               n("record-fails"), n("check-fails"), n("replay-fails"), n("differs")]
        print("| %s | " % name + " | ".join(str(v) for v in row) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suite", nargs="?")
    ap.add_argument("--build")
    ap.add_argument("--merge", nargs="+", metavar="REPORT", help="print the table of these --report files")
    ap.add_argument("--work", default="roundtrip-work")
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--report", default="")
    args = ap.parse_args()
    if args.merge:
        results = [r for path in args.merge for r in json.load(open(path))["results"]]
        print("%d entries from %d reports" % (len(results), len(args.merge)))
        print_table(results)
        return 0
    if not args.suite or not args.build:
        ap.error("SUITE_DIR and --build are required (or --merge REPORT...)")
    suite = Suite(args)
    entries = [e for e in testlists(suite.suite)
               if not args.only or re.search(args.only, os.path.relpath(e[0], suite.suite) + "/" + " ".join(e[2]))]
    for lang in sorted({e[1] for e in entries}):
        suite.util(lang)
    start = time.time()
    programs = sorted({(e[0], e[1], e[2][0]) for e in entries})
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool: # each program once
        list(pool.map(lambda p: suite.build(*p), programs))
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for label, outcome, detail in pool.map(lambda e: suite.entry(*e), entries):
            results.append({"entry": label, "outcome": outcome, "detail": detail})
            print("%-15s %-45s %s" % (outcome, label, detail), flush=True)
    counts = {o: sum(1 for r in results if r["outcome"] == o) for o in OUTCOMES}
    emulated = len(results) - counts["emulation-fails"] - counts["build-fails"]
    print("\n%d entries, %d emulate correctly; of those: %s (%.0f s)" % (
        len(results), emulated, ", ".join("%s %d" % (o, counts[o]) for o in OUTCOMES[:1] + OUTCOMES[1:2] + OUTCOMES[3:7]),
        time.time() - start))
    print_table(results)
    if args.report:
        with open(args.report, "w") as f:
            json.dump({"counts": counts, "emulated": emulated, "results": results}, f, indent=1)
    return 0 if counts["record-fails"] + counts["check-fails"] + counts["replay-fails"] + counts["differs"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
