#!/usr/bin/env bash
# The progress line of a long run: `haec run` of an LU-like replay (512 ranks) with its stderr
# on a pseudo-terminal shows one line, redrawn in place (at least two different values), with
# every field (simulated time, transfers and their rate, share replayed, time left), erased at the
# end so that the summary table starts on a clean line. With stderr not a terminal nothing is
# printed on stderr; with --quiet at a terminal nothing at all. The result directories of the three
# runs are identical, file for file, byte for byte. The trace gets twice the iterations until the run
# at the terminal takes 4 s (the line appears after 2 s), whatever the machine's (or sanitizer's) speed.
source "$(dirname "$0")/common.sh"
"$py" - "$haec" "$source_dir/bench/scale/gen_lu_trace.py" <<'PY'
import filecmp, os, pty, re, shutil, subprocess, sys, time
haec, gen = sys.argv[1:3]

def run(name, terminal, quiet=False):
    """haec run into res, then renamed res-NAME (every run has the same --out: the same command.txt);
    returns (exit status, what reached the terminal or stderr, stdout, wall s)."""
    argv = [haec, "run", "--platform", "torus:8x8x8", "--link", "dor", "--replay", "lu/lu.txt", "-np", "512",
            "--out", "res"] + (["--quiet"] if quiet else [])
    shutil.rmtree("res-" + name, ignore_errors=True)
    start = time.monotonic()
    if not terminal:
        p = subprocess.run(argv, capture_output=True)
        os.rename("res", "res-" + name)
        return p.returncode, p.stderr, p.stdout, time.monotonic() - start
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    seen = b""
    while True:  # drained as it comes: a full terminal buffer would stop the writers
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    status = p.wait()
    if status == 0:
        os.rename("res", "res-" + name)
    return status, seen, b"", time.monotonic() - start

LINE = re.compile(rb"simulated (\d+\.\d{3}) (s|ms|us) \| ([\d,]+) transfers, [\d.]+[kM]?/s \| (\d+)% replayed, "
                  rb"(~(\d+ s|\d+ min \d\d s|\d+ h \d\d min) left|<1 s left|estimating time left)\x1b\[K")
for iterations in (2, 4, 8, 16, 32, 64):
    shutil.rmtree("lu", ignore_errors=True)
    subprocess.run(["/usr/bin/python3", gen, "--ranks", "512", "--iterations", str(iterations), "--out", "lu"],
                   check=True, stdout=subprocess.DEVNULL)
    status, seen, _, wall = run("tty", terminal=True)
    assert status == 0, f"haec run at a terminal failed ({status}): {seen[-400:]!r}"
    if wall >= 4:
        break
    print(f"{iterations} iterations took {wall:.1f} s: a longer trace")
else:
    sys.exit(f"FAIL: the replay never took 4 s (last {wall:.1f} s)")

# At the terminal: redraws of one line ("\r" + line + clear to its end), then "\r" + clear, then the table.
head, sep, table = seen.rpartition(b"\r\x1b[K")
assert sep and table.startswith(b"result directory "), \
    f"the line is not erased before the table: {seen[-300:]!r}"
draws = [d for d in head.split(b"\r") if d and d != b"\x1b[K"]
assert len(draws) >= 2, f"{len(draws)} progress draws in {wall:.1f} s: {seen[:300]!r}"
fields = []
for d in draws:
    m = LINE.fullmatch(d)
    assert m, f"not a progress line: {d!r}"
    fields.append((int(m.group(3).replace(b",", b"")), int(m.group(4)), m.group(5)))
assert len(set(draws)) >= 2, "the line never changed"
assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(fields, fields[1:])), f"figures went back: {fields}"
assert any(f[2].startswith(b"~") for f in fields), "no time left was ever estimated"
assert fields[-1][1] >= 50, f"the last draw says {fields[-1][1]}% replayed"
print(f"{len(draws)} draws in {wall:.1f} s ({iterations} iterations); last: {draws[-1][:-3].decode()}")

# Not a terminal: stderr empty, stdout the table alone.
status, err, out, _ = run("plain", terminal=False)
assert status == 0 and err == b"", f"stderr without a terminal: {err[:300]!r}"
assert out.startswith(b"result directory ") and b"\r" not in out and b"\x1b" not in out, f"stdout: {out[:200]!r}"
# --quiet at a terminal: nothing at all.
status, quiet, _, _ = run("quiet", terminal=True, quiet=True)
assert status == 0 and quiet == b"", f"--quiet printed: {quiet[:300]!r}"

# The same results: every file, byte for byte (but SimGrid's log, which names the staging directory,
# made of a process id, and every setting given).
names = sorted(n for n in os.listdir("res-tty") if n != "simgrid.log")
assert [sorted(os.listdir(d)) for d in ("res-tty", "res-plain", "res-quiet")].count(sorted(os.listdir("res-tty"))) == 3, \
    "different files"
for other in ("res-plain", "res-quiet"):
    for n in names:
        assert filecmp.cmp(f"res-tty/{n}", f"{other}/{n}", shallow=False), f"{n} differs between the run at a terminal and {other}"
print(f"identical result files ({len(names)}) at a terminal, without one and with --quiet")
PY
