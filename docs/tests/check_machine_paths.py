#!/usr/bin/python3
"""Fails when a committed file under docs/ (or README.md, CHANGELOG.md) names a path of some
machine: an absolute path outside the system directories every Debian machine has (/usr, /etc,
/proc, ...), such as a home, scratch or temporary directory. Such paths mean nothing to a reader.

    check_machine_paths.py SOURCE_DIR      the committed files and those git would add (git ls-files), or every file
                                           when SOURCE_DIR is not a git checkout
    check_machine_paths.py --self-test     shows that the check finds what it must
"""
import os
import re
import subprocess
import sys

SYSTEM_DIRS = {"usr", "etc", "proc", "sys", "dev", "bin", "sbin", "lib", "lib64"}
# An absolute path: a slash not preceded by a character that would make it part of a word,
# a URL, a relative path or an expression, then at least one directory component.
PATH = re.compile(r"(?<![\w.~$/:)\]}*+-])/([A-Za-z0-9_][A-Za-z0-9._+-]*)/[A-Za-z0-9_.]")


def machine_paths(line):
    return [m.group(0) for m in PATH.finditer(line) if m.group(1) not in SYSTEM_DIRS]


def committed_files(source):
    try:
        out = subprocess.run(["git", "-C", source, "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                              "--", "docs", "README.md", "CHANGELOG.md"],
                             capture_output=True, check=True).stdout.decode()
        return [f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for top in ("docs",):
            for root, _, files in os.walk(os.path.join(source, top)):
                found += [os.path.relpath(os.path.join(root, f), source) for f in files]
        return found + [f for f in ("README.md", "CHANGELOG.md") if os.path.exists(os.path.join(source, f))]


def check(source):
    bad = []
    for rel in committed_files(source):
        path = os.path.join(source, rel)
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.readlines()
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue  # binary files (images) carry no text paths
        for n, line in enumerate(lines, 1):
            for p in machine_paths(line):
                bad.append(f"{rel}:{n}: {p}...")
    return bad


def self_test():
    # Built from parts, so that this file does not carry the paths it must find.
    must = [f"see /{d}/ana/haec/build/bin" for d in ("home", "root")] + \
           [f"`/{'tmp'}/tmp.Xy1/run`", f"(/{'work'}/main/build/x)", f"at /{'scratch'}/u/x"]
    must_not = ["/usr/bin/python3 x", "/proc/sys/kernel/perf_event_paranoid", "https://simgrid.org/a/b",
                "docs/results/perf", "~/.cache/haec", "(d_s + d_r)/2", "8/s_p", "$HAEC/build/bin",
                "/sys/class/powercap", "bytes/s", "`/`"]
    wrong = [s for s in must if not machine_paths(s)] + [s for s in must_not if machine_paths(s)]
    if wrong:
        print("self-test FAILED on: " + "; ".join(wrong))
        return 1
    print("self-test passed")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    bad = check(sys.argv[1])
    for b in bad:
        print(b)
    if bad:
        print(f"{len(bad)} machine path(s) in committed documentation files: write paths relative to the "
              "repository or to a named directory (BUILD, OUT)")
        return 1
    print("no machine path in the committed documentation files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
