#!/usr/bin/env python3
"""Independent check of the HAEC link models DOR and PNC (seed 004, Eq. (1)-(2); MODELS.md §3.1).

Written from MODELS.md, not from the C++ plugin: it has its own routing (dimension order from the
node names' coordinates) and its own evaluation of the formulas, and recomputes every message of a
result directory's messages.csv.

    verify_messages.py RESULT_DIR [--network-times] [--tolerance 1e-12]

For each message: the hop count of the dimension-order route must equal `hops`, and the model time
must be within the tolerance (default 1 ps) of `model_time`. With --network-times, `end - start`
must also be within it (meaningful only for runs without contention, e.g. the pingpong app).
Exit 0: all agree; 1: some disagree (the first ones are listed); 2: unreadable input.
"""
import argparse
import csv
import json
import math
import os
import sys


class Platform:
    """Routes of a platform.json: the link types crossed by a message, in order."""

    def __init__(self, desc):
        self.kind = desc["kind"]
        self.dims = desc["dims"]
        self.links = desc["links"]
        self.board_torus = desc.get("board") == "torus"
        self.wireless_full = desc.get("wireless") == "full"

    def coords(self, name):
        parts = name.split("-")[1:]
        if self.kind == "cluster":
            return (int(parts[0]), 0, 0)
        return tuple(int(p) for p in parts)

    def _steps(self, a, b, n, wraps):
        """Hops along one dimension: the shorter way round on a ring (a tie goes +)."""
        forward = (b - a) % n
        if not wraps:
            return abs(b - a)
        return min(forward, n - forward)

    def route_types(self, src, dst):
        """Link types of the route src -> dst (empty on the same node)."""
        if src == dst:
            return []
        if self.kind == "cluster":
            return ["cable", "cable"]
        (xs, ys, zs), (xd, yd, zd) = self.coords(src), self.coords(dst)
        X, Y, Z = self.dims
        if self.kind == "haec-box":
            if self.wireless_full and zs != zd:
                return ["wireless"] * abs(zd - zs)
            board = self._steps(xs, xd, X, self.board_torus) + self._steps(ys, yd, Y, self.board_torus)
            return ["optical"] * board + ["wireless"] * abs(zd - zs)
        wraps = self.kind == "torus"
        hops = self._steps(xs, xd, X, wraps) + self._steps(ys, yd, Y, wraps) + self._steps(zs, zd, Z, wraps)
        return ["link"] * hops


def transfer_time(m, hops, p, protocol):
    """T(m, route) of MODELS.md §3.1, with per-hop latency l_i and bandwidth b_i (bytes/s)."""
    s_p, d_out, d_in, d_p, s_w = p["packet_size"], p["d_out"], p["d_in"], p["d_p"], int(p["window"])
    if protocol == "dor":
        L_p = s_p - p["window_id"]
        d_s = 2 * d_out
        d_r = 2 * d_out
    else:  # pnc: s_w symbols of encoding vector per packet, decoding at the receiver
        L_p = s_p - s_w * p["ff_symbol"] - p["window_id"]
        d_s = 2 * d_out + s_w * d_p
        d_r = 2 * d_out + s_w * s_w * d_p
    d_a = d_out / 2
    d_i = d_a
    h = len(hops)
    if h == 0:
        return (d_s + d_r) / 2
    # bytes over bytes/s is the physical time; "byte-slip" reads b as bits/s like the published tables
    unit = 1.0 if p["units"] == "physical" else 8.0
    d_h = [d_out + s_p / (unit * b) + l + d_in for (l, b) in hops]
    n_p = max(1, math.ceil(m / L_p))
    n_w = n_p // s_w
    n_r = n_p - s_w * n_w

    def tt(x):
        return d_s + sum(d_h) + (x - 1) * max(d_h) + (h - 1) * d_i + d_r

    ack = sum(dh + d_a for dh in d_h)
    if n_r == 0 and p["partial_window"] == "no-partial":
        return tt(s_w) * n_w + n_w * ack
    return tt(s_w) * n_w + tt(n_r) + (n_w + 1) * ack


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("result_dir")
    ap.add_argument("--network-times", action="store_true", help="also check end - start (uncontended runs)")
    ap.add_argument("--tolerance", type=float, default=1e-12, help="seconds (default 1e-12 = 1 ps)")
    args = ap.parse_args()
    d = args.result_dir
    try:
        with open(os.path.join(d, "summary.json")) as f:
            summary = json.load(f)
        with open(os.path.join(d, "platform.json")) as f:
            platform = Platform(json.load(f))
        protocol = summary["link_model"]
        params = summary["link_params"]
        rows = csv.DictReader(open(os.path.join(d, "messages.csv")))
    except (OSError, KeyError, ValueError) as e:
        print(f"verify_messages: {d}: cannot read the result directory ({e})", file=sys.stderr)
        return 2
    if protocol not in ("dor", "pnc"):
        print(f"verify_messages: {d}: link model '{protocol}' is not DOR or PNC", file=sys.stderr)
        return 2

    envelope = 0  # messages.csv already holds the MPI payload
    checked, worst, offenders = 0, 0.0, []
    for n, r in enumerate(rows, start=2):
        types = platform.route_types(r["src_node"], r["dst_node"])
        hops = [(platform.links[t]["latency_s"], platform.links[t]["bandwidth_Bps"]) for t in types]
        expected = transfer_time(int(r["bytes"]) + envelope, hops, params, protocol)
        errors = []
        if len(types) != int(r["hops"]):
            errors.append(f"hops {r['hops']} but the DOR route has {len(types)}")
        diff = abs(expected - float(r["model_time"]))
        if args.network_times:
            diff = max(diff, abs(expected - (float(r["end"]) - float(r["start"]))))
        worst = max(worst, diff)
        if diff > args.tolerance:
            errors.append(f"time off by {diff:.3e} s (expected {expected!r})")
        if errors:
            offenders.append(f"line {n}: {r['src_node']} -> {r['dst_node']}, {r['bytes']} B: " + "; ".join(errors))
        checked += 1
    what = "model and network times" if args.network_times else "model times"
    for o in offenders[:5]:
        print(o)
    print(f"{checked} messages checked ({what}): max deviation {worst:.3e} s, "
          f"{len(offenders)} off by more than {args.tolerance:g} s")
    return 1 if offenders or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
