#!/usr/bin/python3
"""Compares the communication of two TI traces (list files): per (src, dst) the number of messages
and the multiset of their sizes, and per rank the exact sequence of communication actions
(send/recv/isend/irecv/wait and collectives, computes left out: their amounts are measured CPU time
in a recording). Exit status 0 when both agree.

    compare_traces.py RECORDED_LIST GENERATED_LIST
"""
import collections
import os
import sys

DATATYPE_BYTES = {"0": 8, "1": 4, "2": 1, "6": 1}  # SimGrid 3.32 ids: DOUBLE, INT, CHAR, BYTE
P2P_SEND = {"send", "isend"}
P2P = P2P_SEND | {"recv", "irecv"}


def rank_files(list_path):
    base = os.path.dirname(os.path.abspath(list_path))
    files = []
    for line in open(list_path):
        line = line.strip()
        if line:
            files.append(line if os.path.isabs(line) or os.path.exists(line) else os.path.join(base, line))
    return files


def read(list_path):
    pairs = collections.defaultdict(collections.Counter)  # (src, dst) -> Counter(bytes)
    sequences = []
    for rank, path in enumerate(rank_files(list_path)):
        seq = []
        for line in open(path):
            f = line.split()
            if not f or f[0].startswith("#") or f[1] == "compute":
                continue
            if f[1] in P2P:
                peer, nbytes = int(f[2]), int(f[4]) * DATATYPE_BYTES.get(f[5] if len(f) > 5 else "0", 8)
                if f[1] in P2P_SEND:
                    pairs[(rank, peer)][nbytes] += 1
            seq.append(" ".join(f[1:]))
        sequences.append(seq)
    return pairs, sequences


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rec_pairs, rec_seq = read(sys.argv[1])
    gen_pairs, gen_seq = read(sys.argv[2])
    ok = True
    if len(rec_seq) != len(gen_seq):
        print(f"ranks differ: recorded {len(rec_seq)}, generated {len(gen_seq)}")
        ok = False
    keys = sorted(set(rec_pairs) | set(gen_pairs))
    same_pairs = sum(1 for k in keys if rec_pairs.get(k) == gen_pairs.get(k))
    rec_msgs = sum(sum(c.values()) for c in rec_pairs.values())
    gen_msgs = sum(sum(c.values()) for c in gen_pairs.values())
    rec_bytes = sum(b * n for c in rec_pairs.values() for b, n in c.items())
    gen_bytes = sum(b * n for c in gen_pairs.values() for b, n in c.items())
    print(f"(src,dst) pairs: recorded {len(rec_pairs)}, generated {len(gen_pairs)}, "
          f"identical counts and sizes {same_pairs}/{len(keys)}")
    print(f"messages: recorded {rec_msgs}, generated {gen_msgs}; bytes: recorded {rec_bytes}, generated {gen_bytes}")
    for k in keys:
        if rec_pairs.get(k) != gen_pairs.get(k):
            ok = False
            print(f"  pair {k}: recorded {dict(rec_pairs.get(k, {}))}, generated {dict(gen_pairs.get(k, {}))}")
    same_seq = sum(1 for a, b in zip(rec_seq, gen_seq) if a == b)
    actions = sum(len(s) for s in rec_seq)
    print(f"per-rank action sequences (computes left out, {actions} actions): identical {same_seq}/{len(rec_seq)}")
    for r, (a, b) in enumerate(zip(rec_seq, gen_seq)):
        if a != b:
            ok = False
            i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            print(f"  rank {r}: first difference at action {i}: recorded "
                  f"{a[i] if i < len(a) else '<end>'!r}, generated {b[i] if i < len(b) else '<end>'!r}")
    print("MATCH" if ok else "DIFFER")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
