#!/usr/bin/env bash
# One number, one meaning: message_hops (the application's logical messages x the links of the
# route between their nodes) and transfer_hops (links crossed by every network transfer,
# collectives included) are named apart in summary.json, hops.csv, metrics.json and the console.
# On a SimGrid XML cluster both come from SimGrid's routes (up, backbone, down: 3 links), never from
# a grid laid over the hosts; haec map and haec run agree.
source "$(dirname "$0")/common.sh"
cat > cl.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-26" speed="1Gf" bw="1.25GBps" lat="1.5us" bb_bw="10GBps" bb_lat="1us"/>
</platform>
XML
"$haec" run --platform cl.xml --map xyz -np 27 --messages --out run -- "$build/bin/lu_like" 2 > console.txt
"$haec" map --platform cl.xml --map xyz -np 27 --traffic run/traffic_matrix.csv --out map > /dev/null
/usr/bin/python3 - <<'PY'
import csv, json
s = json.load(open("run/summary.json"))
assert "total_hops" not in s, "the ambiguous name is gone"
k = s["mapping"]["metrics"]
msgs = list(csv.DictReader(open("run/messages.csv")))
inter = {int(m["hops"]) for m in msgs if m["src_node"] != m["dst_node"]}
assert inter == {3}, ("SimGrid's cluster route is up, backbone, down", inter)
assert s["transfer_hops"] == sum(int(m["hops"]) for m in msgs), s["transfer_hops"]
assert k["message_hops"] == 3 * k["ienlc"], (k, "route lengths, not a grid distance")
assert s["transfer_hops"] > k["message_hops"], "the allreduces add transfers"
last = open("run/hops.csv").read().splitlines()[-1]
assert last == f"transfer_hops,{s['transfer_hops']}", last
m = json.load(open("map/metrics.json"))["metrics"]
assert m["message_hops"] == k["message_hops"] and m["max_dilation"] == 3, m
print(f"XML cluster: message_hops {k['message_hops']} = 3 x IeNLC {k['ienlc']}; transfer_hops {s['transfer_hops']}")
PY
grep -q "transfer hops $(/usr/bin/python3 -c 'import json; print(json.load(open("run/summary.json"))["transfer_hops"])')" console.txt \
  || { cat console.txt; echo "FAIL: console does not name transfer hops"; exit 1; }
grep -q "message hops [0-9]" console.txt || { cat console.txt; echo "FAIL: console does not name message hops"; exit 1; }
cat console.txt
