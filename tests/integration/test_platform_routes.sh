#!/usr/bin/env bash
# Builds platforms in SimGrid through the haec zone and checks every route against the Topology
# (tests/platform_check). Usage: test_platform_routes.sh BUILD_DIR SOURCE_DIR
set -u
BUILD=${1:?build dir}
CHECK="$BUILD/bin/haec_platform_check"
[ -x "$CHECK" ] || { echo "FAIL: $CHECK not built (cmake --build $BUILD --target haec_platform_check)"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# run SPEC EXPECTED_PAIRS [checker args...]: exit 0, no mismatch, the expected number of pairs.
run() {
  local spec=$1 pairs=$2
  shift 2
  local out="$TMP/out"
  if ! "$CHECK" "$spec" --log=root.thresh:warning "$@" >"$out" 2>&1; then
    fail "$spec: checker exited non-zero"; cat "$out"; return
  fi
  grep -q "^mismatches: 0$" "$out" || { fail "$spec: mismatches"; cat "$out"; }
  grep -q "^pairs checked: $pairs " "$out" || { fail "$spec: expected $pairs pairs"; cat "$out"; }
  echo "ok   $spec ($(grep -E '^(load time|peak RSS)' "$out" | tr '\n' ' '))"
}

# All pairs (N^2, including src == dst through the loopback).
run haec-box:3x3x3 729
run haec-box:4x4x4 4096
run haec-box:4x4x4,board=mesh 4096
run haec-box:3x3x3,wireless=full 729
run haec-box:4x4x4,preset=ciorba2014 4096
run torus:4x4x4 4096
run torus:2x2x3 144
run mesh:4x4x4 4096
run cluster:8 64
# 4096 nodes: sampled pairs; must load fast and small (no per-pair routes are stored).
run torus:16x16x16 20000 --pairs 20000 --seed 42
out="$TMP/big"
"$CHECK" torus:16x16x16 --pairs 10 >"$out" 2>&1 || fail "torus:16x16x16 small run"
load=$(sed -n 's/^load time: \([0-9.]*\) s$/\1/p' "$out")
rss=$(sed -n 's/^peak RSS: \([0-9.]*\) MiB$/\1/p' "$out")
awk -v l="${load:-99}" -v r="${rss:-9999}" 'BEGIN { exit !(l < 3 && r < 300) }' ||
  fail "torus:16x16x16 load time ${load:-?} s / peak RSS ${rss:-?} MiB above 3 s / 300 MiB"

# Simulated transfers follow the routes: 1 MB from node-0-0-0 to node-2-2-3 on the default
# haec-box 4x4x4 = 4 optical hops (10 ns) + 3 wireless (100 ns) + 1e6 B / 12.5e9 B/s = 80.34 us;
# on the same node: loopback 10 ns + 1e6 / 100e9 = 10.01 us.
out="$TMP/ping"
"$CHECK" haec-box:4x4x4 --pairs 1 --ping 1000000 --log=root.thresh:warning >"$out" 2>&1 || { fail "ping run"; cat "$out"; }
grep -q "ping node-0-0-0 -> node-2-2-3 (7 hops): 8.034e-05 s, expected 8.034e-05 s" "$out" || { fail "haec-box ping"; cat "$out"; }
grep -q "ping node-0-0-0 -> node-0-0-0 (0 hops): 1.001e-05 s" "$out" || { fail "loopback ping"; cat "$out"; }
# cluster: up + down cable, 2 x 1.5 us + 1e6 / 1.25e9 = 803 us.
"$CHECK" cluster:4 --pairs 1 --ping 1000000 --log=root.thresh:warning >"$out" 2>&1 || { fail "cluster ping run"; cat "$out"; }
grep -q "ping node-0 -> node-1 (2 hops): 0.000803 s, expected 0.000803 s" "$out" || { fail "cluster ping"; cat "$out"; }

# MARS topologies (docs/MODELS.md §8). fat-tree: SimGrid's own zone; every route must be 2 l
# cables (l = lowest common level, fat_tree_hops), _UP then _DOWN, each with its level's bandwidth.
run "fat-tree:2;4,4;1,2;1,2" 256
run "fat-tree:3;2,3,4;1,2,2;1,1,1,reduce=25" 576
run "fat-tree:2;16,16;1,16;1,1,reduce=50" 20000 --pairs 20000 --seed 7
# hierarchical: BFS routes over our links, checked link by link (connected, level of each cable).
run hierarchical:2x2x2 64
run hierarchical:3x2x3,l3=2 324
run hierarchical:4x4x5,l3=3 6400
# fat-tree 2;4,4;1,2;1,2 with reduce=25: node-0 -> node-4 crosses 4 cables (4 x 1.27 us), the
# narrowest at level 2: 9.375e9 x 0.75 B/s, so 1e6 B take 5.08 us + 142.222 us = 147.302 us.
"$CHECK" "fat-tree:2;4,4;1,2;1,2,reduce=25" --pairs 1 --ping 1000000 --log=root.thresh:warning >"$out" 2>&1 ||
  { fail "fat-tree ping run"; cat "$out"; }
grep -q "ping node-0 -> node-4 (4 hops): 0.000147302222 s, expected 0.000147302222 s" "$out" || { fail "fat-tree ping"; cat "$out"; }
# hierarchical 2x2x2: node-0-0-0 -> node-1-1-1 is l3, l2, l1 (3 x 1.27 us) + 1e6 / 9.375e9 = 110.477 us.
"$CHECK" hierarchical:2x2x2 --pairs 1 --ping 1000000 --log=root.thresh:warning >"$out" 2>&1 || { fail "hierarchical ping run"; cat "$out"; }
grep -q "ping node-0-0-0 -> node-1-1-1 (3 hops): 0.000110476667 s, expected 0.000110476667 s" "$out" ||
  { fail "hierarchical ping"; cat "$out"; }
"$CHECK" "fat-tree:2;4,4;1,2;1,2,reduce=25,cores=4" --pairs 1 --write-json "$TMP/ft.json" >/dev/null 2>&1 || fail "write fat-tree json"
run "$TMP/ft.json" 256

# platform.json round trip: the file builds the same platform.
"$CHECK" haec-box:3x2x3,wireless=full,cores=4,speeds=2Gf/1Gf --pairs 1 --write-json "$TMP/p.json" >/dev/null 2>&1 ||
  fail "write json"
run "$TMP/p.json" 324
grep -q '"wireless": "full"' "$TMP/p.json" || fail "platform.json lacks wireless=full"

# Bad input: exit 2 with a one-line message naming the input.
expect_error() {
  local input=$1 fragment=$2
  "$CHECK" "$input" >"$TMP/err" 2>&1
  local rc=$?
  [ $rc -eq 2 ] || fail "$input: exit $rc, expected 2"
  grep -qF -- "$fragment" "$TMP/err" || { fail "$input: message lacks '$fragment'"; cat "$TMP/err"; }
}
expect_error hypercube:4x4x4 "hypercube:4x4x4: unknown platform kind 'hypercube'; use one of haec-box, mesh, torus, cluster"
expect_error torus:4x4x4,board=mesh "key 'board' does not apply to torus"
echo '{"format": "haec-platform", "version": 1}' >"$TMP/bad.json"
expect_error "$TMP/bad.json" "bad.json: missing field 'kind'"

if [ $fails -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "all platform route checks passed"
