#!/usr/bin/env bash
# The scale benchmark (bench/scale/scale.py) reduced to 1,024 ranks: the LU-like trace (5 iterations)
# replayed with one rank per node of a 16x8x8 torus by `haec run --link dor`, as a user runs it, has
# the makespan of the reference run to 1e-9 (relative), and counts the same transfers. The reference
# is the same haec run with every speed-up of the suite that can be turned off turned off (glibc's
# malloc: --allocator system), as scale.py's REFERENCE_OPTIONS. The transfer rate of both runs is printed.
source "$(dirname "$0")/common.sh"
"$py" "$source_dir/bench/scale/gen_lu_trace.py" --ranks 1024 --iterations 5 --out lu > /dev/null
run=("$haec" run --platform torus:16x8x8 --link dor --replay lu/lu.txt -np 1024 -q)

reference=(--allocator system)

timed() { # $1: output directory, then extra options; prints the CPU seconds (user + system)
  local out="$1"; shift
  /usr/bin/time -f "%U %S" -o "$out.time" "${run[@]}" --out "$out" "$@" > "$out.log" 2>&1 \
    || { tail -3 "$out.log"; fail "haec run failed ($out)"; }
  awk '{ print $1 + $2 }' "$out.time"
}
cpu_default=$(timed default)
cpu_reference=$(timed reference "${reference[@]}")

"$py" - default reference "$cpu_default" "$cpu_reference" "${reference[*]}" <<'PY'
import json, sys
ours, ref = (json.load(open(f"{d}/summary.json")) for d in sys.argv[1:3])
cpu_ours, cpu_ref = float(sys.argv[3]), float(sys.argv[4])
assert ours["messages"] > 100000, f"only {ours['messages']} transfers"
assert ours["messages"] == ref["messages"], f"transfers differ: {ours['messages']} against {ref['messages']}"
rel = abs(ours["makespan_s"] - ref["makespan_s"]) / ref["makespan_s"]
print(f"1,024 ranks: makespan {ours['makespan_s']!r} s, reference {ref['makespan_s']!r} s (relative difference "
      f"{rel:.1e}); {ours['messages']:,} transfers; {ours['messages'] / cpu_ours:,.0f} transfers per CPU second "
      f"({cpu_ours:.1f} s), reference {ours['messages'] / cpu_ref:,.0f} ({cpu_ref:.1f} s; {sys.argv[5]})")
assert rel <= 1e-9, f"makespan differs from the reference by {rel:.1e} (more than 1e-9)"
PY
