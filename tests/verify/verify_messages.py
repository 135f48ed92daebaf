#!/usr/bin/env python3
"""Independent check of the HAEC link models DOR and PNC (seed 004 Eq. (1)-(2); docs/MODELS.md §3.1).

Written from docs/MODELS.md, not from the C++ plugin: its own dimension-order routing from the node
coordinates, and its own evaluation of the formulas in exact rational arithmetic (fractions), so
neither the route nor the rounding of the C++ code can hide in the reference.

    verify_messages.py RESULT_DIR [--network-times] [--tolerance 1e-12]

RESULT_DIR holds summary.json ("link_model", "link_params"), platform.json and messages.csv
(src_rank,dst_rank,src_node,dst_node,bytes,hops,start,end,model_time). For each message the hop
count of the route must equal `hops`, and |T - model_time| <= tolerance (default 1 ps). With
--network-times also |end - start - model_time| <= tolerance and |end - start - T| <= tolerance
(meaningful only for runs without contention, e.g. the pingpong app).
Exit 0: all agree; 1: some disagree (the first 5 are listed); 2: unreadable input.

Routing (MODELS.md §1.1): x, then y, then z. A torus dimension goes the shorter way round (a tie
goes +; the hop count is the same either way). haec-box: x/y hops are optical (board torus or
mesh), z hops wireless between adjacent boards (no wrap); with full wireless a message between
boards takes |dz| wireless hops straight to the target's (x, y). cluster: 2 cable hops (up to the
switch and down), 0 on the same node. Same node: no hop, T = (d_s + d_r) / 2.

Transfer time over hops i = 1..h with d_h,i = d_out + s_p/b_i + l_i + d_in:
    tt(x) = d_s + sum_i d_h,i + (x - 1) max_i d_h,i + (h - 1) d_i + d_r
    T     = tt(s_w) n_w + tt(n_r) + (n_w + 1) sum_i (d_h,i + d_a)
which is Eq. (1)-(2) when all hops are equal (the slowest hop paces the pipeline). n_r = 0 under
"no-partial": no tt(n_r) and n_w acknowledgments; "seed-literal" keeps Eq. (2) as printed.
"""
import argparse
import csv
import json
import os
import re
import sys
from fractions import Fraction

HEADER = ["src_rank", "dst_rank", "src_node", "dst_node", "bytes", "hops", "start", "end", "model_time"]


class InputProblem(Exception):
    """The result directory cannot be read or does not describe a checkable run (exit 2)."""


def exact(value, what):
    """A number from JSON or CSV as the exact value of its double (ints stay exact)."""
    try:
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, int):
            f = Fraction(value)
        else:  # the double the C++ side held (it prints doubles round-trip)
            f = Fraction(float(value) if isinstance(value, float) else float(str(value)))
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        raise InputProblem(f"{what} = {value!r} is not a finite number")
    return f


# ----- platform and routing -----

class Platform:
    """The link types a message crosses, from platform.json and node names."""

    TYPES = {"haec-box": ("optical", "wireless"), "mesh": ("link",), "torus": ("link",), "cluster": ("cable",)}

    def __init__(self, desc):
        if not isinstance(desc, dict):
            raise InputProblem("platform.json is not a JSON object")
        self.kind = desc.get("kind")
        if self.kind not in self.TYPES:
            raise InputProblem(f"platform.json: kind {self.kind!r} is not haec-box, mesh, torus or cluster")
        dims = desc.get("dims")
        if not (isinstance(dims, list) and len(dims) == 3 and all(isinstance(d, int) and d >= 1 for d in dims)):
            raise InputProblem(f"platform.json: dims {dims!r} is not 3 positive integers")
        self.dims = dims
        # platform_spec.cpp writes "board": "torus"|"mesh" and "wireless": "aligned"|"full";
        # the booleans are an older draft of the same fields. Defaults are PlatformSpec's.
        if "board" in desc:
            self.board_torus = desc["board"] == "torus"
        else:
            self.board_torus = bool(desc.get("board_torus", True))
        if "wireless" in desc:
            self.wireless_full = desc["wireless"] == "full"
        else:
            self.wireless_full = bool(desc.get("wireless_full", False))
        self.links = self._link_types(desc)
        for t in self.TYPES[self.kind]:
            if t not in self.links:
                raise InputProblem(f"platform.json: no '{t}' link type for a {self.kind}")

    @staticmethod
    def _link_types(desc):
        """name -> (latency s, bandwidth B/s) as exact fractions."""
        out = {}
        if isinstance(desc.get("links"), dict):
            for name, lt in desc["links"].items():
                if not isinstance(lt, dict):
                    raise InputProblem(f"platform.json: links.{name} is not an object")
                out[name] = (exact(lt.get("latency_s"), f"links.{name}.latency_s"),
                             exact(lt.get("bandwidth_Bps"), f"links.{name}.bandwidth_Bps"))
        elif isinstance(desc.get("link_types"), list):
            for lt in desc["link_types"]:
                if not isinstance(lt, dict) or "name" not in lt:
                    raise InputProblem("platform.json: a link_types entry has no name")
                name = lt["name"]
                out[name] = (exact(lt.get("latency"), f"link_types.{name}.latency"),
                             exact(lt.get("bandwidth"), f"link_types.{name}.bandwidth"))
        else:
            raise InputProblem("platform.json has neither 'links' nor 'link_types'")
        for name, (lat, bw) in out.items():
            if lat < 0 or bw <= 0:
                raise InputProblem(f"platform.json: link type {name} has latency {float(lat)} s, "
                                   f"bandwidth {float(bw)} B/s")
        return out

    def coords(self, name):
        if self.kind == "cluster":
            m = re.fullmatch(r"node-(\d+)", name)
            if not m or int(m.group(1)) >= self.dims[0]:
                raise InputProblem(f"messages.csv: '{name}' is not a host node-0..node-{self.dims[0] - 1}")
            return (int(m.group(1)), 0, 0)
        m = re.fullmatch(r"node-(\d+)-(\d+)-(\d+)", name)
        if not m:
            raise InputProblem(f"messages.csv: '{name}' is not a grid host node-x-y-z")
        c = tuple(int(v) for v in m.groups())
        if any(v >= d for v, d in zip(c, self.dims)):
            raise InputProblem(f"messages.csv: '{name}' lies outside the {'x'.join(map(str, self.dims))} grid")
        return c

    @staticmethod
    def steps(a, b, n, wraps):
        """Hops along one dimension; on a ring the shorter way (a tie goes +, same count)."""
        if not wraps:
            return abs(b - a)
        forward = (b - a) % n
        return min(forward, n - forward)

    def route(self, src, dst):
        """Link-type names of the route src -> dst, in order (empty on the same node)."""
        a, b = self.coords(src), self.coords(dst)
        if a == b:
            return ()
        if self.kind == "cluster":
            return ("cable", "cable")
        X, Y, Z = self.dims
        if self.kind == "haec-box":
            dz = abs(b[2] - a[2])
            if self.wireless_full and dz:
                return ("wireless",) * dz
            board = self.steps(a[0], b[0], X, self.board_torus) + self.steps(a[1], b[1], Y, self.board_torus)
            return ("optical",) * board + ("wireless",) * dz
        wraps = self.kind == "torus"
        n = sum(self.steps(a[d], b[d], self.dims[d], wraps) for d in range(3))
        return ("link",) * n


# ----- Eq. (1)-(2) -----

class Model:
    """DOR or PNC of docs/MODELS.md §3.1 with the run's parameters, evaluated exactly; or a resilient
    model (DOR_r, PNC_r, NCD_r, docs/MODELS.md §3.2) on a loss-free run, where it must reduce to
    Eq. (1)-(2) with the resilient packet layout plus the injection latency d_mpi."""

    def __init__(self, protocol, p):
        if protocol not in ("dor", "pnc", "dor_r", "pnc_r", "ncd_r"):
            raise InputProblem(f"summary.json: link_model {protocol!r} is not dor, pnc, dor_r, pnc_r or ncd_r: "
                               "nothing to verify")
        if not isinstance(p, dict):
            raise InputProblem("summary.json: link_params is missing")
        get = lambda k: exact(p.get(k), f"link_params.{k}")
        if protocol.endswith("_r"):
            self.resilient_layout(protocol, p, get)
            return
        self.d_mpi = Fraction(0)
        self.s_p, self.d_out, self.d_in, self.d_p = get("packet_size"), get("d_out"), get("d_in"), get("d_p")
        self.s_wid, self.s_ff = get("window_id"), get("ff_symbol")
        w = get("window")
        if w.denominator != 1 or w < 1:
            raise InputProblem(f"link_params.window = {p.get('window')!r} is not a whole number >= 1")
        self.s_w = int(w)
        self.units = p.get("units")
        if self.units not in ("physical", "byte-slip"):
            raise InputProblem(f"link_params.units = {self.units!r} is not physical or byte-slip")
        self.partial = p.get("partial_window")
        if self.partial not in ("no-partial", "seed-literal"):
            raise InputProblem(f"link_params.partial_window = {self.partial!r} is not no-partial or seed-literal")
        # Table 2 of seed 004.
        self.d_a = self.d_out / 2
        self.d_i = self.d_a
        if protocol == "dor":
            self.L_p = self.s_p - self.s_wid
            self.d_s = 2 * self.d_out
            self.d_r = 2 * self.d_out
        else:  # each packet carries its encoding vector (s_w symbols); the receiver decodes
            self.L_p = self.s_p - self.s_w * self.s_ff - self.s_wid
            self.d_s = 2 * self.d_out + self.s_w * self.d_p
            self.d_r = 2 * self.d_out + self.s_w * self.s_w * self.d_p
        if self.L_p <= 0:
            raise InputProblem(f"link_params: a {float(self.s_p)} B packet leaves no payload")

    def resilient_layout(self, protocol, p, get):
        # Only a loss-free run has a deterministic time to check.
        if p.get("loss") != 0:
            raise InputProblem(f"link_params.loss = {p.get('loss')!r}: only loss-free resilient runs "
                               "(--cfg haec/link/loss:0) reduce to Eq. (1)-(2)")
        self.s_p, self.d_out, self.d_in, self.d_p = get("packet_size"), get("d_out"), get("d_in"), get("d_p")
        self.s_w = int(get("window"))
        sig, tst, d_sign, d_verify = get("signature"), get("timestamp"), get("d_sign"), get("d_verify")
        self.d_mpi = get("d_mpi")
        self.units, self.partial = p.get("units"), "no-partial"
        if self.units not in ("physical", "byte-slip"):
            raise InputProblem(f"link_params.units = {self.units!r} is not physical or byte-slip")
        # 001 §4.2: every packet and acknowledgment is signed; forwarders and receiver verify.
        self.d_a = self.d_out / 2 + d_verify
        self.d_i = self.d_a
        if protocol == "dor_r":  # window id, packet id, signature; no coding
            wid = get("window_id")
            self.L_p = self.s_p - wid - get("packet_id") - sig
            self.s_a = wid + get("packet_id") + tst + sig
            self.d_s = 2 * self.d_out + d_sign
            self.d_r = 2 * self.d_out + d_verify + d_sign
        else:  # generation id, encoding vector of s_w symbols, signature; the ack carries the rank
            gid, s_ff = get("window_id"), get("ff_symbol")
            self.L_p = self.s_p - gid - self.s_w * s_ff - sig
            self.s_a = gid + 1 + tst + sig
            self.d_s = 2 * self.d_out + self.s_w * self.d_p + d_sign
            self.d_r = 2 * self.d_out + self.s_w * self.s_w * self.d_p + d_verify + d_sign
        if self.L_p <= 0:
            raise InputProblem(f"link_params: a {float(self.s_p)} B packet leaves no payload")

    def derived(self):
        d = {"payload": self.L_p, "d_s": self.d_s, "d_r": self.d_r, "d_a": self.d_a}
        if hasattr(self, "s_a"):
            d["ack_size"] = self.s_a
        return d

    def hop_delay(self, latency, bandwidth, size=None):
        # s_p is in bytes and b in bytes/s: physical. The published tables divided bytes by
        # bits/s (MODELS.md §3.2): "byte-slip" reads b as bits/s, i.e. 8x the B/s figure.
        b = bandwidth if self.units == "physical" else 8 * bandwidth
        return self.d_out + (self.s_p if size is None else size) / b + latency + self.d_in

    def packets(self, m):
        n = -(-Fraction(m) // self.L_p)  # ceil
        return max(1, int(n))

    def time(self, m, hops):
        """T in seconds (a Fraction) of an m-byte message over hops [(latency, bandwidth)]."""
        if not hops:
            return (self.d_s + self.d_r) / 2 + self.d_mpi
        h = len(hops)
        d_h = [self.hop_delay(l, b) for (l, b) in hops]
        # Acknowledgments cross each hop with their own size when the protocol has one (resilient).
        d_ack = [self.hop_delay(l, b, getattr(self, "s_a", None)) for (l, b) in hops]
        n_p = self.packets(m)
        n_w, n_r = divmod(n_p, self.s_w)

        def tt(x):
            return self.d_s + sum(d_h) + (x - 1) * max(d_h) + (h - 1) * self.d_i + self.d_r

        ack = sum(d + self.d_a for d in d_ack)
        if n_r == 0 and self.partial == "no-partial":
            return tt(self.s_w) * n_w + n_w * ack + self.d_mpi
        return tt(self.s_w) * n_w + tt(n_r) + (n_w + 1) * ack + self.d_mpi


# ----- the check -----

def load(result_dir):
    try:
        with open(os.path.join(result_dir, "summary.json")) as f:
            summary = json.load(f)
        with open(os.path.join(result_dir, "platform.json")) as f:
            platform = Platform(json.load(f))
        if not isinstance(summary, dict):
            raise InputProblem("summary.json is not a JSON object")
        model = Model(summary.get("link_model"), summary.get("link_params"))
        with open(os.path.join(result_dir, "messages.csv"), newline="") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header != HEADER:
                raise InputProblem(f"messages.csv: header {header} is not {','.join(HEADER)}")
            rows = list(reader)
    except (OSError, ValueError, UnicodeDecodeError) as e:  # json.JSONDecodeError is a ValueError
        raise InputProblem(str(e))
    if not rows:
        raise InputProblem("messages.csv holds no message: nothing to verify")
    return summary, platform, model, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("result_dir")
    ap.add_argument("--network-times", action="store_true", help="also check end - start (uncontended runs only)")
    ap.add_argument("--tolerance", type=float, default=1e-12, help="seconds (default 1e-12 = 1 ps)")
    args = ap.parse_args()
    if not args.tolerance >= 0:
        print("verify_messages: --tolerance must be >= 0 seconds", file=sys.stderr)
        return 2
    tol = Fraction(args.tolerance)
    try:
        summary, platform, model, rows = load(args.result_dir)
        offenders, checked, worst, over = [], 0, Fraction(0), 0

        # The run's own derived parameters, when it reports them, must be ours too.
        reported = summary["link_params"]
        for key, ours in model.derived().items():
            if key in reported:
                theirs = exact(reported[key], f"link_params.{key}")
                if abs(theirs - ours) > abs(ours) * Fraction(1, 10**12):
                    offenders.append(f"summary.json: link_params.{key} = {float(theirs)!r}, "
                                     f"docs/MODELS.md §3.1 gives {float(ours)!r}")

        routes, times = {}, {}
        for line, r in enumerate(rows, start=2):
            if len(r) != len(HEADER):
                raise InputProblem(f"messages.csv line {line}: {len(r)} fields, expected {len(HEADER)}")
            src, dst = r[2], r[3]
            try:
                m, hops = int(r[4]), int(r[5])
                if m < 0:
                    raise ValueError
            except ValueError:
                raise InputProblem(f"messages.csv line {line}: bytes {r[4]!r} or hops {r[5]!r} is not a count")
            if r[8].strip() == "":
                raise InputProblem(f"messages.csv line {line}: no model_time (run without a link model?)")
            model_time = exact(r[8], f"line {line} model_time")

            route = routes.get((src, dst))
            if route is None:
                route = routes[(src, dst)] = platform.route(src, dst)
            key = (model.packets(m), route)
            expected = times.get(key)
            if expected is None:
                expected = times[key] = model.time(m, [platform.links[t] for t in route])

            problems = []
            if hops != len(route):
                problems.append(f"hops {hops}, the route has {len(route)}")
            err = abs(model_time - expected)
            what = f"model_time {float(model_time)!r}"
            if args.network_times:
                duration = exact(r[7], f"line {line} end") - exact(r[6], f"line {line} start")
                net = max(abs(duration - model_time), abs(duration - expected))
                if net > err:
                    err, what = net, f"end - start {float(duration)!r}"
            worst = max(worst, err)
            if err > tol:
                over += 1
                problems.append(f"{what} is {float(err):.3e} s off T = {float(expected)!r}")
            if problems:
                offenders.append(f"line {line}: {src} -> {dst}, {m} B, {len(route)} hops: " + "; ".join(problems))
            checked += 1
    except InputProblem as e:
        print(f"verify_messages: {args.result_dir}: unreadable input: {e}", file=sys.stderr)
        return 2

    for o in offenders[:5]:
        print("  " + o)
    what = "model and network times" if args.network_times else "model times"
    print(f"{checked} messages checked ({what}, {summary['link_model']}, {model.units}, {model.partial}): "
          f"max abs error {float(worst):.3e} s, {over} over tolerance {args.tolerance:g} s, "
          f"{len(offenders)} offenders")
    return 1 if offenders else 0


if __name__ == "__main__":
    sys.exit(main())
