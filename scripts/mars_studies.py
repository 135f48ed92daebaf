#!/usr/bin/python3
"""The two MARS case studies (seed 003 §3.2, §3.3) on the suite, as README tables.

  mars_studies.py BUILD OUT [--small] [--force]

(1) Fat tree: each level's cables carry 0/25/50/75 % less bandwidth than the level below
    (reduce=R), with sequential (xyz: rank i on node i) and random (seeded) placement.
(2) Indirect routing on the hierarchical network: 5 racks, the application's ranks shuffled
    (seeded) over the nodes of racks 0 and 1; shortest routes only (indirect=0), then 1, 2, 3
    extra routes through other racks (indirect=N), chosen per message by each policy; and a bound
    with 32 times the rack-to-rack bandwidth (MARS's dashed line).
Both on LU-like (apps/lu_like, pipelined wavefront, 240-280 B messages) and on stencil_imbalance
(--dims 3 --pattern uniform: a 3-D halo exchange of a few KiB per face, the near-neighbour pattern
of MARS's LAMMPS). Traces are recorded once in flops mode (deterministic) and replayed with nodes
of 1000 Tf, so that, as MARS's "infinite processor speed", the makespan is the network's.
Writes OUT/fat_tree.csv, OUT/indirect.csv, OUT/tables.md and every run under OUT/runs/.
--small: 16 ranks on smaller platforms (the test's version, a few seconds)."""
import argparse
import csv
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from experiment_common import fresh_directory, provenance, run  # noqa: E402

FAST_NODE = "speed=1000Tf,wattage=90:100:200"  # one pstate; --power needs a profile (links.csv)
POLICIES = ["static", "round-robin", "random", "adaptive"]


def shapes(small):
    """Ranks, app arguments, fat tree and hierarchical shape of the full and the small study."""
    if small:
        return dict(ranks=16, lu=["2", "4"], stencil=["--iters", "2", "--size", "512"],
                    fat_tree="fat-tree:2;4,4;1,4;1,1", levels=2, hier="hierarchical:2x2x5", rack=4)
    return dict(ranks=64, lu=["5", "8"], stencil=["--iters", "10", "--size", "4096"],
                fat_tree="fat-tree:3;4,4,4;1,4,4;1,1,1", levels=3, hier="hierarchical:4x8x5", rack=32)


def record(haec, build, out, shape):
    """The two traces, recorded on a cluster in flops mode."""
    apps = {"lu_like": [os.path.join(build, "bin", "lu_like")] + shape["lu"] + ["--mode", "flops"],
            "stencil": [os.path.join(build, "bin", "stencil_imbalance"), "--dims", "3", "--pattern", "uniform"]
            + shape["stencil"]}
    traces = {}
    for name, cmd in apps.items():
        traces[name] = os.path.join(out, "traces", name + ".trace")
        run([haec, "trace", "record", "--platform", f"cluster:{shape['ranks']}", "-np", str(shape["ranks"]),
             "--cfg", "smpi/simulate-computation:no", "--quiet", "--out", traces[name], "--"] + cmd,
            stdout=subprocess.DEVNULL)
    return traces


def replay(haec, trace, out, platform, options):
    run([haec, "run", "--platform", platform, "--replay", trace, "--messages", "--power", "--quiet",
         "--out", out] + options)
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def link_bytes(out, link_type=None):
    """Largest bytes over one cable (links.csv), of one type when given."""
    with open(os.path.join(out, "links.csv")) as f:
        return max(float(r["bytes"]) for r in csv.DictReader(f)
                   if r["type"] not in ("", "loopback") and (link_type is None or r["type"] == link_type))


def level_shares(out, levels):
    """Per cent of the bytes between distinct nodes whose route climbs to level l (hops = 2 l)."""
    reached = [0] * (levels + 1)
    with open(os.path.join(out, "messages.csv")) as f:
        for m in csv.DictReader(f):
            if m["src_node"] != m["dst_node"]:
                reached[int(m["hops"]) // 2] += int(m["bytes"])
    total = sum(reached)
    return [100.0 * b / total for b in reached[1:]]


def fat_tree_study(haec, traces, out, shape):
    rows = []
    for app, trace in traces.items():
        base = {}
        for placement in ("xyz", "random"):
            for reduce in (0, 25, 50, 75):
                name = os.path.join(out, "runs", f"fat-{app}-{placement}-{reduce}")
                s = replay(haec, trace, name, f"{shape['fat_tree']},reduce={reduce},{FAST_NODE}",
                           ["--map", placement, "--seed", "1"])
                base.setdefault(placement, s["makespan_s"])
                rows.append([app, reduce, "sequential" if placement == "xyz" else "random", s["makespan_s"],
                             s["makespan_s"] / base[placement], link_bytes(name)]
                            + level_shares(name, shape["levels"]))
    return rows


def two_rack_hostfile(out, shape):
    """Ranks shuffled (seed 1) over the nodes of racks 0 and 1, one rank per node."""
    spec_dims = shape["hier"].split(":")[1].split("x")
    S, B = int(spec_dims[0]), int(spec_dims[1])
    nodes = [f"node-{s}-{b}-{r}" for r in (0, 1) for b in range(B) for s in range(S)]
    random.Random(1).shuffle(nodes)
    path = os.path.join(out, "two_racks.hostfile")
    with open(path, "w") as f:
        f.write("\n".join(nodes[: shape["ranks"]]) + "\n")
    return path


def indirect_study(haec, traces, out, shape):
    hostfile = two_rack_hostfile(out, shape)
    # indirect=0 with each policy: pairs that have several shortest paths spread too (in
    # hierarchical:4x8x5 half of the node pairs have several), which the +N rows include.
    cases = [("direct", 0, p, "") for p in POLICIES]
    cases += [(f"+{n}", n, p, "") for n in (1, 2, 3) for p in POLICIES]
    cases.append(("bound: l3 x32", 0, "static", ",l3-bw=300GBps"))
    rows = []
    for app, trace in traces.items():
        direct = None
        for label, extra, policy, key in cases:
            name = os.path.join(out, "runs", f"ind-{app}-{extra}-{policy}" + ("-bound" if key else ""))
            spec = f"{shape['hier']},indirect={extra}{key},{FAST_NODE}"
            s = replay(haec, trace, name, spec, ["--hostfile", hostfile, "--routing", policy])
            direct = direct or s["makespan_s"]
            rows.append([app, label, policy, s["makespan_s"], s["makespan_s"] / direct,
                         s["transfer_hops"] / s["messages"], link_bytes(name, "l3")])
    return rows


def markdown(header, rows, formats):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        lines.append("| " + " | ".join(f.format(v) for f, v in zip(formats, r)) + " |")
    return lines


def write(out, name, header, rows):
    with open(os.path.join(out, name), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("out")
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    haec = os.path.join(build, "bin", "haec")
    out = fresh_directory(a.out, a.force, "mars_studies.py")
    os.makedirs(os.path.join(out, "traces"))
    shape = shapes(a.small)
    traces = record(haec, build, out, shape)

    levels = [f"bytes to level {l} %" for l in range(1, shape["levels"] + 1)]
    ft_header = ["app", "reduce %", "placement", "makespan s", "vs reduce 0", "max link bytes"] + levels
    ft = fat_tree_study(haec, traces, out, shape)
    write(out, "fat_tree.csv", ft_header, ft)
    ind_header = ["app", "routes", "policy", "makespan s", "vs direct", "hops per message", "max l3 link bytes"]
    ind = indirect_study(haec, traces, out, shape)
    write(out, "indirect.csv", ind_header, ind)

    text = [provenance(), "", f"Fat tree {shape['fat_tree']}, {shape['ranks']} ranks:", ""]
    text += markdown(ft_header, ft, ["{}", "{}", "{}", "{:.6f}", "{:.3f}", "{:.0f}"] + ["{:.1f}"] * shape["levels"])
    text += ["", f"Indirect routing, {shape['hier']}, {shape['ranks']} ranks on racks 0 and 1:", ""]
    text += markdown(ind_header, ind, ["{}", "{}", "{}", "{:.6f}", "{:.3f}", "{:.2f}", "{:.0f}"])
    with open(os.path.join(out, "tables.md"), "w") as f:
        f.write("\n".join(text) + "\n")
    print("\n".join(text))


if __name__ == "__main__":
    main()
