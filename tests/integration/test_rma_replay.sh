#!/usr/bin/env bash
# One-sided communication through haec trace record and haec run --replay (libs/trace/README.md):
# OSU-like put/get/accumulate latency and bandwidth loops (apps/rma_osu.c) with fence and with
# lock/unlock, the other synchronisations (shared lock, post/start/complete/wait, lock_all + flush)
# and atomics, and a 2-D halo exchange with MPI_Put + MPI_Win_fence (apps/halo_put.c) on a cluster
# and on a HAEC box with the DOR link model and the energy model: every replay reproduces its
# emulated makespan within 1e-9 relative (measured: equal to 1e-15), energy too, the traces pass
# haec trace check, and a replay is deterministic.
source "$(dirname "$0")/common.sh"
field() { $py -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))[sys.argv[2]]))' "$1/summary.json" "$2"; }
same() { # relative 1e-9
  $py -c 'import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); sys.exit(0 if abs(a-b) <= 1e-9*max(a,b) else 1)' "$1" "$2"
}

check() { # name "run options" app args...
  local name=$1 opts=$2; shift 2
  # shellcheck disable=SC2086
  "$haec" trace record $opts --out "t/$name.txt" --keep-run "em_$name" -- "$@" > /dev/null
  "$haec" trace check "t/$name.txt" > /dev/null || { echo "FAIL: $name: haec trace check refuses the trace"; exit 1; }
  # shellcheck disable=SC2086
  "$haec" run $opts --replay "t/$name.txt" --out "rep_$name" --quiet
  local e r; e=$(field "em_$name" makespan_s); r=$(field "rep_$name" makespan_s)
  same "$e" "$r" || { echo "FAIL: $name: emulation $e s, replay $r s"; exit 1; }
  echo "parity $name: emulation $e s, replay $r s"
}

for op in put get acc; do
  for sync in fence lock; do
    check "${op}_$sync" "--platform cluster:2 -np 2" "$build/bin/rma_osu" $op $sync 1024 4
  done
done
check gacc_pscw "--platform cluster:3 -np 3" "$build/bin/rma_osu" gacc pscw 256 3
check put_shared "--platform cluster:3 -np 3" "$build/bin/rma_osu" put shared 256 3
check fop_flush "--platform cluster:2 -np 2" "$build/bin/rma_osu" fop flush 8 6
check cas_lock "--platform cluster:2 -np 2" "$build/bin/rma_osu" cas lock 8 6
check halo "--platform cluster:4 -np 4" "$build/bin/halo_put" 10 24
check halo_box "--platform haec-box:2x2x2 -np 8 --link dor --power" "$build/bin/halo_put" 10 24

# Energy of the HAEC-box halo exchange: replay = emulation.
e=$(field em_halo_box energy_j); r=$(field rep_halo_box energy_j)
same "$e" "$r" || { echo "FAIL: halo_box energy: emulation $e J, replay $r J"; exit 1; }

# What the traces hold: windows, epochs, transfers with their sizes; barriers that complete the
# windows' transfers (SMPI's MPI_Barrier does, SimGrid's barrier action does not) are ours.
r0=t/put_lock.txt_files/rank-0.txt
for a in "haec_win_allocate 0 16384 8 0" "haec_win_lock 0 1 1 0" "haec_put 0 1 128 0 0 128 0" "haec_win_unlock 0 1" \
         "haec_barrier" "haec_win_free 0"; do
  grep -q "^0 $a\$" $r0 || { echo "FAIL: no '0 $a' in $r0"; exit 1; }
done
grep -q "^1 haec_win_post 0 0 1 0\$" t/gacc_pscw.txt_files/rank-1.txt || { echo "FAIL: no post of rank 1"; exit 1; }
grep -q "^0 haec_compare_and_swap 0 1 0 0 1\$" t/cas_lock.txt_files/rank-0.txt &&
  grep -q "^0 haec_compare_and_swap 0 1 0 0 0\$" t/cas_lock.txt_files/rank-0.txt ||
  { echo "FAIL: compare-and-swap outcomes not recorded"; exit 1; }
# The halo's columns travel as a derived datatype: written in bytes (24 doubles = 192 bytes, type 6).
grep -qE "^0 haec_put 0 [0-9]+ 192 6 [0-9]+ 192 6\$" t/halo.txt_files/rank-0.txt || { echo "FAIL: column put"; exit 1; }

# Determinism: a second replay is bit-identical.
"$haec" run --platform haec-box:2x2x2 -np 8 --link dor --power --replay t/halo_box.txt --out rep2 --quiet
[ "$(field rep2 makespan_s)" = "$(field rep_halo_box makespan_s)" ] ||
  { echo "FAIL: replay not deterministic"; exit 1; }
echo PASS
