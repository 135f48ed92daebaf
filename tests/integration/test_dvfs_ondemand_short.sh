#!/usr/bin/env bash
# ondemand acts on short runs: with the default sampling period (0.01 s, about
# Linux ondemand's rate) it switches pstates on a run whose makespan is under 0.1 s, in replay and
# in emulation alike; with the old default of 0.1 s no sample ever falls inside that run, so it
# cannot switch (and its sampling timers must not stretch the run either).
# stencil_imbalance, 8 ranks, 20 iterations, 200 flop per cell, cluster:8,preset=taurus-node.
source "$(dirname "$0")/common.sh"
P=cluster:8,preset=taurus-node
app=("$build/bin/stencil_imbalance" --iters 20 --flops-per-cell 200)
"$haec" trace record --platform $P -np 8 --out t/s.txt --quiet --cfg smpi/simulate-computation:no -- "${app[@]}" > /dev/null
"$haec" run --platform $P --replay t/s.txt --power --out none --quiet
"$haec" run --platform $P --replay t/s.txt --governor ondemand --out default --quiet
"$haec" run --platform $P --replay t/s.txt --governor ondemand --cfg haec/dvfs/period:0.1 --out old --quiet
"$haec" run --platform $P -np 8 --governor ondemand --out emulated --quiet \
  --cfg smpi/simulate-computation:no -- "${app[@]}" > /dev/null
$py - <<'PY'
import json
s = {d: json.load(open(d + "/summary.json")) for d in ["none", "default", "old", "emulated"]}
T = s["none"]["makespan_s"]
assert 0 < T < 0.1, ("the run must be shorter than the old period", T)
assert s["default"]["pstate_switches"] > 0, "ondemand made no switch on a short run with the default period"
assert s["emulated"]["pstate_switches"] > 0, "ondemand made no switch on a short emulated run"
assert s["old"]["pstate_switches"] == 0, s["old"]["pstate_switches"]
assert s["old"]["makespan_s"] == T, "a pending sampling timer stretched the run"
assert s["default"]["energy_j"] != s["old"]["energy_j"]
print("ondemand on a %.4f s run: %d switches (period 0.01 s, replay), %d (emulation), 0 with period 0.1 s; "
      "energy %.3f J against %.3f J" % (T, s["default"]["pstate_switches"], s["emulated"]["pstate_switches"],
                                        s["default"]["energy_j"], s["old"]["energy_j"]))
PY
