#!/usr/bin/env bash
# Emulation/replay parity without a link model: haec run uses surf/precision 1e-13 in
# every mode, so a run recorded with `haec trace record` and replayed on the same platform gives the
# same makespan to 1e-12 relative (with smpirun's own 1e-9 s, HPCCG-like codes drifted by 1e-7 and
# non-blocking alltoalls by 1e-5). lu_like (point-to-point waves) and ring_allreduce (ring messages
# and allreduces), trace_patterns (non-blocking collectives, wildcards, RMA) on a cluster and a
# torus, with SimGrid's own network model (--link none).
source "$(dirname "$0")/common.sh"

check() { # name platform np app args...
  local name=$1 platform=$2 np=$3
  shift 3
  "$haec" trace record --platform "$platform" -np "$np" --link none --out "t/$name.txt" --keep-run "em-$name" \
    -- "$@" > /dev/null
  "$haec" run --platform "$platform" --link none --replay "t/$name.txt" --out "rep-$name" --quiet
  /usr/bin/python3 - "$name" <<'PY'
import json, sys
n = sys.argv[1]
a = json.load(open(f"em-{n}/summary.json"))["makespan_s"]
b = json.load(open(f"rep-{n}/summary.json"))["makespan_s"]
rel = abs(a - b) / max(abs(a), abs(b))
assert a > 0 and rel <= 1e-12, (n, a, b, rel)
print(f"{n}: emulation {a!r} s, replay {b!r} s, relative difference {rel:.1e}")
PY
}

check lu-cluster cluster:8 8 "$build/bin/lu_like" 3
check lu-torus torus:2x2x2 8 "$build/bin/lu_like" 3
check ring-cluster cluster:4 4 "$build/bin/ring_allreduce" 20
check patterns-cluster cluster:4 4 "$build/bin/trace_patterns"
echo "ok: emulation and replay agree to 1e-12 relative without a link model"
