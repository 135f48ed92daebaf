#!/usr/bin/python3
"""Writes SimGrid 3.32 time-independent (TI) traces with the communication patterns of three NAS
Parallel Benchmarks, for the mapping study (scripts/mapping_study.py). They are patterns, not the
benchmarks: the partners, message counts and sizes follow NPB 3.x class C, the computation is a
constant per stage, and a few iterations stand for the run.

    npb_like_traces.py --pattern lu|bt|cg --ranks N [--iterations I] --out DIR

Patterns (rank numbering and partners as in NPB; sizes in bytes of doubles):
  lu  LU's pipelined SSOR on a 2-D grid xdim x ydim (NPB: xdim = 2^ceil(log2(N)/2), ydim = N/xdim),
      local block nx x ny = 162/xdim x 162/ydim, nz = 162 planes. Per iteration: the lower sweep
      pipelines the k-planes in blocks of 10 (recv north and west, compute, send south and east),
      each message 5 variables x the block's edge x 10 planes; the upper sweep runs back (recv
      south and east, send north and west); then exch_3 sends 2 layers x 5 variables x the face
      x nz to every neighbour. Non-periodic.
  bt  BT's multipartition on a q x p grid (q = p when N is a square, else q = 2p): cell (i, j, k),
      k = 0..p-1, belongs to the process at ((i - k) mod q, (j - k) mod p), so the x, y and z
      solves pass each cell's faces to the process at +x, +y and the diagonal (-1, -1), periodic.
      Cells of c^3 points, c = 162/p. Per iteration: copy_faces sends 2 layers x 5 variables x
      c^2 x p cells to the six partners; each solve pipelines p stages forward (30 doubles per
      face point: the 5x5 block and the right-hand side) and p stages back (5 per point).
  cg  CG on nprows x npcols (NPB: npcols = 2^ceil(log2(N)/2), nprows = N/npcols), class C
      na = 150000, segment L = na/npcols. Per CG step: the row reduction exchanges L/2, L/4, ...
      doubles with the partners at column XOR 1, 2, 4, ...; then the transpose partner (row, col)
      <-> (col/(npcols/nprows), ...) gets L doubles; then two dot products pass 1 double along the
      same recursive-doubling partners. NPB runs 25 CG steps per iteration; the trace holds 5.
Exchanges between two ranks are ordered by parity (the lower one along the exchange's axis sends
first) so that blocking sends never wait in a cycle. Files end with a newline (SimGrid drops a last
line that has none). Output: DIR/list.txt naming DIR/rank-<r>.txt.
"""
import argparse
import math
import os
import sys

DOUBLE = 8
NPB_C = 162
CG_NA = 150000
COMPUTE_FLOPS = 20000  # per stage: 20 us at 1 Gf, so that communication matters


class Rank:
    """The actions of one rank."""

    def __init__(self, rank):
        self.rank = rank
        self.lines = [f"{rank} init\n"]

    def compute(self, flops=COMPUTE_FLOPS):
        self.lines.append(f"{self.rank} compute {flops}\n")

    def send(self, peer, tag, size):
        self.lines.append(f"{self.rank} send {peer} {tag} {int(size)} 6\n")

    def recv(self, peer, tag, size):
        self.lines.append(f"{self.rank} recv {peer} {tag} {int(size)} 6\n")

    def exchange(self, peer, tag, size, first):
        """Both directions with one partner; `first` sends first (the partner receives first)."""
        if first:
            self.send(peer, tag, size)
            self.recv(peer, tag, size)
        else:
            self.recv(peer, tag, size)
            self.send(peer, tag, size)

    def shift(self, to, frm, even, tag, size):
        """Send to `to` and receive from `frm` (a shift along a ring): even ranks send first."""
        if to == self.rank:
            return
        if even:
            self.send(to, tag, size)
            self.recv(frm, tag, size)
        else:
            self.recv(frm, tag, size)
            self.send(to, tag, size)

    def axis_exchange(self, up, down, even, tag, size):
        """Both neighbours along one axis (None: none there) in two phases: pairs (even, even + 1)
        first, then (odd, odd + 1); the lower rank of a pair sends first."""
        phases = ((up, True), (down, False)) if even else ((down, False), (up, True))
        done = set()
        for peer, first in phases:
            if peer is not None and peer != self.rank and peer not in done:
                self.exchange(peer, tag, size, first)
                done.add(peer)


def lu_ranks(n, iterations):
    ndim = int(math.log2(n))
    xdim = 2 ** ((ndim + 1) // 2)
    ydim = n // xdim
    nx, ny, nz, block = NPB_C // xdim, NPB_C // ydim, NPB_C, 10
    ranks = [Rank(r) for r in range(n)]
    for it in range(iterations):
        for r in ranks:
            x, y = r.rank % xdim, r.rank // xdim
            north = r.rank - xdim if y > 0 else None
            south = r.rank + xdim if y + 1 < ydim else None
            west = r.rank - 1 if x > 0 else None
            east = r.rank + 1 if x + 1 < xdim else None
            along_x, along_y = 5 * ny * block * DOUBLE, 5 * nx * block * DOUBLE
            for frm, to, tag in (((north, west), (south, east), 1), ((south, east), (north, west), 2)):
                for _ in range(0, nz, block):
                    for peer in frm:
                        if peer is not None:
                            r.recv(peer, tag, along_y if peer in (north, south) else along_x)
                    r.compute()
                    for peer in to:
                        if peer is not None:
                            r.send(peer, tag, along_y if peer in (north, south) else along_x)
            r.axis_exchange(east, west, x % 2 == 0, 3, 10 * ny * nz * DOUBLE)  # exch_3: 2 layers x 5 variables
            r.axis_exchange(south, north, y % 2 == 0, 4, 10 * nx * nz * DOUBLE)
            r.compute()
    return ranks


def bt_ranks(n, iterations):
    p = math.isqrt(n)
    q = p if p * p == n else 2 * math.isqrt(n // 2)
    p = n // q
    c = NPB_C // max(p, q)
    ranks = [Rank(r) for r in range(n)]
    at = lambda x, y: (x % q) + q * (y % p)
    for it in range(iterations):
        for r in ranks:
            x, y = r.rank % q, r.rank // q
            axes = ((at(x + 1, y), at(x - 1, y), x % 2 == 0),
                    (at(x, y + 1), at(x, y - 1), y % 2 == 0),
                    (at(x - 1, y - 1), at(x + 1, y + 1), x % 2 == 0))
            for axis, (up, down, even) in enumerate(axes):  # copy_faces
                r.axis_exchange(up, down, even, 10 + axis, 10 * c * c * p * DOUBLE)
            for axis, (up, down, even) in enumerate(axes):  # solves: p stages forward, p back
                for _ in range(p):
                    r.shift(up, down, even, 20 + axis, 30 * c * c * DOUBLE)
                    r.compute()
                for _ in range(p):
                    r.shift(down, up, even, 30 + axis, 5 * c * c * DOUBLE)
                    r.compute()
    return ranks


def cg_ranks(n, iterations, steps=5):
    ndim = int(math.log2(n))
    npcols = 2 ** ((ndim + 1) // 2)
    nprows = n // npcols
    seg = CG_NA // npcols
    ratio = npcols // nprows
    ranks = [Rank(r) for r in range(n)]

    def transpose(rank):
        row, col = rank // npcols, rank % npcols
        return (col // ratio) * npcols + ratio * row + col % ratio

    for _ in range(iterations * steps):
        for r in ranks:
            col = r.rank % npcols
            for i in range(int(math.log2(npcols))):
                partner = r.rank ^ (1 << i)
                r.exchange(partner, 40 + i, seg // 2 ** (i + 1) * DOUBLE, (col >> i) % 2 == 0)
            t = transpose(r.rank)
            if t != r.rank:
                r.exchange(t, 50, seg * DOUBLE, r.rank < t)
            r.compute()
            for dot in range(2):
                for i in range(int(math.log2(npcols))):
                    r.exchange(r.rank ^ (1 << i), 60 + dot, DOUBLE, (col >> i) % 2 == 0)
    return ranks


def write(ranks, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    out_dir = os.path.abspath(out_dir)
    names = []
    for r in ranks:
        name = os.path.join(out_dir, f"rank-{r.rank}.txt")
        with open(name, "w") as f:
            f.writelines(r.lines)
            f.write(f"{r.rank} finalize\n")
        names.append(name)
    with open(os.path.join(out_dir, "list.txt"), "w") as f:
        f.write("".join(n + "\n" for n in names))
    return os.path.join(out_dir, "list.txt")


PATTERNS = {"lu": lu_ranks, "bt": bt_ranks, "cg": cg_ranks}


def generate(pattern, ranks, iterations, out_dir):
    if ranks < 4 or ranks & (ranks - 1):
        raise ValueError(f"--ranks {ranks}: the NPB-like patterns need a power of two >= 4")
    return write(PATTERNS[pattern](ranks, iterations), out_dir)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pattern", choices=sorted(PATTERNS), required=True)
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--iterations", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    try:
        print(generate(a.pattern, a.ranks, a.iterations, a.out))
    except ValueError as e:
        sys.exit(f"npb_like_traces: {e}")


if __name__ == "__main__":
    main()
