#!/usr/bin/python3
"""Closed-loop check of `haec calibrate net` against the settings SMPI ran with:
check.py TRUE.cfg FITTED_DIR GRID(comma sizes) [--route BW LAT] [--loopback BW LAT]

Every threshold (os/ois/or on payloads, factors on payload + 16, async-small-thresh and
send-is-detached-thresh) within one sampling step of the true one and classifying every grid size
the same way, and every os/ois/or/bw-factor/lat-factor value at every grid size within 2 % (or
only below send-is-detached-thresh: SMPI never charges or above it)."""
import sys

TOL = 0.02


def parse(path):
    cfg = {}
    for line in open(path):
        line = line.strip()
        if line.startswith("--cfg=smpi/"):
            key, value = line[len("--cfg=smpi/"):].split(":", 1)
            cfg[key] = value
        elif line.startswith("# loopback:") or line.startswith("# route:"):
            parts = line.split()
            cfg[parts[1].rstrip(":")] = (float(parts[3]), float(parts[6]))
    return cfg


def table(text):
    return sorted([float(v) for v in chunk.split(":")] for chunk in text.split(";"))


def overhead(segs, p):  # smpi_host.cpp: the first segment, then each one whose threshold is < p
    current = segs[0]
    for s in segs:
        if p > s[0]:
            current = s
    return current[1] + current[2] * p


def factor(segs, s):  # network_smpi.cpp: 1 up to the first threshold
    current = 1.0
    for seg in segs:
        if s <= seg[0]:
            return current
        current = seg[1]
    return current


def step_ok(true_t, got_t, points):
    """Same side of every point, and at most one sampling step apart."""
    if any((x > true_t) != (x > got_t) for x in points):
        return False
    below = [x for x in points if x <= true_t]
    above = [x for x in points if x > true_t]
    step = (above[0] if above else true_t) - (below[-1] if below else 0)
    return abs(got_t - true_t) <= step


def check_thresholds(key, true, got, points, limit, failures):
    t = [s[0] for s in true if 0 < s[0] < limit]
    g = [s[0] for s in got if 0 < s[0] < limit]
    for a in t:
        if not any(step_ok(a, b, points) for b in g):
            failures.append(f"{key}: no fitted threshold within a sampling step of {a:.0f} (fitted {g})")
    for b in g:
        if not any(step_ok(a, b, points) for a in t):
            failures.append(f"{key}: fitted threshold {b:.0f} matches no true one {t}")


def main():
    true, got = parse(sys.argv[1]), parse(sys.argv[2] + "/smpi.cfg")
    grid = [int(s) for s in sys.argv[3].split(",")]
    failures, worst = [], {}
    detached = int(true["send-is-detached-thresh"])
    for key in ["os", "ois", "or"]:
        t, g = table(true[key]), table(got[key])
        sizes = [p for p in grid if key != "or" or p < detached]
        # or changes at D too (SMPI charges none above it): compare the thresholds below D's gap
        limit = max(sizes) if key == "or" else float("inf")
        check_thresholds(key, t, g, sizes, limit, failures)
        for p in sizes:
            a, b = overhead(t, p), overhead(g, p)
            err = abs(b - a) / max(abs(a), 1e-12)
            worst[key] = max(worst.get(key, 0), err)
            if err > TOL and abs(b - a) > 1e-12:
                failures.append(f"{key} at {p} B: true {a:.6g} s, fitted {b:.6g} s")
    for key in ["bw-factor", "lat-factor"]:
        t, g = table(true[key]), table(got[key])
        check_thresholds(key, t, g, [p + 16 for p in grid], float("inf"), failures)
        for p in grid:
            a, b = factor(t, p + 16), factor(g, p + 16)
            worst[key] = max(worst.get(key, 0), abs(b - a) / a)
            if abs(b - a) / a > TOL:
                failures.append(f"{key} at {p} B: true {a:.6g}, fitted {b:.6g}")
    for key in ["async-small-thresh", "send-is-detached-thresh"]:
        a, b = int(true[key]), int(got[key])
        print(f"{key}: true {a} fitted {b}")
        if not step_ok(a - 0.5, b - 0.5, grid):  # p < thresh: compare as "p > thresh - 1/2"
            failures.append(f"{key}: fitted {b} not within a sampling step of {a}")
    print("largest relative error at the grid sizes: " + ", ".join(f"{k} {100 * v:.4f} %" for k, v in worst.items()))
    for flag in ["--route", "--loopback"]:
        if flag in sys.argv:
            i = sys.argv.index(flag)
            bw, lat = float(sys.argv[i + 1]), float(sys.argv[i + 2])
            gbw, glat = got[flag[2:]]
            print(f"{flag[2:]}: bandwidth true {bw:.6g} fitted {gbw:.6g}; latency true {lat:.6g} fitted {glat:.6g}")
            if abs(gbw - bw) / bw > TOL or abs(glat - lat) / lat > TOL:
                failures.append(f"{flag[2:]} bandwidth or latency more than 2 % off")
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print("settings OK: every threshold within one sampling step, every value within 2 %")


if __name__ == "__main__":
    main()
