#!/usr/bin/env bash
# The heart of the link models: on uncontended ping-pongs (0 B .. 1 MiB) over every platform kind,
# each transfer's network time (end - start) and model time equal the independent Python
# implementation of Eq. (1)-(2) within 1 ps, for DOR and PNC, physical and byte-slip units,
# and ranks sharing a node (h = 0).
set -euo pipefail
build="$(cd "$1" && pwd)"
source_dir="$(cd "$2" && pwd)"
haec="$build/bin/haec"
verify=(/usr/bin/python3 "$source_dir/tests/verify/verify_messages.py")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
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
check haec-box:2x2x2,preset=seed004 6 dor --map block-xyz --cfg haec/link/units:byte-slip
check torus:4x4x4 8 pnc --map random --seed 3
check mesh:4x4x2 32 dor --cfg haec/link/partial-window:seed-literal --cfg haec/link/window:3
check cluster:4 4 pnc --cfg haec/link/packet-size:1500
