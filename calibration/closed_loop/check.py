#!/usr/bin/python3
"""Closed-loop check: compare `haec calibrate net` output (smpi.cfg) with the settings SMPI ran
with. check.py TRUE.cfg FITTED_DIR GRID(comma sizes) [--loopback BW LAT]
Every breakpoint within one grid step, every startup/per-byte/factor within 2 %."""
import sys

TOL = 0.02


def parse(path):
    cfg = {}
    for line in open(path):
        line = line.strip()
        if line.startswith("--cfg=smpi/"):
            key, value = line[len("--cfg="):].split(":", 1)
            cfg[key] = value
        elif line.startswith("# loopback:"):
            parts = line.split()
            cfg["loopback"] = (float(parts[3]), float(parts[6]))
        elif line.startswith("# route:"):
            parts = line.split()
            cfg["route"] = (float(parts[3]), float(parts[6]))
    return cfg


def segments(text):
    return [[float(v) for v in chunk.split(":")] for chunk in text.split(";")]


def within_step(true_t, got_t, grid, offset):
    # the fitter reports the last grid size of the previous segment (+offset for network sizes)
    lower = [s + offset for s in grid if s + offset <= true_t]
    upper = [s + offset for s in grid if s + offset > true_t]
    lo = lower[-1] if lower else 0
    hi = upper[0] if upper else float("inf")
    return lo <= got_t < hi or abs(got_t - true_t) <= (hi - lo)


def main():
    true, got = parse(sys.argv[1]), parse(sys.argv[2] + "/smpi.cfg")
    grid = [int(s) for s in sys.argv[3].split(",")]
    failures, report = [], []
    measured = set(grid)
    for key in ["smpi/os", "smpi/ois", "smpi/or", "smpi/bw-factor", "smpi/lat-factor"]:
        t, g = segments(true[key]), segments(got[key])
        offset = 16 if "factor" in key else 0
        if len(t) != len(g):
            failures.append(f"{key}: {len(g)} segments, expected {len(t)}: {got[key]}")
            continue
        for a, b in zip(t, g):
            if not within_step(a[0], b[0], grid, offset):
                failures.append(f"{key}: threshold {b[0]:.0f} not within a grid step of {a[0]:.0f}")
            for i in range(1, len(a)):
                err = abs(b[i] - a[i]) / abs(a[i]) if a[i] else abs(b[i])
                report.append(f"{key} seg@{a[0]:.0f} value{i}: true {a[i]:.6g} fitted {b[i]:.6g} err {100*err:.3f}%")
                if err > TOL and not (a[i] == 0 and abs(b[i]) < 1e-12):
                    failures.append(report[-1])
    for key in ["smpi/async-small-thresh", "smpi/send-is-detached-thresh"]:
        t, g = int(true[key]), int(got[key])
        # p < thresh: the fitted value is the first grid size at or above the true one
        first = min([s for s in grid if s >= t], default=max(grid) + 1)
        report.append(f"{key}: true {t} fitted {g}")
        if g != first:
            failures.append(f"{key}: fitted {g}, expected {first} (first grid size >= {t})")
    for flag in ["--route", "--loopback"]:
        if flag not in sys.argv:
            continue
        i = sys.argv.index(flag)
        bw, lat = float(sys.argv[i + 1]), float(sys.argv[i + 2])
        gbw, glat = got[flag[2:]]
        report.append(f"{flag[2:]} bandwidth true {bw:.6g} fitted {gbw:.6g}; latency true {lat:.6g} fitted {glat:.6g}")
        if abs(gbw - bw) / bw > TOL or abs(glat - lat) / lat > TOL:
            failures.append(report[-1])
    if False:
        i = sys.argv.index("--loopback")
        bw, lat = float(sys.argv[i + 1]), float(sys.argv[i + 2])
        gbw, glat = got["loopback"]
        report.append(f"loopback bandwidth true {bw:.6g} fitted {gbw:.6g}; latency true {lat:.6g} fitted {glat:.6g}")
        if abs(gbw - bw) / bw > TOL or abs(glat - lat) / lat > TOL:
            failures.append(report[-1])
    print("\n".join(report))
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print("closed loop OK: every breakpoint within one grid step, every value within 2 %")


if __name__ == "__main__":
    main()
