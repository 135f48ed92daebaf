#!/usr/bin/env bash
# The heart of the link models: on uncontended ping-pongs (0 B .. 1 MiB) over every platform kind,
# each transfer's network time (end - start) and model time equal the independent Python
# implementation of Eq. (1)-(2) within 1 ps, for DOR and PNC, physical and byte-slip units,
# and ranks sharing a node (h = 0).
source "$(dirname "$0")/common.sh"
verify=(/usr/bin/python3 "$source_dir/tests/verify/verify_messages.py")
i=0
check() { # platform np model extra...
  local platform="$1" np="$2" model="$3"; shift 3
  i=$((i + 1))
  "$haec" run --platform "$platform" --link "$model" --messages -np "$np" --out "r$i" --quiet "$@" -- \
    "$build/bin/pingpong" 1048576 1
  echo -n "$platform $model $*: "
  "${verify[@]}" "r$i" --network-times
}
check haec-box:3x3x3 27 dor
check haec-box:3x3x3 27 pnc
check haec-box:3x3x3,wireless=full 40 pnc --map block-xyz
check haec-box:2x2x2,preset=ciorba2014 6 dor --map block-xyz --cfg haec/link/units:byte-slip
check torus:4x4x4 8 pnc --map random --seed 3
check mesh:4x4x2 32 dor --cfg haec/link/partial-window:seed-literal --cfg haec/link/window:3
check cluster:4 4 pnc --cfg haec/link/packet-size:1500

# The check can fail: 2 ps on one model time, or a wrong hop count, are caught.
perturb() { # column delta-or-value
  /usr/bin/python3 - "$1" "$2" <<'PY'
import csv, sys
col, change = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open("r1/messages.csv")))
r = rows[len(rows) // 2]
r[col] = repr(float(r[col]) + float(change)) if col == "model_time" else str(int(r[col]) + int(change))
w = csv.DictWriter(open("bad/messages.csv", "w", newline=""), fieldnames=rows[0].keys(), lineterminator="\n")
w.writeheader(); w.writerows(rows)
PY
}
mkdir bad && cp r1/summary.json r1/platform.json bad/
for change in "model_time 2e-12" "hops 1"; do
  perturb $change
  if "${verify[@]}" bad > verify.out; then
    echo "FAIL: the verifier accepted a $change perturbation"; exit 1
  fi
  echo "perturbation '$change' caught: $(head -1 verify.out)"
done
