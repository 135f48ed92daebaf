#!/usr/bin/env bash
# The PMPI layer's own work is not charged as the application's computation (pmpi/own_work.hpp),
# deterministically: HAEC_PMPI_TEST_BURN makes the layer burn CPU at each edge of its unmeasured
# windows (entry, around SimGrid's function, exit), and with smpi/cpu-threshold above the
# application's own spans SMPI charges nothing else, so the emulated times must not move at all.
# Checked with and without recording, regions and events, iteration detection (ondemand), the DOR
# link model, hardware counters (where PAPI counts), C and Fortran (own_work_f.F90: the Fortran
# entry points' conversions), and with smpi/simulate-computation:no. (A program that computes with
# smpi_execute_flops, not its _benched form, keeps SMPI's benchmark running while other ranks run:
# SMPI then charges their work, the layer's included, to it; such programs are not used here.) The positive control burns the same time in the application's own
# code: SMPI charges it, so the check can fail. With SMPI's default threshold, a charged
# computation is in the region that ends at the call it precedes.
source "$(dirname "$0")/common.sh"

burn=0.002                            # seconds per edge, 4 edges per call
threshold=--cfg=smpi/cpu-threshold:1e-3 # above the application's own spans (it computes nothing), below a burn
summary() { $py -c 'import json,sys; d=json.load(open(sys.argv[1]+"/summary.json")); print(repr(d["makespan_s"]), repr(d.get("energy_j")))' "$1"; }

# with_out DIR COMMAND... -- PROGRAM...: the command with --out DIR before the program.
with_out() {
  local dir=$1; shift
  local before=()
  while [ "$1" != "--" ]; do before+=("$1"); shift; done
  "${before[@]}" --out "$dir" "$@" > /dev/null
}
# name, then haec run arguments, --, the program: the same results with the burn.
same_with_burn() {
  local name=$1; shift
  with_out "$name-plain" "$@"
  HAEC_PMPI_TEST_BURN=$burn with_out "$name-burn" "$@"
  local a b; a=$(summary "$name-plain"); b=$(summary "$name-burn")
  [ "$a" = "$b" ] || fail "$name: makespan and energy $a without the burn, $b with it"
  for f in regions.csv events.csv iterations.csv hosts.csv counters.csv; do
    [ -f "$name-plain/$f" ] || continue
    cmp -s "$name-plain/$f" "$name-burn/$f" || fail "$name: $f differs with the burn"
  done
  echo "$name: $a with and without the layer burning ${burn} s at each edge"
}

app="$build/bin/short_bursts"
args=(--iters 30 --work 0 --test-every 3)
run=("$haec" run --platform cluster:2 -np 2 "$threshold" --quiet)
same_with_burn emulation "${run[@]}" -- "$app" "${args[@]}"
same_with_burn regions "${run[@]}" --events --power --governor ondemand --link dor -- "$app" "${args[@]}"
same_with_burn simulate-no "${run[@]}" --cfg smpi/simulate-computation:no -- "$app" "${args[@]}"
cp "$source_dir/tests/integration/own_work_f.F90" .
"$haec" fc -O1 -o own_work_f own_work_f.F90 > /dev/null
same_with_burn fortran "${run[@]}" -- ./own_work_f

# Recording: the same trace, byte for byte.
for mode in plain burn; do
  [ $mode = burn ] && export HAEC_PMPI_TEST_BURN=$burn
  "$haec" trace record --platform cluster:2 -np 2 "$threshold" --out "t-$mode/short.txt" -- "$app" "${args[@]}" > /dev/null
  "$haec" trace record --platform cluster:2 -np 2 "$threshold" --out "t-$mode/fortran.txt" -- ./own_work_f > /dev/null
  unset HAEC_PMPI_TEST_BURN
done
diff -r t-plain t-burn > /dev/null || fail "the recorded traces differ with the burn"
grep -q "allreduce" t-plain/fortran.txt_files/rank-0.txt || fail "the Fortran trace holds no allreduce"
echo "recording: the same traces with and without the burn"

# Counters: where PAPI counts here.
if "$haec" run --platform cluster:2 -np 2 --counters perf::TASK-CLOCK --out probe --quiet -- "$app" --iters 1 > /dev/null 2>&1 &&
  [ -f probe/counters.csv ]; then
  same_with_burn counters "${run[@]}" --counters perf::TASK-CLOCK -- "$app" "${args[@]}"
else
  echo "counters: PAPI cannot count perf::TASK-CLOCK here, not checked"
fi

# Positive control: the same time burnt by the application itself is charged (>= 90 % of it, in
# simulated seconds: smpi/host-speed 1 Gf, the cluster's hosts 2.3 Gf).
with_out control "${run[@]}" -- "$app" "${args[@]}" --burn-us 2000
$py - emulation-plain control <<'PY' || fail "the application's own burn was not charged"
import json, sys
plain, control = (json.load(open(d + "/summary.json"))["makespan_s"] for d in sys.argv[1:3])
assert control - plain >= 0.9 * 30 * 2000e-6 * 1e9 / 2.3e9, (plain, control)
print(f"control: the application's own 2 ms per iteration charged: {plain!r} s -> {control!r} s")
PY

# SMPI's default threshold: the charged computations are in the region that ends at the call they
# precede (known when they start: announced before SMPI's benchmark stops), never open ("*").
"$haec" run --platform cluster:2 -np 2 --quiet --out regions-default -- "$app" --iters 40 --work 0 --test-every 0 --burn-us 50 > /dev/null
$py - regions-default/regions.csv <<'PY' || fail "charged computations are not in their call's region"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
loop = [r for r in rows if r["region"].count("MPI_Sendrecv@short_bursts") == 2]
assert loop and sum(int(r["computations"]) for r in loop) >= 2 * 38, rows
assert not any(r["region"].endswith(">*") for r in rows), rows
print("regions: the loop's computations are in", loop[0]["region"])
PY
echo "ok: the PMPI layer's own work is not charged"
