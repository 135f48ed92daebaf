#!/usr/bin/python3
"""Closed loop on what users see: compare.py MEASURED.csv RERUN.csv
The median of every (operation, size) of the rerun (SMPI under the fitted settings) within 2 % of
the measured one; prints how many differ and the largest difference."""
import collections
import csv
import statistics
import sys

TOL = 0.02


def medians(path):
    d = collections.defaultdict(list)
    with open(path) as f:
        for r in csv.DictReader(f):
            d[(r["op"], int(r["size"]))].append(float(r["duration"]))
    return {k: statistics.median(v) for k, v in d.items()}


def main():
    a, b = medians(sys.argv[1]), medians(sys.argv[2])
    if a.keys() != b.keys():
        sys.exit(f"FAILED: the files measure different (operation, size) pairs")
    err = {k: (b[k] - a[k]) / a[k] if a[k] else b[k] for k in a}
    bad = sorted((k for k in err if abs(err[k]) > TOL), key=lambda k: -abs(err[k]))
    worst = max(err, key=lambda k: abs(err[k]))
    print(f"{len(bad)} of {len(err)} (operation, size) medians differ by more than 2 %; largest "
          f"{100 * err[worst]:+.6f} % ({worst[0]} at {worst[1]} B)")
    if bad:
        print("FAILED:\n  " + "\n  ".join(f"{k[0]} at {k[1]} B: {100 * err[k]:+.3f} %" for k in bad[:20]))
        sys.exit(1)


if __name__ == "__main__":
    main()
