#!/usr/bin/env python3
"""Receding-horizon plan, simulated offline (plugins/dvfs/README.md, "A coordinated plan").

Reads dvfs_float_graph.json and summary.json of a performance run made with
--cfg haec/dvfs/params:peer_float=1 (the graph of scripts/dvfs_float_lp.py). For each iteration i
it solves the least-energy linear program of dvfs_float_lp.py over the last K *observed*
iterations only (i-K-lag .. i-1-lag), with every rank's last computation of the window due by its
racing end (anchored at the racing schedule, so lateness cannot accumulate), minus a margin
(a fraction of the window's length). Each computation of iteration i then gets the plan's seconds
per pstate per second of work of the same task (rank, position in the iteration) in the window's
last iteration (or the window's mean). The whole run is then replayed on the graph (forward pass,
the messages' delays unchanged) and priced as dvfs_float_lp.py prices it.

  scripts/dvfs_plan_sim.py DIR [--per-iter 2] [--K 1,2,3] [--margin 0] [--lag 0] [--take last|mean]
  scripts/dvfs_plan_sim.py DIR --mpc 2,3 [--lag 1] [--cap 0.4] [--apply ratio|time] [--memory 1]

--mpc H: the receding horizon of lagrange_plan (plan_horizon.hpp) instead of the fixed windows:
at iteration i, plan i .. i+H-1 from the state reached (lag 1: from the ends of iteration i-2,
iteration i-1 fixed at the plan it got, as online), the work predicted from the last iteration
known, every rank's last planned computation due by its racing end, the others by it plus cap
iterations (the last one's rule; no back-off and no work rule, which the adapter has).
Reading and pricing as above; README, "A coordinated plan".
"""
import argparse
import itertools
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dvfs_float_lp import load  # noqa: E402  (a missing graph: one line naming the fix)


class Graph:
    def __init__(self, graph, per_iter):
        self.nodes = graph["nodes"]
        self.ranks = graph["ranks"]
        n = len(self.nodes)
        self.preds = [[] for _ in range(n)]
        for f, t, d in graph["edges"]:
            self.preds[t].append((f, d))
        self.first = [False] * n
        self.iteration = [0] * n
        self.task = [None] * n
        last, count = {}, {}
        for k in sorted(range(n), key=lambda k: (self.nodes[k][0], self.nodes[k][1])):
            rank = self.nodes[k][0]
            if rank in last:
                self.preds[k].append((last[rank], self.ranks[rank]["gap"]))
            else:
                self.first[k] = True
            last[rank] = k
            pos = count.get(rank, 0)
            count[rank] = pos + 1
            self.iteration[k] = pos // per_iter
            self.task[k] = (rank, pos % per_iter)
        self.order = sorted(range(n), key=lambda k: self.nodes[k][1])
        self.iters = max(self.iteration) + 1
        self.by_iter = [[] for _ in range(self.iters)]
        for k in self.order:
            self.by_iter[self.iteration[k]].append(k)

    def forward(self, duration):
        start, end = [0.0] * len(self.nodes), [0.0] * len(self.nodes)
        for k in self.order:
            s = self.nodes[k][1] if self.first[k] else 0.0
            for f, d in self.preds[k]:
                s = max(s, end[f] + d)
            start[k], end[k] = s, s + duration[k]
        return start, end


class Program:
    """The least-busy-energy program over `window`'s computations (variables: the seconds each
    spends at each pstate, then each one's start), built row by row and solved with HiGHS."""

    def __init__(self, g, window):
        self.g, self.window = g, window
        self.index = {k: n for n, k in enumerate(window)}
        self.levels = [len(g.ranks[g.nodes[k][0]]["pstates"]) for k in window]
        self.y0 = np.concatenate([[0], np.cumsum(self.levels)]).astype(int)
        self.s0 = int(self.y0[-1])
        self.nvar = self.s0 + len(window)
        self.cost = np.zeros(self.nvar)
        self.bounds = [(0, None)] * self.nvar
        self.eq_r, self.eq_c, self.eq_v = [], [], []
        self.ub_r, self.ub_c, self.ub_v, self.ub_b = [], [], [], []
        self.last_of_rank = {g.nodes[k][0]: n for n, k in enumerate(window)}

    def ys(self, n):
        return [self.y0[n] + l for l in range(self.levels[n])]

    def work_row(self, n, k):
        """Its busy power beyond idle as cost, and its work (seconds at the fastest) as row n."""
        ps = self.g.ranks[self.g.nodes[k][0]]["pstates"]
        for l, (speed, busy, _) in enumerate(ps):
            self.cost[self.y0[n] + l] = busy - ps[0][2]
            self.eq_r.append(n); self.eq_c.append(self.y0[n] + l); self.eq_v.append(speed / ps[0][0])

    def preds(self, n, k, low, before):
        """A start after each message inside the window (a row each); the earliest start `low`
        raised by those from outside it (their sender's end in `before`)."""
        for f, d in self.g.preds[k]:
            if f in self.index:
                j = self.index[f]
                self.add_row([self.s0 + j, self.s0 + n] + self.ys(j), [1.0, -1.0] + [1.0] * self.levels[j], -d)
            else:
                low = max(low, before[f] + d)
        self.bounds[self.s0 + n] = (low, None)

    def due(self, n, t):
        self.add_row([self.s0 + n] + self.ys(n), [1.0] * (self.levels[n] + 1), t)

    def add_row(self, cols, values, bound):
        self.ub_r += [len(self.ub_b)] * len(cols); self.ub_c += cols; self.ub_v += values
        self.ub_b.append(bound)

    def solve(self, work):
        """Seconds at each pstate of every computation, or None when infeasible."""
        from scipy.optimize import linprog
        from scipy.sparse import coo_matrix
        A_eq = coo_matrix((self.eq_v, (self.eq_r, self.eq_c)), shape=(len(self.window), self.nvar)).tocsr()
        A_ub = coo_matrix((self.ub_v, (self.ub_r, self.ub_c)), shape=(len(self.ub_b), self.nvar)).tocsr()
        res = linprog(self.cost, A_ub=A_ub, b_ub=self.ub_b, A_eq=A_eq, b_eq=work, bounds=self.bounds, method="highs")
        if res.status != 0:
            return None
        return [res.x[self.y0[n]:self.y0[n] + self.levels[n]] for n in range(len(self.window))]


def solve_window(g, window, race_start, race_end, margin):
    """Least busy energy over the window's computations; returns {node: fractions per pstate}."""
    p = Program(g, window)
    shift = margin * (max(race_end[k] for k in window) - min(race_start[k] for k in window))
    for n, k in enumerate(window):
        p.work_row(n, k)
        p.preds(n, k, race_start[k] if g.first[k] else 0.0, race_end)
        if p.last_of_rank[g.nodes[k][0]] == n:
            p.due(n, race_end[k] - shift)
    seconds = p.solve([g.nodes[k][2] for k in window])
    if seconds is None:
        return None
    return {k: seconds[n] / g.nodes[k][2] for n, k in enumerate(window)}


def simulate(g, summary, K, margin, lag, take):
    race = [g.nodes[k][2] for k in range(len(g.nodes))]
    race_start, race_end = g.forward(race)
    fractions = {}  # node -> seconds at each pstate per second of work at the fastest
    infeasible = 0
    for i in range(K + lag, g.iters):
        lo, hi = i - K - lag, i - 1 - lag
        window = [k for it in range(lo, hi + 1) for k in g.by_iter[it]]
        plan = solve_window(g, window, race_start, race_end, margin)
        if plan is None:
            infeasible += 1
            continue
        by_task = {}
        for k in window:
            by_task.setdefault(g.task[k], []).append((g.iteration[k], plan[k]))
        for k in g.by_iter[i]:
            cands = by_task.get(g.task[k])
            if not cands:
                continue
            if take == "last":
                fractions[k] = max(cands, key=lambda c: c[0])[1]
            else:
                fractions[k] = np.mean([c[1] for c in cands], axis=0)
    duration = [g.nodes[k][2] * (fractions[k].sum() if k in fractions else 1.0) for k in range(len(g.nodes))]
    _, end = g.forward(duration)
    result = {"K": K, "margin": margin, "lag": lag, "take": take}
    result.update(price(g, summary, fractions, end, race_end, infeasible))
    result.update({"race_makespan": max(race_end), "run_makespan": summary["makespan_s"]})
    return result


def solve_horizon(g, i, H, work_of, lower, race_end_before, margin, period, fixed=None, lag=0, cap=-1):
    """Model-predictive step: plan iterations i..i+H-1 (their work predicted by work_of), each
    computation starting no earlier than its known predecessors allow (lower), every rank's last
    computation of the horizon due by its racing end from the racing ends before i, minus margin
    x period. Returns {node of iteration i: fractions per pstate} or None if infeasible."""
    window = [k for it in range(i - lag, min(i + H, g.iters)) for k in g.by_iter[it]]
    fixed = fixed or {}
    index = {k: n for n, k in enumerate(window)}
    work = [work_of(k) for k in window]
    # Racing schedule of the predicted horizon, from the racing ends before it.
    def racing(before, keep_fixed):
        ends = {}
        for n, k in enumerate(window):  # window is in start order of the run, a topological order
            s = g.nodes[k][1] if g.first[k] else 0.0
            for f, d in g.preds[k]:
                s = max(s, (ends[f] if f in index else before[f]) + d)
            stretch = fixed[k].sum() if keep_fixed and g.iteration[k] < i and k in fixed else 1.0
            ends[k] = s + work[n] * stretch
        return ends
    # Due: the racing end anchored at the racing schedule, or, where lateness already reached
    # cannot be drained, the end of racing from the state reached (no lateness added).
    anchored, from_state = racing(race_end_before, False), racing(lower, True)
    race_end = {k: max(anchored[k] - margin * period, from_state[k]) for k in window}
    p = Program(g, window)
    for n, k in enumerate(window):
        p.work_row(n, k)
        if g.iteration[k] < i:  # already under way with the plan it got: its seconds per pstate fixed
            f = fixed.get(k)
            for l, y in enumerate(p.ys(n)):
                t = (f[l] if f is not None else (1.0 if l == 0 else 0.0)) * work[n]
                p.bounds[y] = (t, t)
        p.preds(n, k, g.nodes[k][1] if g.first[k] else 0.0, lower)
        due = race_end[k] if p.last_of_rank[g.nodes[k][0]] == n else (
            max(anchored[k] + cap * period, from_state[k]) if cap >= 0 and g.iteration[k] >= i else None)
        if due is not None:
            p.due(n, due)
    seconds = p.solve(work)
    if seconds is None:
        return None
    return {k: seconds[n] / work[n] for n, k in enumerate(window) if g.iteration[k] == i}


def cheapest_mix(ps, stretch):
    """Seconds per pstate per second of work at the fastest: the least busy energy taking
    `stretch` seconds (at least 1) per second of work (two adjacent points of the lower hull)."""
    t = [ps[0][0] / p[0] for p in ps]
    e = [ti * (p[1] - ps[0][2]) for ti, p in zip(t, ps)]
    best, out = None, None
    for a in range(len(ps)):
        for b in range(len(ps)):
            if t[a] <= stretch <= t[b] and t[b] > t[a]:
                w = (stretch - t[a]) / (t[b] - t[a])
                cost = (1 - w) * e[a] + w * e[b]
                if best is None or cost < best:
                    best, out = cost, (a, b, w)
    f = np.zeros(len(ps))
    if out is None:  # faster than the fastest (or slower than the slowest): the nearest end
        f[0 if stretch <= 1 else len(ps) - 1] = t[0 if stretch <= 1 else len(ps) - 1]
        return f
    a, b, w = out
    f[a] += (1 - w) * t[a]
    f[b] += w * t[b]
    return f


def simulate_mpc(g, summary, H, margin, predict, lag=0, apply="ratio", cap=-1, memory=1):
    """Receding horizon: at iteration i, plan i..i+H-1 from the state reached so far, apply i."""
    n = len(g.nodes)
    race = [g.nodes[k][2] for k in range(n)]
    race_start, race_end = g.forward(race)
    period = max(race_end) / g.iters
    task_iter = {(g.task[k], g.iteration[k]): k for k in range(n)}
    fractions = {}
    duration = list(race)
    infeasible = 0
    for i in range(1 + lag, g.iters):
        _, end = g.forward(duration)  # only the ends of iterations before i - lag are used
        known = i - 1 - lag  # the last iteration every rank has completed

        def work_of(k):
            if predict == "oracle":
                return g.nodes[k][2]
            seen = [task_iter[(g.task[k], it)] for it in range(known - memory + 1, known + 1)
                    if (g.task[k], it) in task_iter]
            return max(g.nodes[src][2] for src in seen) if seen else g.nodes[k][2]

        plan = solve_horizon(g, i, H, work_of, end, race_end, margin, period, fractions, lag, cap)
        if plan is None:
            infeasible += 1
            continue
        for k, f in plan.items():
            if apply == "time":  # the planned seconds, the actual work (known at the task's start)
                f = cheapest_mix(g.ranks[g.nodes[k][0]]["pstates"], work_of(k) * f.sum() / g.nodes[k][2])
            fractions[k] = f
            duration[k] = g.nodes[k][2] * f.sum()
    _, end = g.forward(duration)
    return price(g, summary, fractions, end, race_end, infeasible)


def price(g, summary, fractions, end, race_end, infeasible):
    makespan, race_makespan = max(end), max(race_end)

    def energy(T, use_plan):
        e = sum(r["pstates"][0][2] for r in g.ranks) * T
        for k, (rank, _, work) in enumerate(g.nodes):
            ps = g.ranks[rank]["pstates"]
            idle = ps[0][2]
            if use_plan and k in fractions:
                e += work * sum(f * (p[1] - idle) for f, p in zip(fractions[k], ps))
            else:
                e += work * (ps[0][1] - idle)
        return e

    e_race, e_plan = energy(race_makespan, False), energy(makespan, True)
    opt = summary.get("dvfs_optimum_saving_j")
    saving = e_race - e_plan
    return {"infeasible": infeasible, "makespan_pct": 100 * (makespan / race_makespan - 1),
            "saving_pct": 100 * saving / e_race, "of_optimum_pct": 100 * saving / opt if opt else None}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run_dir")
    ap.add_argument("--per-iter", type=int, default=2, help="computations per rank and iteration")
    ap.add_argument("--K", default="1,2,3")
    ap.add_argument("--margin", default="0")
    ap.add_argument("--lag", default="0")
    ap.add_argument("--take", default="last")
    ap.add_argument("--mpc", default="", help="receding horizon: horizons H, comma-separated")
    ap.add_argument("--cap", default="-1", help="lateness cap of every planned computation, in iterations (-1: none)")
    ap.add_argument("--memory", default="1", help="predicted work: the most of the task's last M iterations")
    ap.add_argument("--apply", default="ratio", help="ratio: the plan's seconds per pstate per second of work; time: its seconds")
    ap.add_argument("--predict", default="last", help="last: every horizon iteration's work = the last observed; oracle")
    args = ap.parse_args()
    graph, summary = load(args.run_dir)
    g = Graph(graph, args.per_iter)
    if args.mpc:
        print("| H | margin | predict, lag, apply, cap, memory | makespan % | saving % | of the optimum | infeasible steps |")
        print("|---|---|---|---|---|---|---|")
        grid = itertools.product([int(x) for x in args.mpc.split(",")], [float(x) for x in args.margin.split(",")],
                                 args.predict.split(","), [int(x) for x in args.lag.split(",")], args.apply.split(","),
                                 [float(x) for x in args.cap.split(",")], [int(x) for x in args.memory.split(",")])
        for H, margin, predict, lag, apply, cap, memory in grid:
            r = simulate_mpc(g, summary, H, margin, predict, lag, apply, cap, memory)
            print(f"| {H} | {margin} | {predict}, lag {lag}, {apply}, cap {cap}, memory {memory} | "
                  f"{r['makespan_pct']:+.3f} | {r['saving_pct']:.3f} | {r['of_optimum_pct']:.1f} % | {r['infeasible']} |",
                  flush=True)
        return 0
    print("| K | margin | lag | take | makespan % | saving % | of the optimum | infeasible windows |")
    print("|---|---|---|---|---|---|---|---|")
    for K in [int(x) for x in args.K.split(",")]:
        for margin in [float(x) for x in args.margin.split(",")]:
            for lag in [int(x) for x in args.lag.split(",")]:
                for take in args.take.split(","):
                    r = simulate(g, summary, K, margin, lag, take)
                    print(f"| {K} | {margin} | {lag} | {take} | {r['makespan_pct']:+.3f} | {r['saving_pct']:.3f} | "
                          f"{r['of_optimum_pct']:.1f} % | {r['infeasible']} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
