#!/usr/bin/env bash
# Power plugin, sockets and workload phases (plugins/power/README.md):
#  - sockets=2,socket-w=5 on taurus: the power levels of a replay are exactly
#    eps + k/12 * slope' (+5 W once a 7th core wakes the second socket), with P(1) = one_core;
#  - a workload file with one profile of scale 1 gives the plain model's energy, bit for bit;
#  - a ranks profile halves P_dynamic on the host carrying those ranks only;
#  - a region profile (emulation, key taken from regions.csv) changes that region's power;
#  - bad workload files and socket settings fail with one line and leave no result directory.
source "$(dirname "$0")/common.sh"

# One trace, replayed everywhere: 8 ranks of lu_like (deterministic computations).
cat > one.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-1" speed="1Gf" bw="1.25GBps" lat="1.5us"/>
</platform>
XML
mkdir trace
smpirun -np 8 -platform one.xml -trace-ti --cfg=tracing/filename:trace/lu.txt --cfg=smpi/host-speed:1Gf \
  "$build/bin/lu_like" 4 > record.out 2> record.err || { cat record.err; exit 1; }

# --- sockets: all 8 ranks on one 12-core node ------------------------------------------------
"$haec" run --platform cluster:1,preset=taurus,sockets=2,socket-w=5 --replay trace/lu.txt --power-series \
  --out sock --quiet
"$haec" run --platform cluster:1,preset=taurus --replay trace/lu.txt --power-series --out flat --quiet
$py - <<'PY'
import csv
one, allc, idle, n, sw = 114.62, 174.38, 92.75, 12, 5.0
slope = (allc - one - sw) * n / (n - 1)          # linear part once the socket step is set aside
eps = allc - slope - sw
def level(k):
    return eps + k / n * slope + (sw if k > 6 else 0)
expect = {round(level(k), 9) for k in range(1, 9)} | {idle}
seen = {round(float(r["watts"]), 9) for r in csv.DictReader(open("sock/power.csv"))}
assert seen <= expect, ("unexpected levels", sorted(seen - expect))
assert round(level(7), 9) in seen and round(level(6), 9) in seen, ("7th core never woke the socket", sorted(seen))
assert abs(level(1) - one) < 1e-12, "one core must draw the calibrated one_core power"
assert abs(level(12) - allc) < 1e-12, "all cores must draw the calibrated all_cores power"
jump = level(7) - level(6)
flat_step = (allc - one) * n / (n - 1) / n
assert abs(jump - (slope / n + sw)) < 1e-9 and jump > flat_step + 4, jump
print("sockets: 6 -> 7 cores jump %.3f W (flat model %.3f W)" % (jump, flat_step))
PY

# --- one profile of scale 1: the plain model, bit for bit -------------------------------------
cat > same.json <<'JSON'
{"profiles": {"same": {"dynamic_scale": 1}}, "default": "same"}
JSON
"$haec" run --platform cluster:2,preset=taurus --replay trace/lu.txt --power --out plain --quiet
"$haec" run --platform cluster:2,preset=taurus --replay trace/lu.txt --workloads same.json --out same --quiet
cmp plain/hosts.csv same/hosts.csv || { echo "FAIL: one scale-1 profile changed hosts.csv"; exit 1; }
e1=$($py -c 'import json; print(repr(json.load(open("plain/summary.json"))["host_energy_j"]))')
e2=$($py -c 'import json; print(repr(json.load(open("same/summary.json"))["host_energy_j"]))')
[ "$e1" = "$e2" ] || { echo "FAIL: host energy $e1 (plain) vs $e2 (one profile)"; exit 1; }

# --- per-rank profile: the even ranks (node-0 under the xyz placement) at half P_dynamic ------
cat > ranks.json <<'JSON'
{"profiles": {"half": {"dynamic_scale": 0.5}}, "ranks": {"0": "half", "2": "half", "4": "half", "6": "half"}}
JSON
"$haec" run --platform cluster:2,preset=taurus --replay trace/lu.txt --workloads ranks.json --power-series \
  --out ranks --quiet
grep -c node-0 ranks/hostfile | grep -qx 4 && [ "$(sed -n "1p;3p;5p;7p" ranks/hostfile | sort -u)" = node-0 ] \
  || { echo "FAIL: expected the even ranks on node-0"; cat ranks/hostfile; exit 1; }
"$haec" run --platform cluster:2,preset=taurus --replay trace/lu.txt --power-series --out ranks-plain --quiet
$py - <<'PY'
import csv
one, allc, n = 114.62, 174.38, 12
slope = (allc - one) * n / (n - 1); eps = allc - slope
def levels(d, host):
    return {round(float(r["watts"]), 9) for r in csv.DictReader(open(d + "/power.csv")) if r["host"] == host}
half = {round(eps + k / n * 0.5 * slope, 9) for k in range(1, 5)} | {92.75}
full = {round(eps + k / n * slope, 9) for k in range(1, 5)} | {92.75}
h0, h1 = levels("ranks", "node-0"), levels("ranks", "node-1")
assert h0 <= half and len(h0) > 2, ("node-0 should draw half P_dynamic", sorted(h0))
assert h1 <= full and len(h1) > 2, ("node-1 keeps the plain model", sorted(h1))
assert levels("ranks-plain", "node-1") == h1
e = {r["host"]: float(r["energy_j"]) for r in csv.DictReader(open("ranks/hosts.csv"))}
p = {r["host"]: float(r["energy_j"]) for r in csv.DictReader(open("ranks-plain/hosts.csv"))}
assert e["node-0"] < p["node-0"] and e["node-1"] == p["node-1"], (e, p)
print("ranks profile: node-0 %.6f J (plain %.6f J), node-1 unchanged" % (e["node-0"], p["node-0"]))
PY

# --- per-region profile, in emulation: the busiest region of regions.csv at scale 0 -----------
"$haec" run --platform cluster:2,preset=taurus --np 2 --power --out emu --quiet -- "$build/bin/lu_like" 3
region=$($py -c '
import csv
rows = list(csv.DictReader(open("emu/regions.csv")))
assert rows and all(">" in r["region"] for r in rows), "regions.csv has no regions"
print(max(rows, key=lambda r: int(r["computations"]))["region"])')
printf '{"profiles": {"zero": {"dynamic_scale": 0}}, "regions": {"%s": "zero"}}\n' "$region" > region.json
"$haec" run --platform cluster:2,preset=taurus --np 2 --workloads region.json --power-series --out emu-region \
  --quiet -- "$build/bin/lu_like" 3
$py - <<'PY'
import csv
one, allc, n = 114.62, 174.38, 12
slope = (allc - one) * n / (n - 1); eps = allc - slope
seen = {round(float(r["watts"]), 9) for r in csv.DictReader(open("emu-region/power.csv"))}
assert round(eps, 9) in seen, ("region computations should draw P_static only", sorted(seen))
assert round(one, 9) in seen, ("other computations keep one_core power", sorted(seen))
print("region profile: levels", sorted(seen))
PY

# --- replay regions: the suite sees replayed actions as calls --------------------------------
$py - <<'PY'
import csv
rows = list(csv.DictReader(open("plain/regions.csv")))
assert rows and all("@trace" in r["region"] and r["region"].endswith(">*") for r in rows), rows[:3]
assert any(r["region"].startswith("MPI_Recv@trace:") for r in rows), [r["region"] for r in rows]
PY
busiest=$($py -c '
import csv; rows = list(csv.DictReader(open("plain/regions.csv")))
print(max(rows, key=lambda r: int(r["computations"]))["region"])')
printf '{"profiles": {"zero": {"dynamic_scale": 0}}, "regions": {"%s": "zero"}}\n' "$busiest" > replay-region.json
"$haec" run --platform cluster:2,preset=taurus --replay trace/lu.txt --workloads replay-region.json --out replay-region --quiet
$py - <<'PY'
import json
a = json.load(open("plain/summary.json")); b = json.load(open("replay-region/summary.json"))
assert b["host_energy_j"] < a["host_energy_j"] and a["makespan_s"] == b["makespan_s"], (a, b)
PY

# --- per-host polling share (haec:polling overrides haec/power/polling) ----------------------
cat > poll.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="h0" speed="1Gf"><prop id="wattage_per_state" value="10:20:60"/><prop id="haec:polling" value="0.25"/></host>
    <host id="h1" speed="1Gf"><prop id="wattage_per_state" value="10:20:60"/></host>
    <link id="l" bandwidth="1.25GBps" latency="1.5us"/>
    <route src="h0" dst="h1"><link_ctn id="l"/></route>
  </zone>
</platform>
XML
printf 'h0\nh1\n' > poll.hosts
"$haec" run --platform poll.xml --hostfile poll.hosts --np 2 --power-series --out poll --quiet -- "$build/bin/poll_vs_sleep" iprobe 20
$py - <<'PY'
import csv
pts = [(float(r["time"]), float(r["watts"])) for r in csv.DictReader(open("poll/power.csv")) if r["host"] == "h0"]
at30 = sum(b[0] - a[0] for a, b in zip(pts, pts[1:]) if abs(a[1] - 30) < 1e-9)
assert at30 > 0.019, ("h0 polls ~20 ms at a quarter of its core: 20 + 0.25 * 40 W", pts[:10])
print("per-host polling: h0 at 30 W for %.4f s" % at30)
PY

# --- bad inputs: one line, non-zero exit, no result directory ---------------------------------
fail() { # name, expected text, command...
  local name="$1" text="$2"; shift 2
  if "$@" > "$name.out" 2> "$name.err"; then echo "FAIL: $name succeeded"; exit 1; fi
  grep -q -- "$text" "$name.err" || { echo "FAIL: $name: expected '$text' in:"; cat "$name.err"; exit 1; }
  [ ! -e "bad-$name" ] || { echo "FAIL: $name left a result directory"; exit 1; }
}
printf '{"profiles": {"z": {"dynamic_scale": 0}}, "regions": {"MPI_Send@lu_like+0x1>MPI_Recv@lu_like+0x2": "z"}}' > unknown-region.json
fail unknown-region "never ran a computation" "$haec" run --platform cluster:2,preset=taurus --np 2 \
  --workloads unknown-region.json --out bad-unknown-region --quiet -- "$build/bin/lu_like" 2
printf '{"profiles": {"z": {"dynamic_scale": 0}}, "hosts": {"node-9": "z"}}' > unknown-host.json
fail unknown-host "node-9' is not a host" "$haec" run --platform cluster:2,preset=taurus --replay trace/lu.txt \
  --workloads unknown-host.json --out bad-unknown-host --quiet
printf '{"profiles": {"z": {"dynamic_scale": 0}}, "ranks": {"40": "z"}}' > big-rank.json
fail big-rank "names rank 40 but the highest rank is 7" "$haec" run --platform cluster:2,preset=taurus \
  --replay trace/lu.txt --workloads big-rank.json --out bad-big-rank --quiet
printf '{"profiles": {"z": {"all_cores": [1, 2]}}, "default": "z"}' > short.json
fail short-list "2 all_cores values for 12 pstates" "$haec" run --platform cluster:2,preset=taurus \
  --replay trace/lu.txt --workloads short.json --out bad-short-list --quiet
printf '{"profiles": {"z": {"dynamic_scale": 1}}, "default": "y"}' > unknown-profile.json
fail unknown-profile "unknown profile 'y'" "$haec" run --platform cluster:2,preset=taurus --replay trace/lu.txt \
  --workloads unknown-profile.json --out bad-unknown-profile --quiet
printf '{"profiles": ' > truncated.json
fail truncated "is not valid JSON" "$haec" run --platform cluster:2,preset=taurus --replay trace/lu.txt \
  --workloads truncated.json --out bad-truncated --quiet
fail sockets "does not divide cores=12" "$haec" run --platform cluster:2,preset=taurus,sockets=5,socket-w=5 \
  --replay trace/lu.txt --power --out bad-sockets --quiet
fail socket-w "needs sockets >= 2" "$haec" run --platform cluster:2,preset=taurus,socket-w=5 \
  --replay trace/lu.txt --power --out bad-socket-w --quiet
fail socket-steps "socket steps exceed" "$haec" run --platform cluster:2,preset=taurus,sockets=2,socket-w=80 \
  --replay trace/lu.txt --power --out bad-socket-steps --quiet
sed -i 's/value="0.25"/value="1.5"/' poll.xml
fail polling "haec:polling: must be in \[0,1\]" "$haec" run --platform poll.xml --hostfile poll.hosts --np 2 --power \
  --out bad-polling --quiet -- "$build/bin/poll_vs_sleep" iprobe 20
echo "power phases ok"
