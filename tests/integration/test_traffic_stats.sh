#!/usr/bin/env bash
# Traffic statistics and snapshots (README "Result directory"), on real SimGrid runs:
#   1. pingpong on two hosts joined by one link, no cross traffic: one flow at a time, so the link's
#      busy time times its bandwidth must equal its flow bytes (utilisation = busy fraction):
#      this checks the bandwidth-phase start (start + latency factor x route latency) against
#      SimGrid's own sharing; busy time is below the union of [start, end] of messages.csv by
#      the latency phases; per-pair and histogram totals equal summary.json's;
#   2. a replay of lu_like (16 ranks, haec-box 2x2x2, DOR) with --snapshot-period: the snapshots
#      summed over all periods equal traffic_matrix.csv and link_stats.csv exactly; the links'
#      payload bytes add up to the transfers' bytes times their route lengths (messages.csv);
#      no link carries more than its bandwidth while busy; two replays are identical bit for bit;
#   3. scripts/animate_snapshots.py renders one PNG frame per period and a GIF of as many frames
#      (skipped, with a line saying so, only when matplotlib is missing).
source "$(dirname "$0")/common.sh"

cat > two.xml <<'X'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a" speed="1Gf"/>
    <host id="b" speed="1Gf"/>
    <link id="l" bandwidth="1GBps" latency="10us"/>
    <route src="a" dst="b"><link_ctn id="l"/></route>
  </zone>
</platform>
X
"$haec" run --platform two.xml -np 2 --cfg network/crosstraffic:0 --messages --out pp --quiet \
  -- "$build/bin/pingpong" 65536 2
$py - pp <<'P'
import csv, json, sys
d = sys.argv[1]
s = json.load(open(f"{d}/summary.json"))
links = {r["link"]: r for r in csv.DictReader(open(f"{d}/link_stats.csv"))}
msgs = list(csv.DictReader(open(f"{d}/messages.csv")))
l = links["l"]
busy, occ, bw = float(l["busy_s"]), float(l["occupied_bytes"]), float(l["bandwidth_Bps"])
assert int(l["transfers"]) == len(msgs) == s["messages"], (l, len(msgs))
assert int(l["payload_bytes"]) == s["bytes"], l
assert abs(busy * bw - occ) <= 1e-9 * occ, ("one flow at a time: busy x bandwidth must be the flow bytes", busy * bw, occ)
assert float(l["mean_flows"]) == 1.0, l
iv = sorted((float(m["start"]), float(m["end"])) for m in msgs)
union, cur = 0.0, None
for b, e in iv:
    if cur and b <= cur[1]:
        cur[1] = max(cur[1], e)
    else:
        union += cur[1] - cur[0] if cur else 0.0
        cur = [b, e]
union += cur[1] - cur[0]
# every transfer's latency phase (10 us x SMPI's latency factor, >= 1.6) is outside busy time
assert busy < union - len(msgs) * 10e-6, (busy, union)
pairs = list(csv.DictReader(open(f"{d}/transfer_pairs.csv")))
assert sum(int(p["transfers"]) for p in pairs) == s["messages"]
assert sum(int(p["bytes"]) for p in pairs) == s["bytes"]
for p in pairs:
    assert float(p["min_transfer_s"]) <= float(p["mean_transfer_s"]) <= float(p["max_transfer_s"]), p
hist = list(csv.DictReader(open(f"{d}/msg_size_hist.csv")))
assert sum(int(h["transfers"]) for h in hist) == s["messages"]
assert sum(int(h["transfer_bytes"]) for h in hist) == s["bytes"]
assert sum(int(h["app_messages"]) for h in hist) == s["app_messages"]
for h in hist:  # every bin's bytes lie within its edges
    n, lo, hi = int(h["app_messages"]), int(h["min_bytes"]), int(h["max_bytes"])
    assert n * lo <= int(h["app_bytes"]) <= n * hi, h
    assert hi + 1 == 2 * max(lo, 1) or lo == 0, h
print(f"pingpong: busy {busy:.6g} s x bandwidth = flow bytes {occ:.6g} (one flow at a time); union of transfers {union:.6g} s")
P

trace="$source_dir/examples/campaigns/lu_like16/trace.txt"
for r in 1 2; do
  "$haec" run --platform haec-box:2x2x2 --link dor --replay "$trace" --messages --snapshot-period 0.25ms \
    --out lu$r --quiet
done
for f in transfer_pairs.csv msg_size_hist.csv link_stats.csv snapshot_traffic.csv snapshot_links.csv summary.json; do
  [ "$f" = summary.json ] && { diff <(grep -v '"trace"' lu1/$f) <(grep -v '"trace"' lu2/$f) > /dev/null || { echo "FAIL: $f differs between two replays"; exit 1; }; continue; }
  cmp -s lu1/$f lu2/$f || { echo "FAIL: $f differs between two replays"; diff lu1/$f lu2/$f | head -5; exit 1; }
done
$py - lu1 <<'P'
import collections, csv, json, math, sys
d = sys.argv[1]
s = json.load(open(f"{d}/summary.json"))
period, n = s["snapshot_period_s"], s["snapshot_periods"]
assert n == max(1, math.ceil(s["makespan_s"] / period)) and n > 1, (n, s["makespan_s"])
tm = {(r["src_rank"], r["dst_rank"]): (int(r["messages"]), int(r["bytes"])) for r in csv.DictReader(open(f"{d}/traffic_matrix.csv"))}
snap = collections.defaultdict(lambda: [0, 0])
for r in csv.DictReader(open(f"{d}/snapshot_traffic.csv")):
    assert 0 <= int(r["period"]) < n, r
    c = snap[(r["src_rank"], r["dst_rank"])]
    c[0] += int(r["messages"]); c[1] += int(r["bytes"])
assert {k: tuple(v) for k, v in snap.items()} == tm, "snapshots of the traffic matrix do not add up to traffic_matrix.csv"
links = {r["link"]: r for r in csv.DictReader(open(f"{d}/link_stats.csv"))}
per = collections.defaultdict(lambda: [0, 0, 0.0, 0.0])
for r in csv.DictReader(open(f"{d}/snapshot_links.csv")):
    c = per[r["link"]]
    c[0] += int(r["transfers"]); c[1] += int(r["payload_bytes"]); c[2] += float(r["occupied_bytes"]); c[3] += float(r["busy_s"])
for name, l in links.items():
    c = per.get(name, [0, 0, 0.0, 0.0])
    assert (c[0], c[1]) == (int(l["transfers"]), int(l["payload_bytes"])), ("link snapshots do not add up", name, c, l)
    assert abs(c[2] - float(l["occupied_bytes"])) <= 1e-9 * float(l["occupied_bytes"]), (name, c, l)
    assert abs(c[3] - float(l["busy_s"])) <= 1e-9 * float(l["busy_s"]) + 1e-18, (name, c, l)
    if int(l["transfers"]):
        # the link's capacity bounds what it carries while busy; a busy link has at least one flow
        assert float(l["utilisation"]) <= float(l["busy_fraction"]) * (1 + 1e-9), l
        assert float(l["mean_flows"]) >= 1 - 1e-12, l
# payload bytes over links = each transfer's bytes times its route's links (a loopback on one node)
msgs = list(csv.DictReader(open(f"{d}/messages.csv")))
want = sum(int(m["bytes"]) * (int(m["hops"]) if m["src_node"] != m["dst_node"] else 1) for m in msgs)
got = sum(int(l["payload_bytes"]) for l in links.values())
assert got == want, (got, want)
print(f"lu_like replay: {n} periods of {period} s add up to the run; {len(links)} links, {got} payload bytes x links")
P

if ! $py -c 'import matplotlib' 2>/dev/null; then
  echo "SKIP part 3: matplotlib is missing (python3-matplotlib)"
  exit 0
fi
$py "$source_dir/scripts/animate_snapshots.py" lu1 --out anim
n=$($py -c 'import json; print(json.load(open("lu1/summary.json"))["snapshot_periods"])')
frames=$(ls anim/frame-*.png | wc -l)
[ "$frames" -eq "$n" ] || { echo "FAIL: $frames frames for $n periods"; exit 1; }
gif=$($py -c 'from PIL import Image; print(Image.open("anim/snapshots.gif").n_frames)')
[ "$gif" -eq "$n" ] || { echo "FAIL: the GIF has $gif frames for $n periods"; exit 1; }
echo "animate_snapshots: $frames PNG frames and a GIF of $gif frames"
