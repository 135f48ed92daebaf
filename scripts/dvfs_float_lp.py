#!/usr/bin/env python3
"""The least energy that keeps a performance run's makespan (plugins/dvfs/README.md, "Peer-aware slack").

Reads dvfs_float_graph.json and summary.json of a performance run made with peer-aware slack
(haec run ... --governor performance --cfg haec/dvfs/params:peer_float=1 --out DIR): the run's
computations (start, seconds at the fastest pstate), the messages between them (a computation
starts no earlier than the one that sent its message ended plus the message's delay), and each
rank's pstates. Solves the linear program

    minimise  sum_k sum_p y[k,p] (busy_p - idle) + idle x T'  over all ranks
    s.t.      sum_p y[k,p] speed_p = work_k                (every computation's flops)
              s_to >= s_from + sum_p y[from,p] + delay     (messages; a rank's next computation)
              s_k + sum_p y[k,p] <= T' = (1 + slack) T     (the makespan, T: all racing)
              s_k >= measured start (each rank's first computation), y >= 0

with y[k,p] the seconds computation k spends at pstate p (any mix of pstates: a lower bound on
the energy of any plan), idle the rank's idle power at the fastest pstate (the least on the
taurus presets). Unlike the offline optimum (dvfs_optimum_saving_j: every rank may use its whole
wait), a chain of ranks waiting for each other shares its float here. Prints, per allowed
makespan slack, the saving against the same accounting with every computation racing, and its
fraction of the offline optimum's saving. Needs SciPy (Debian: python3-scipy; run it with
/usr/bin/python3).

  scripts/dvfs_float_lp.py DIR [--slack 0,0.001]
"""
import argparse
import json
import os
import sys


def fail(msg):
    print(f"haec: {msg}", file=sys.stderr)
    sys.exit(2)


def load(run_dir):
    path = os.path.join(run_dir, "dvfs_float_graph.json")
    if not os.path.exists(path):
        fail(f"{path}: no such file; run the performance governor with --cfg haec/dvfs/params:peer_float=1")
    graph = json.load(open(path))
    summary = json.load(open(os.path.join(run_dir, "summary.json")))
    return graph, summary


def racing_schedule(graph):
    """Earliest starts with every computation racing, in start order; the makespan."""
    nodes, preds = graph["nodes"], [[] for _ in graph["nodes"]]
    for f, t, d in graph["edges"]:
        preds[t].append((f, d))
    last = {}
    first = [False] * len(nodes)
    for k, (rank, _, _) in enumerate(nodes):
        if rank in last:
            preds[k].append((last[rank], graph["ranks"][rank]["gap"]))
        else:
            first[k] = True
        last[rank] = k
    order = sorted(range(len(nodes)), key=lambda k: nodes[k][1])
    end = [0.0] * len(nodes)
    for k in order:
        start = nodes[k][1] if first[k] else 0.0
        for f, d in preds[k]:
            start = max(start, end[f] + d)
        end[k] = start + nodes[k][2]
    return preds, first, max(end)


def solve(graph, preds, first, makespan, slack):
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    nodes, ranks = graph["nodes"], graph["ranks"]
    levels = [len(ranks[r]["pstates"]) for r, _, _ in nodes]
    y0 = np.concatenate([[0], np.cumsum(levels)]).astype(int)  # y[k, l] = y0[k] + l
    s0 = int(y0[-1])                                             # s[k] = s0 + k
    nvar = s0 + len(nodes)
    cost = np.zeros(nvar)
    eq_r, eq_c, eq_v, eq_b = [], [], [], []
    ub_r, ub_c, ub_v, ub_b = [], [], [], []
    bounds = [(0, None)] * nvar
    horizon = (1 + slack) * makespan
    row = 0
    for k, (rank, start, compute) in enumerate(nodes):
        ps = ranks[rank]["pstates"]
        idle = ps[0][2]
        for l, (speed, busy, _) in enumerate(ps):
            cost[y0[k] + l] = busy - idle
            eq_r.append(k); eq_c.append(y0[k] + l); eq_v.append(speed / ps[0][0])
        eq_b.append(compute)  # work in seconds at the fastest pstate
        if first[k]:
            bounds[s0 + k] = (start, None)
        # s_k + d_k <= horizon
        ub_r += [row] * (levels[k] + 1); ub_c += [s0 + k] + [y0[k] + l for l in range(levels[k])]
        ub_v += [1.0] * (levels[k] + 1); ub_b.append(horizon); row += 1
        for f, d in preds[k]:  # s_f + d_f - s_k <= -delay
            ub_r += [row] * (levels[f] + 2); ub_c += [s0 + f, s0 + k] + [y0[f] + l for l in range(levels[f])]
            ub_v += [1.0, -1.0] + [1.0] * levels[f]; ub_b.append(-d); row += 1
    A_eq = coo_matrix((eq_v, (eq_r, eq_c)), shape=(len(nodes), nvar)).tocsr()
    A_ub = coo_matrix((ub_v, (ub_r, ub_c)), shape=(row, nvar)).tocsr()
    res = linprog(cost, A_ub=A_ub, b_ub=ub_b, A_eq=A_eq, b_eq=eq_b, bounds=bounds, method="highs")
    if res.status != 0:
        fail(f"linear program not solved: {res.message}")
    idle_total = sum(r["pstates"][0][2] for r in ranks) * horizon
    return res.fun + idle_total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run_dir")
    ap.add_argument("--slack", default="0,0.001", help="makespan slacks to allow, comma-separated fractions")
    args = ap.parse_args()
    try:
        import scipy  # noqa: F401
    except ImportError:
        fail("SciPy is missing; install python3-scipy and run this script with /usr/bin/python3")
    graph, summary = load(args.run_dir)
    preds, first, makespan = racing_schedule(graph)
    ranks = graph["ranks"]
    racing = sum(r["pstates"][0][2] for r in ranks) * makespan
    for rank, _, compute in graph["nodes"]:
        ps = ranks[rank]["pstates"][0]
        racing += compute * (ps[1] - ps[2])
    if abs(makespan / summary["makespan_s"] - 1) > 1e-4:
        print(f"haec: {args.run_dir}: the graph's messages explain a makespan of {makespan:.9g} s, not the run's "
              f"{summary['makespan_s']:.9g} s (blocking sends or collectives it does not hold); no bound", file=sys.stderr)
        sys.exit(3)
    optimum = summary.get("dvfs_optimum_saving_j")
    print(f"racing schedule: makespan {makespan:.6f} s (run {summary['makespan_s']:.6f} s), "
          f"{racing:.2f} J (run {summary['energy_j']:.2f} J); offline optimum's saving {optimum:.2f} J")
    print("| makespan slack | least energy (J) | saving % | of the offline optimum's saving |")
    print("|---|---|---|---|")
    for slack in [float(x) for x in args.slack.split(",")]:
        energy = solve(graph, preds, first, makespan, slack)
        saving = racing - energy
        of_opt = f"{100 * saving / optimum:.1f} %" if optimum else "-"
        print(f"| +{100 * slack:.2f} % | {energy:.2f} | {100 * saving / racing:.2f} | {of_opt} |")


if __name__ == "__main__":
    main()
