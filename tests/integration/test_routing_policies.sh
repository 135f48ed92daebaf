#!/usr/bin/env bash
# Per-message routing (haec run --routing) in real replays of a 16-rank lu_like trace on
# hierarchical:1x1x5,cores=8,indirect=3: one node per rack, the ranks on racks 0 and 1 (MARS seed
# 003 §3.3's layout). Racks 0 and 1 are joined by one l3 cable (1 hop); each indirect route crosses
# one of racks 2, 3, 4 (2 hops). Checks, from messages.csv and links.csv:
#  - static with indirect=3 is today's route, bit for bit (the spec without indirect=);
#  - round-robin: a node pair's n messages take its 4 routes in turn: ceil(n/4) take the direct one;
#  - random: other link loads than static, the same files again with the same seed, others with another;
#  - adaptive runs and uses the detours;
#  - every policy: links.csv payload on the cables = sum of bytes x hops of messages.csv (each
#    message counted on the route it took);
#  - the link models time each message on its own route: with --link pnc_r (whose per-pair route
#    cache must notice a pair's other routes) a pair's 2-hop messages take longer than its 1-hop
#    messages of the same size, and all messages of one size and hop count take the same time.
source "$(dirname "$0")/common.sh"
record_lu16_trace
printf 'node-0-0-0:8\nnode-0-0-1:8\n' > two_racks

spec="hierarchical:1x1x5,cores=8"
replay() { # OUT SPEC ROUTING-OPTIONS...
  local out="$1" platform="$2"
  shift 2
  "$haec" run --platform "$platform" --hostfile two_racks --messages --power --replay trace/lu.txt --out "$out" --quiet "$@"
}
replay plain "$spec"
replay static "$spec,indirect=3" --routing static
replay rr "$spec,indirect=3" --routing round-robin
replay random "$spec,indirect=3" --routing random --routing-seed 7
replay random-again "$spec,indirect=3" --routing random --routing-seed 7
replay random-other "$spec,indirect=3" --routing random --routing-seed 8
replay adaptive "$spec,indirect=3" --routing adaptive
replay pnc "$spec,indirect=3" --routing round-robin --link pnc_r

for f in messages.csv links.csv hops.csv; do
  cmp "plain/$f" "static/$f" || { echo "FAIL: static routing with indirect=3 changed $f"; exit 1; }
  cmp "random/$f" "random-again/$f" || { echo "FAIL: random routing, same seed, $f differs"; exit 1; }
done
cmp -s random/links.csv random-other/links.csv && { echo "FAIL: another seed gave the same link loads"; exit 1; }
cmp -s static/links.csv random/links.csv && { echo "FAIL: random routing gave static's link loads"; exit 1; }

/usr/bin/python3 - <<'PY'
import csv, json, math
from collections import defaultdict

def rows(d, f):
    return list(csv.DictReader(open(f"{d}/{f}")))

def cable_payload(d):
    return {r["link"]: float(r["payload_bytes"]) for r in rows(d, "links.csv") if r["type"] in ("l1", "l2", "l3")}

for d in ("static", "rr", "random", "adaptive"):
    on_links = sum(cable_payload(d).values())
    by_messages = sum(int(m["bytes"]) * int(m["hops"]) for m in rows(d, "messages.csv"))
    assert on_links == by_messages, (d, on_links, by_messages)
    assert json.load(open(f"{d}/summary.json")).get("routing", {"policy": "static"})["policy"] == \
        {"static": "static", "rr": "round-robin", "random": "random", "adaptive": "adaptive"}[d], d

# Static: everything between the two racks on their own cable (1 hop).
static_hops = {int(m["hops"]) for m in rows("static", "messages.csv")}
assert static_hops <= {0, 1}, static_hops
assert set(k for k, v in cable_payload("static").items() if v > 0) == {"l3-0-1-0", "l3-1-0-0"}

# Round-robin: per node pair, messages 0, 4, 8, ... direct (1 hop), the others 2 hops.
by_pair = defaultdict(list)
for m in rows("rr", "messages.csv"):
    if m["src_node"] != m["dst_node"]:
        by_pair[(m["src_node"], m["dst_node"])].append(int(m["hops"]))
assert len(by_pair) == 2, by_pair.keys()
for pair, hops in by_pair.items():
    n = len(hops)
    assert hops.count(1) == math.ceil(n / 4) and hops.count(2) == n - math.ceil(n / 4), (pair, n, hops.count(1))
rr_links = cable_payload("rr")
for detour in (2, 3, 4):  # each detour rack carried a share both ways
    for a, b in ((0, detour), (detour, 1), (1, detour), (detour, 0)):
        assert rr_links[f"l3-{a}-{b}-0"] > 0, (a, b)

# Random: both kinds of route, other shares than round-robin.
random_hops = [int(m["hops"]) for m in rows("random", "messages.csv") if m["src_node"] != m["dst_node"]]
assert 1 in random_hops and 2 in random_hops
adaptive_hops = [int(m["hops"]) for m in rows("adaptive", "messages.csv") if m["src_node"] != m["dst_node"]]
assert 2 in adaptive_hops, "adaptive never took a detour"
# pnc_r: one model time per (size, hops), longer over 2 hops.
times = defaultdict(set)
for m in rows("pnc", "messages.csv"):
    if m["src_node"] != m["dst_node"]:
        times[(int(m["bytes"]), int(m["hops"]))].add(float(m["model_time"]))
assert all(len(v) == 1 for v in times.values()), times
sizes = {b for b, h in times if (b, 1) in times and (b, 2) in times}
assert sizes and all(min(times[(b, 2)]) > max(times[(b, 1)]) for b in sizes), times
print("routing policies: ok", {p: len(h) for p, h in by_pair.items()})
PY
echo "PASS"
