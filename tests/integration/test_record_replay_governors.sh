#!/usr/bin/env bash
# A recording run and the replay of its trace agree to 1e-12 relative (makespan, energy, every
# host's busy time and energy) under every governor: those that decide from time alone
# (performance, powersave, the sampling ondemand and conservative, mix) and those that decide per
# task, keyed by code region (adagio, adagio-improved, lagrange). The recorder writes the time
# between two calls in the order it ran (computations, and MPI_Wtime's pause between them), so a pstate change
# landing inside that time (a sampling timer, mix's second part) slows the same work in both; and
# it annotates each call with its call site, so that a replay groups the actions into the same
# calls, code regions and tasks as the emulation (and the same polling: every 3rd iteration polls
# with MPI_Testall). short_bursts computes between calls and calls MPI_Wtime half-way through its
# work; a 0.3 ms sampling period makes the governors switch often.
source "$(dirname "$0")/common.sh"

app=("$build/bin/short_bursts" --iters 600 --work 40 --wtime-every 1 --test-every 3)
opts=(--platform cluster:2,preset=taurus-node --power --cfg haec/dvfs/period:0.0003)
for governor in performance powersave ondemand conservative mix adagio adagio-improved lagrange; do
  "$haec" trace record "${opts[@]}" -np 2 --governor $governor --out "t-$governor/trace.txt" --keep-run "em-$governor" \
    -- "${app[@]}" > /dev/null
  "$haec" run "${opts[@]}" --governor $governor --replay "t-$governor/trace.txt" --out "rep-$governor" --quiet
  $py - "em-$governor" "rep-$governor" "$governor" <<'PY' || fail "$governor: the replay is not the recording run"
import csv, json, sys
em, rep, governor = sys.argv[1:4]
def rel(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-300)
a, b = (json.load(open(d + "/summary.json")) for d in (em, rep))
worst = 0.0
for key in ("makespan_s", "energy_j"):
    worst = max(worst, rel(a[key], b[key]))
    assert rel(a[key], b[key]) <= 1e-12, (governor, key, a[key], b[key])
hosts = [list(csv.DictReader(open(d + "/hosts.csv"))) for d in (em, rep)]
for x, y in zip(*hosts):
    for key, value in x.items():
        try:
            u, v = float(value), float(y[key])
        except ValueError:
            assert value == y[key], (governor, key, value, y[key])
            continue
        worst = max(worst, rel(u, v))
        assert rel(u, v) <= 1e-12, (governor, x.get("host"), key, u, v)
print(f"{governor}: makespan {a['makespan_s']!r} s, energy {a['energy_j']!r} J, {a.get('pstate_switches')} switches; "
      f"largest relative difference {worst:.1e}")
PY
done
echo "ok: record then replay equal to 1e-12 under performance, powersave, ondemand, conservative, mix, adagio, adagio-improved and lagrange"
