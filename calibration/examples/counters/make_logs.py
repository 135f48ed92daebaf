#!/usr/bin/env python3
"""Synthetic input of `haec calibrate power --counters`: a wattmeter log and counter samples of a
node whose power follows P = P_static + sum_k c_k * rate_k exactly (the coefficients of truth.json),
measured with noise. Seeded: the same arguments give the same files.

    make_logs.py OUT_DIR [--seed N] [--intervals N] [--watt-noise W] [--count-noise REL]

Writes OUT_DIR/power.csv (time,watts: a sample every 10 ms with Gaussian noise of --watt-noise W),
OUT_DIR/counters.csv (start_s,end_s,pstate,PAPI_TOT_INS,PAPI_L3_TCM: 0.1 s intervals, counts with
relative Gaussian noise --count-noise, rates drawn independently per interval) and OUT_DIR/truth.json.
"""
import argparse
import json
import os
import random

TRUTH = {"events": ["PAPI_TOT_INS", "PAPI_L3_TCM"],
         "pstates": [{"p_static": 20.0, "coefficients": [2e-9, 1e-6]},
                     {"p_static": 15.0, "coefficients": [1.5e-9, 0.8e-6]}]}
MAX_RATE = [1.2e10, 4e7]  # events/s drawn uniformly in [0, max]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--intervals", type=int, default=600, help="per pstate")
    ap.add_argument("--watt-noise", type=float, default=0.5)
    ap.add_argument("--count-noise", type=float, default=0.001)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    power, counters = ["time,watts"], ["start_s,end_s,pstate," + ",".join(TRUTH["events"])]
    t = 0.0
    for p, ps in enumerate(TRUTH["pstates"]):
        for _ in range(a.intervals):
            rates = [rng.uniform(0, m) for m in MAX_RATE]
            watts = ps["p_static"] + sum(c * r for c, r in zip(ps["coefficients"], rates))
            for s in range(10):
                power.append(f"{t + s * 0.01:.6f},{watts + rng.gauss(0, a.watt_noise):.6f}")
            counts = [r * 0.1 * (1 + rng.gauss(0, a.count_noise)) for r in rates]
            counters.append(f"{t:.6f},{t + 0.1:.6f},{p}," + ",".join(f"{c:.17g}" for c in counts))
            t = round(t + 0.1, 6)
    power.append(f"{t:.6f},{TRUTH['pstates'][-1]['p_static']:.6f}")
    for name, lines in (("power.csv", power), ("counters.csv", counters)):
        with open(os.path.join(a.out, name), "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(a.out, "truth.json"), "w") as f:
        json.dump(TRUTH, f, indent=2)


if __name__ == "__main__":
    main()
