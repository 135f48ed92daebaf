#!/usr/bin/env bash
# `haec run --power` end to end on the taurus preset:
#  1. lu_like: hosts.csv / links.csv / power.csv / summary.json are consistent: busy + idle =
#     makespan = time in pstate 0, the integral of power.csv equals each host's energy, every
#     power level is one the taurus-8 calibration allows (idle 92.75 W or P_static + k/12 P_dynamic
#     with P_dynamic = (174.38 - 114.62) * 12/11), summary energy = hosts + links.
#  2. poll_vs_sleep (deterministic: smpi/simulate-computation off): waiting in MPI_Recv costs idle
#     power; spinning on MPI_Iprobe or MPI_Test (12 ranks per node, polling at 0.5 of a core)
#     costs P_static + 0.5 P_dynamic = 141.78 W; --power does not change the simulated time.
#  3. Bad inputs: one line, exit status 2 (CLI) or 3 (found in the platform), no result directory.
source "$(dirname "$0")/common.sh"

# 1. lu_like on 4 taurus nodes, 2 ranks each.
"$haec" run --platform cluster:4,preset=taurus --map block-xyz -np 8 --power-series --out lu -- "$build/bin/lu_like" 10 \
  > table.txt
grep -qE '^energy +[0-9.]+ J \(hosts [0-9.]+ J, links 0.000000 J\)' table.txt || { cat table.txt; exit 1; }
"$py" - <<'PY'
import csv, json
s = json.load(open("lu/summary.json"))
T = s["makespan_s"]
hosts = list(csv.DictReader(open("lu/hosts.csv")))
assert [h["host"] for h in hosts] == ["node-0", "node-1", "node-2", "node-3"], hosts
assert list(hosts[0].keys())[:7] == ["host", "energy_j", "mean_power_w", "busy_s", "idle_s", "idle_pct", "off_s"]
assert [k for k in hosts[0] if k.startswith("pstate")] == [f"pstate{p}_s" for p in range(12)]
def close(a, b, r=1e-9): return abs(a - b) <= r * max(abs(b), 1e-30)
total = 0
for h in hosts:
    e, busy, idle = float(h["energy_j"]), float(h["busy_s"]), float(h["idle_s"])
    assert busy > 0 and idle > 0, h
    assert close(busy + idle, T, 1e-12) and close(float(h["pstate0_s"]), T, 1e-12), h
    assert close(float(h["mean_power_w"]), e / T) and close(float(h["idle_pct"]), 100 * idle / T)
    total += e
assert close(s["host_energy_j"], total) and s["link_energy_j"] == 0 and close(s["energy_j"], total), s
# taurus-8, pstate 0: idle 92.75, P1 114.62, PN 174.38 on 12 cores.
dyn = (174.38 - 114.62) * 12 / 11
eps = 174.38 - dyn
levels = [92.75] + [eps + k / 12 * dyn for k in range(1, 13)]
series = {}
for r in csv.DictReader(open("lu/power.csv")):
    w = float(r["watts"])
    assert any(abs(w - l) < 1e-9 for l in levels), ("unexpected power level", r)
    series.setdefault(r["host"], []).append((float(r["time"]), w))
for h in hosts:
    pts = series[h["host"]]
    assert pts[0][0] == 0 and all(a[0] < b[0] for a, b in zip(pts, pts[1:])), "time must increase"
    e = sum(w * ((pts[i + 1][0] if i + 1 < len(pts) else T) - t) for i, (t, w) in enumerate(pts))
    assert close(e, float(h["energy_j"])), (h["host"], e, h["energy_j"])
links = list(csv.DictReader(open("lu/links.csv")))
cables = [l for l in links if l["type"] == "cable"]
assert len(cables) == 8 and sum(float(l["bytes"]) for l in cables) > 0 and all(float(l["energy_j"]) == 0 for l in cables)
print(f"1. lu_like: {total:.6f} J on 4 taurus nodes over {T:.6f} s; power.csv integrates to hosts.csv "
      f"({sum(len(p) for p in series.values())} change points)")
PY

# 2. Waiting: sleep vs iprobe vs test, 12 waiting ranks on node-0 (the 24th rank sends after 100 ms).
for mode in sleep iprobe test; do
  "$haec" run -q --platform cluster:2,preset=taurus --map block-xyz -np 24 --power-series --cfg haec/power/polling:0.5 \
    --cfg smpi/simulate-computation:no --out "$mode" -- "$build/bin/poll_vs_sleep" "$mode" 100
done
"$haec" run -q --platform cluster:2,preset=taurus --map block-xyz -np 24 --cfg smpi/simulate-computation:no \
  --out plain -- "$build/bin/poll_vs_sleep" sleep 100
"$py" - <<'PY'
import csv, json
dyn = (174.38 - 114.62) * 12 / 11
eps = 174.38 - dyn
poll_w = eps + 0.5 * dyn  # 12 ranks at 0.5 of a core on 12 cores
node0 = {m: next(csv.DictReader(open(f"{m}/hosts.csv"))) for m in ("sleep", "iprobe", "test")}
T = {m: json.load(open(f"{m}/summary.json"))["makespan_s"] for m in ("sleep", "iprobe", "test", "plain")}
assert T["sleep"] == T["plain"], ("--power changed the simulated time", T)
s = node0["sleep"]
assert float(s["busy_s"]) == 0 and abs(float(s["mean_power_w"]) - 92.75) < 1e-9, s
for m in ("iprobe", "test"):
    h = node0[m]
    busy, idle, e = float(h["busy_s"]), float(h["idle_s"]), float(h["energy_j"])
    assert busy >= 0.1, (m, h)  # spun for the whole 100 ms wait
    # Time node-0 spent with all 12 ranks polling, from power.csv (ranks stop one by one as
    # the sender's messages arrive).
    pts = [(float(r["time"]), float(r["watts"])) for r in csv.DictReader(open(f"{m}/power.csv")) if r["host"] == "node-0"]
    pts.append((T[m], None))
    at_full = sum(b[0] - a[0] for a, b in zip(pts, pts[1:]) if a[1] is not None and abs(a[1] - poll_w) < 1e-9)
    assert 0.1 <= at_full <= busy and max(w for _, w in pts[:-1]) <= poll_w + 1e-9, (m, at_full, busy)
    print(f"2. {m}: node-0 busy {busy:.6f} s, {at_full:.6f} s of it with 12 ranks polling at {poll_w:.4f} W; "
          f"mean {float(h['mean_power_w']):.3f} W against {float(s['mean_power_w']):.3f} W blocked in MPI_Recv")
PY

# 3. Bad inputs.
expect_fail() { # status, regex, command...
  local status=$1 regex=$2
  shift 2
  set +e
  "$@" > out.txt 2> err.txt
  local rc=$?
  set -e
  [ "$rc" -eq "$status" ] || { echo "FAIL: exit $rc (want $status): $*"; cat err.txt; exit 1; }
  [ "$(wc -l < err.txt)" -eq 1 ] && grep -qE "$regex" err.txt || { echo "FAIL: message of $*"; cat err.txt; exit 1; }
  [ ! -e bad ] || { echo "FAIL: a result directory was left"; exit 1; }
}
expect_fail 2 '^haec: --cfg haec/power/polling:2: must be in \[0,1\]' \
  "$haec" run --platform cluster:2 -np 2 --power --cfg haec/power/polling:2 --out bad -- "$build/bin/pingpong" 8 1
expect_fail 2 "^haec: --cfg haec/power/link-wattage: 'optical:1' is not type:idle:busy" \
  "$haec" run --platform cluster:2 -np 2 --power --cfg haec/power/link-wattage:optical:1 --out bad -- "$build/bin/pingpong" 8 1
expect_fail 2 "preset=taurus,speeds=2Gf/1Gf: 12 wattage_calibration entries for 2 pstates" \
  "$haec" run --platform cluster:2,preset=taurus,speeds=2Gf/1Gf -np 2 --power --out bad -- "$build/bin/pingpong" 8 1
cat > old.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-1" speed="1Gf" bw="125MBps" lat="50us">
    <prop id="watt_per_state" value="100:120:200"/>
  </cluster>
</platform>
XML
expect_fail 2 "host h0 property watt_per_state: is the old SimGrid name, ignored by SimGrid 3.32 \(0 W\); rename it wattage_per_state" \
  "$haec" run --platform old.xml -np 2 --power --out bad -- "$build/bin/pingpong" 8 1
sed 's/watt_per_state" value="100:120:200"/wattage_per_state" value="100:120:200,90:100:150"/' old.xml > count.xml
expect_fail 2 "host h0 property wattage_per_state: 2 power states for 1 pstates" \
  "$haec" run --platform count.xml -np 2 --power --out bad -- "$build/bin/pingpong" 8 1
echo "power run checks passed"
