#!/usr/bin/python3
"""Writes a SimGrid 3.32 time-independent (TI) trace with the communication pattern of apps/lu_like,
for rank counts too large to record by emulation: a list file naming one action file per rank,
which is what `smpirun -replay LIST` (and `haec run --replay LIST`) reads.

    gen_lu_trace.py --ranks N --iterations I [--nz 8] --out DIR

Pattern (the one lu_like.c executes; checked against a recorded trace by compare_traces.py):
  * ranks on a rows x cols grid, rows = the largest divisor r of N with r*r <= N (64x64 for 4096);
    north = rank - cols, south = rank + cols, west = rank - 1, east = rank + 1 inside the grid;
  * per iteration, a lower sweep k = 0..nz-1: recv north, recv west, compute, send south, send east
    (tag 11), then an upper sweep k = nz-1..0: recv south, recv east, compute, send north, send west
    (tag 12); a message is 30 + k mod 6 doubles (240..280 B);
  * `allreduce 5` (doubles) after every 5th and the last iteration, `allreduce 2` at the end.
Only the compute amounts are modelled (lu_like's are measured CPU time): a constant number of flops
per k-plane, per iteration tail (update + residual) and for the set-up; defaults near the medians of
a recorded 16-rank trace at 1 Gf.

Action syntax (SimGrid 3.32 src/smpi/internals/smpi_replay.cpp and the TI tracer): each line is
`<rank> <action> ...`, point-to-point `send|recv <peer> <tag> <count> <datatype>` with datatype id 0 =
MPI_DOUBLE, `allreduce <count> <comp_flops> <datatype>`, `compute <flops>`. Every file ends with a
newline: SimGrid's reader drops a last line that has none.
"""
import argparse
import os
import sys
import time

TAG_LOWER, TAG_UPPER = 11, 12
EDGE, MAX_TRAILER, NORM_EVERY = 30, 5, 5
DOUBLE = "0"  # SimGrid 3.32 datatype id of MPI_DOUBLE


def grid_shape(size):
    rows = 1
    r = 1
    while r * r <= size:
        if size % r == 0:
            rows = r
        r += 1
    return rows, size // rows


def message_doubles(k):
    return EDGE + k % (MAX_TRAILER + 1)


def iteration_block(rank, rows, cols, nz, plane_flops, tail_flops):
    """The actions of one iteration of `rank`, as text (identical for every iteration)."""
    row, col = divmod(rank, cols)
    north = rank - cols if row > 0 else None
    south = rank + cols if row + 1 < rows else None
    west = rank - 1 if col > 0 else None
    east = rank + 1 if col + 1 < cols else None
    p = f"{rank} "
    out = []
    for sweep, order, recv_from, send_to, tag in (
        ("lower", range(nz), (north, west), (south, east), TAG_LOWER),
        ("upper", range(nz - 1, -1, -1), (south, east), (north, west), TAG_UPPER),
    ):
        for k in order:
            n = message_doubles(k)
            for peer in recv_from:
                if peer is not None:
                    out.append(f"{p}recv {peer} {tag} {n} {DOUBLE}\n")
            out.append(f"{p}compute {plane_flops}\n")
            for peer in send_to:
                if peer is not None:
                    out.append(f"{p}send {peer} {tag} {n} {DOUBLE}\n")
    out.append(f"{p}compute {tail_flops}\n")
    return "".join(out)


def generate(ranks, iterations, nz, out_dir, plane_flops, tail_flops, init_flops):
    rows, cols = grid_shape(ranks)
    os.makedirs(out_dir, exist_ok=True)
    out_dir = os.path.abspath(out_dir)
    names = []
    for rank in range(ranks):
        name = os.path.join(out_dir, f"rank-{rank}.txt")
        names.append(name)
        block = iteration_block(rank, rows, cols, nz, plane_flops, tail_flops)
        norm = f"{rank} allreduce 5 0 {DOUBLE}\n"
        with open(name, "w") as f:
            f.write(f"{rank} init\n{rank} compute {init_flops}\n")
            for it in range(1, iterations + 1):
                f.write(block)
                if it % NORM_EVERY == 0 or it == iterations:
                    f.write(norm)
            f.write(f"{rank} allreduce 2 0 {DOUBLE}\n{rank} finalize\n")
    list_path = os.path.join(out_dir, "lu.txt")
    with open(list_path, "w") as f:
        f.write("".join(n + "\n" for n in names))
    return list_path, rows, cols


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--iterations", type=int, required=True)
    ap.add_argument("--nz", type=int, default=8, help="k-planes per rank (lu_like's default: 8)")
    ap.add_argument("--plane-flops", type=int, default=5000, help="compute per k-plane of a sweep")
    ap.add_argument("--tail-flops", type=int, default=30000, help="compute after both sweeps (update, residual)")
    ap.add_argument("--init-flops", type=int, default=340000, help="compute before the first sweep")
    ap.add_argument("--out", required=True, help="directory receiving lu.txt (the list) and rank-<r>.txt")
    a = ap.parse_args()
    if a.ranks < 1 or a.iterations < 1 or a.nz < 2:
        sys.exit("gen_lu_trace: need --ranks >= 1, --iterations >= 1, --nz >= 2 (as lu_like)")
    t0 = time.monotonic()
    list_path, rows, cols = generate(a.ranks, a.iterations, a.nz, a.out, a.plane_flops, a.tail_flops, a.init_flops)
    rows_cols = f"{rows}x{cols}"
    p2p = 2 * a.nz * a.iterations * (rows * (cols - 1) + cols * (rows - 1))
    print(f"gen_lu_trace: {list_path}: {a.ranks} ranks (grid {rows_cols}), {a.iterations} iterations, nz={a.nz}, "
          f"{p2p} point-to-point messages, {time.monotonic() - t0:.2f} s")


if __name__ == "__main__":
    main()
