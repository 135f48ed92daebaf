#!/usr/bin/env bash
# MARS's topologies in real runs: a TI trace of lu_like replayed by `haec run` on a fat tree (with
# and without reduce=, sequential and random placement, several ranks per node) and on the
# hierarchical network (1 and 2 level-3 links). Every message's hop count in messages.csv must be
# the route length worked out independently here: 2 l on the fat tree (l = lowest common level),
# the BFS length over the documented cable layout on the hierarchical network. Reduce must slow
# the run down, never speed it up; the same replay twice is bit-identical.
source "$(dirname "$0")/common.sh"
record_lu16_trace

replay() { # OUT SPEC MAP [OPTION...]: 16 ranks, two per node (cores=2, the xyz mapping fills nodes in turn)
  "$haec" run --platform "$2" --map "$3" --seed 5 --messages --replay trace/lu.txt --out "$1" --quiet "${@:4}"
}
replay ft "fat-tree:2;2,4;1,2;1,1,cores=2" xyz
replay ft-again "fat-tree:2;2,4;1,2;1,1,cores=2" xyz
replay ft75 "fat-tree:2;2,4;1,2;1,1,cores=2,reduce=75" xyz
# random draws each rank's node independently (seed 004): seed 5 puts 3 ranks on a 2-core node
replay ft-random "fat-tree:2;2,4;1,2;1,1,cores=2" random --oversubscribe
replay hier "hierarchical:2x2x2,cores=2" xyz
replay hier2 "hierarchical:2x2x2,cores=2,l3=2" xyz
for f in summary.json messages.csv traffic_matrix.csv hostfile; do
  cmp "ft/$f" "ft-again/$f" || { echo "FAIL: $f differs between two replays"; exit 1; }
done

/usr/bin/python3 - <<'PY'
import csv, json
from collections import Counter, deque

def node_index(name):  # fat tree: node-i
    return int(name.split("-")[1])

def fat_tree_hops(a, b, down=(2, 4)):
    group = 1
    for level in range(len(down) + 1):
        if a // group == b // group:
            return 2 * level
        if level < len(down):
            group *= down[level]
    return 2 * len(down)

def hier_graph(S, B, R, l3):
    """Cables as docs/MODELS.md §8 lays them out: node id s + S (b + B r)."""
    nid = lambda s, b, r: s + S * (b + B * r)
    peer = lambda me, other: other if other < me else other - 1
    adj = {n: set() for n in range(S * B * R)}
    def cable(x, y):
        adj[x].add(y); adj[y].add(x)
    for r in range(R):
        for b in range(B):
            for i in range(S):
                for j in range(i + 1, S):
                    cable(nid(i, b, r), nid(j, b, r))
        for a in range(B):
            for b in range(a + 1, B):
                cable(nid(peer(a, b) % S, a, r), nid(peer(b, a) % S, b, r))
    for r in range(R):
        for q in range(r + 1, R):
            for k in range(l3):
                x, y = (peer(r, q) * l3 + k) % (S * B), (peer(q, r) * l3 + k) % (S * B)
                cable(S * B * r + x, S * B * q + y)
    return adj

def bfs(adj, src):
    dist = {src: 0}
    todo = deque([src])
    while todo:
        n = todo.popleft()
        for m in adj[n]:
            if m not in dist:
                dist[m] = dist[n] + 1
                todo.append(m)
    return dist

def hier_index(name, S=2, B=2):  # node-s-b-r
    s, b, r = map(int, name.split("-")[1:])
    return s + S * (b + B * r)

def check(run, hops_of, two_per_node=True):
    msgs = list(csv.DictReader(open(f"{run}/messages.csv")))
    assert msgs, run
    seen = Counter()
    for m in msgs:
        want = hops_of(m["src_node"], m["dst_node"])
        assert int(m["hops"]) == want, (run, m, want)
        seen[want] += 1
    hosts = Counter(open(f"{run}/hostfile").read().split())
    assert not two_per_node or set(hosts.values()) == {2}, (run, "two ranks per node", hosts)
    assert sum(hosts.values()) == 16 and max(hosts.values()) >= 2, (run, hosts)
    return seen, json.load(open(f"{run}/summary.json"))["makespan_s"]

ft = lambda a, b: fat_tree_hops(node_index(a), node_index(b))
seen, t0 = check("ft", ft)
assert seen[2] > 0 and seen[4] > 0, ("both levels used", seen)
_, t75 = check("ft75", ft)
assert t75 > t0, ("reduce=75 slows the level-2 cables", t0, t75)
seen_r, _ = check("ft-random", ft, two_per_node=False)  # random: ranks drawn independently
print(f"fat-tree 2;2,4;1,2;1,1: hops {dict(seen)} (xyz) {dict(seen_r)} (random); makespan {t0:.6g} s, reduce=75 {t75:.6g} s")
for run, l3 in (("hier", 1), ("hier2", 2)):
    adj = hier_graph(2, 2, 2, l3)
    dist = {n: bfs(adj, n) for n in adj}
    seen, t = check(run, lambda a, b: dist[hier_index(a)][hier_index(b)])
    print(f"hierarchical 2x2x2 l3={l3}: hops {dict(seen)}; makespan {t:.6g} s")
PY
echo "MARS topology replays passed"
