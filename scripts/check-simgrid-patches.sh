#!/usr/bin/env bash
# Checks that a SimGrid built with third_party_patches/simgrid-4.1 simulates exactly as a stock build
# of the same release: the same runs on both, every line of their output compared byte for byte,
# simulated times printed with 20 decimals (every action of a replay is logged at its end).
#
#   scripts/check-simgrid-patches.sh PATCHED_PREFIX STOCK_PREFIX [SIMGRID_SOURCE_DIR]
#
# Runs (each with both prefixes' own smpirun, smpicc and smpiff):
#   - replays of the LU-like trace of bench/scale: 64 ranks on an XML cluster, with and without
#     privatization; 256 ranks on an XML torus with the settings haec run gives SimGrid with a link
#     model, with SimGrid's default allreduce (a linear reduce: its root waits for every rank) and
#     with recursive doubling;
#   - SimGrid's own replay examples (examples/smpi/replay), when the source is given;
#   - emulations of a C program (point-to-point with given and any source, waitall, waitany,
#     testany, waitsome, a linear reduce through MPI_Reduce, request handles converted with
#     MPI_Request_c2f) and of a Fortran program (its requests are Fortran handles), without
#     measured computation (deterministic);
#   - the same C program leaking requests, with SMPI's leak report (smpi/list-leaks).
# Also: the patched library exports every symbol the stock one does.
# Prints one line per comparison; the last line is the summary; exit 1 when anything differs.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
usage="usage: check-simgrid-patches.sh PATCHED_PREFIX STOCK_PREFIX [SIMGRID_SOURCE_DIR]"
patched="$(cd "${1:?$usage}" && pwd)"
stock="$(cd "${2:?$usage}" && pwd)"
src="${3:-}"
for p in "$patched" "$stock"; do
  [ -x "$p/bin/smpirun" ] || { echo "check-simgrid-patches: $p/bin/smpirun missing (not a SimGrid prefix)" >&2; exit 2; }
done
lib_of() { ls "$1"/lib/libsimgrid.so.* 2> /dev/null | head -1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
checked=0
failed=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

# Every action at its end time, 20 decimals: two runs that differ anywhere in a simulated time differ here.
# (%e: a space; smpirun splits its arguments at spaces)
log_cfg=(--log=smpi_replay.thresh:verbose "--log=root.fmt:[%h:%a:(%i)%e%.20r]%e%m%n")

# $1 = name; the rest: smpirun arguments, with @PREFIX@ standing for the prefix under test.
compare() {
  local name="$1"; shift
  local side prefix
  for side in stock patched; do
    prefix=$stock; [ "$side" = patched ] && prefix=$patched
    local args=("${@//@PREFIX@/$prefix}")
    (cd "$work" && timeout 600 "$prefix/bin/smpirun" "${args[@]}" "${log_cfg[@]}") > "$work/$side.all" 2>&1 \
      || { fail "$name: the $side SimGrid failed: $(tail -1 "$work/$side.all")"; return; }
    # The configuration echo names temporary files and the prefix: left out.
    grep -v -E "xbt_cfg/INFO|Configuration change|has been renamed" "$work/$side.all" | sed "s#$prefix#PREFIX#g" > "$work/$side.out" || true
  done
  local lines; lines=$(wc -l < "$work/stock.out")
  if [ "$lines" -gt 0 ] && cmp -s "$work/stock.out" "$work/patched.out"; then
    echo "ok   $name: $lines lines identical (ends at $(tail -1 "$work/stock.out" | grep -o '[0-9]*\.[0-9]\{20\}' | head -1) s)"
    checked=$((checked + 1))
  else
    fail "$name: outputs differ: $(diff "$work/stock.out" "$work/patched.out" | sed -n 2p | cut -c1-160)"
  fi
}

# 1. Exported symbols: the patches add, they never take away.
nm -D --defined-only "$(lib_of "$stock")" | awk '{ print $NF }' | sort -u > "$work/stock.sym"
nm -D --defined-only "$(lib_of "$patched")" | awk '{ print $NF }' | sort -u > "$work/patched.sym"
comm -23 "$work/stock.sym" "$work/patched.sym" | c++filt | grep -v -E '^std::|^typeinfo (name )?for ' > "$work/missing.sym" || true
if [ ! -s "$work/missing.sym" ]; then
  echo "ok   exported symbols: all $(wc -l < "$work/stock.sym") of the stock library's, and $(comm -13 "$work/stock.sym" "$work/patched.sym" | wc -l) more"
  checked=$((checked + 1))
else
  fail "exported symbols: $(wc -l < "$work/missing.sym") of the stock library's are missing, e.g. $(head -2 "$work/missing.sym" | tr '\n' ' ')"
fi

# 2. Replays of the LU-like trace.
/usr/bin/python3 "$here/bench/scale/gen_lu_trace.py" --ranks 64 --iterations 2 --out "$work/lu64" > /dev/null
/usr/bin/python3 "$here/bench/scale/gen_lu_trace.py" --ranks 256 --iterations 2 --out "$work/lu256" > /dev/null
cat > "$work/cluster.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-15" speed="1Gf" core="4" bw="1.25GBps" lat="1.5us" loopback_bw="100GBps" loopback_lat="10ns"/>
</platform>
XML
for ((i = 0; i < 16; i++)); do echo "h$i:4"; done > "$work/cluster.hosts"
# A torus <cluster> directly under <platform> crashes a stock SimGrid 4.1: inside a zone.
cat > "$work/torus.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <cluster id="t" prefix="node-" suffix="" radical="0-255" speed="1Gf" core="16" bw="9.375GBps" lat="1.27us"
             loopback_bw="100GBps" loopback_lat="10ns" topology="TORUS" topo_parameters="8,8,4"/>
  </zone>
</platform>
XML
for ((i = 0; i < 256; i++)); do echo "node-$i"; done > "$work/torus.hosts"
link_cfg=(--cfg=smpi/host-speed:1Gf --cfg=network/crosstraffic:0 --cfg=precision/timing:1e-13)
compare "lu-like 64 ranks, cluster" -np 64 -platform "$work/cluster.xml" -hostfile "$work/cluster.hosts" \
  --cfg=smpi/host-speed:1Gf -replay "$work/lu64/lu.txt"
compare "lu-like 64 ranks, cluster, no privatization" -no-privatize -np 64 -platform "$work/cluster.xml" \
  -hostfile "$work/cluster.hosts" --cfg=smpi/host-speed:1Gf -replay "$work/lu64/lu.txt"
compare "lu-like 256 ranks, torus, link-model settings" -no-privatize -np 256 -platform "$work/torus.xml" \
  -hostfile "$work/torus.hosts" "${link_cfg[@]}" -replay "$work/lu256/lu.txt"
compare "lu-like 256 ranks, torus, link-model settings, allreduce rdb" -no-privatize -np 256 \
  -platform "$work/torus.xml" -hostfile "$work/torus.hosts" "${link_cfg[@]}" --cfg=smpi/allreduce:rdb \
  -replay "$work/lu256/lu.txt"

# 3. SimGrid's own replay examples.
if [ -n "$src" ] && [ -d "$src/examples/smpi/replay" ]; then
  printf '%s\n' "$src/examples/smpi/replay/actions0.txt" "$src/examples/smpi/replay/actions1.txt" > "$work/split.list"
  compare "simgrid example split_traces (2 ranks)" -no-privatize -np 2 --cfg=smpi/host-speed:1Gf \
    -platform "$src/examples/platforms/small_platform.xml" -hostfile "$src/examples/smpi/hostfile" -replay "$work/split.list"
  for t in "$src"/examples/smpi/replay/actions_*.txt; do # one file for all ranks: split per rank
    d="$work/$(basename "$t" .txt)"
    mkdir -p "$d"
    awk -v d="$d" 'NF > 0 && $1 ~ /^[0-9]+$/ { print > (d "/rank-" $1 ".txt") }' "$t"
    np=$(ls "$d" | wc -l)
    for ((r = 0; r < np; r++)); do echo "$d/rank-$r.txt"; done > "$d.list"
    compare "simgrid example $(basename "$t") ($np ranks)" -no-privatize -np "$np" --cfg=smpi/host-speed:1Gf \
      -platform "$src/examples/platforms/small_platform.xml" -hostfile "$src/examples/smpi/hostfile" -replay "$d.list"
  done
fi

# 4. Emulation: a C program and a Fortran one, built by each SimGrid's own compilers.
cat > "$work/requests.c" <<'C'
/* Point-to-point patterns the patches touch: specific and any source, waitall, waitany, testany,
 * waitsome, a reduce to one root, Fortran handles of requests. Prints what it received, and when. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int leak = argc > 1 && strcmp(argv[1], "leak") == 0;
  int* in = calloc(size, sizeof(int));
  MPI_Request* reqs = malloc(2 * size * sizeof(MPI_Request));
  for (int round = 0; round < 3; round++) {
    int n = 0;
    for (int p = 0; p < size; p++) /* everyone to everyone, tags by round */
      if (p != rank) {
        MPI_Irecv(&in[p], 1, MPI_INT, round == 1 ? MPI_ANY_SOURCE : p, round, MPI_COMM_WORLD, &reqs[n++]);
        int v = rank * 100 + round;
        MPI_Send(&v, 1, MPI_INT, p, round, MPI_COMM_WORLD);
      }
    if (round == 0) {
      MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    } else if (round == 1) {
      for (int k = 0; k < n; k++) {
        int idx; MPI_Status st;
        MPI_Waitany(n, reqs, &idx, &st);
        printf("rank %d round 1: %d from %d at %.17g\n", rank, idx, st.MPI_SOURCE, MPI_Wtime());
      }
    } else {
      MPI_Fint handle = MPI_Request_c2f(reqs[0]);
      if (MPI_Request_f2c(handle) != reqs[0])
        printf("rank %d: MPI_Request_f2c(MPI_Request_c2f(r)) is not r\n", rank);
      int done = 0, flag, idx, outcount, indices[64];
      while (done < n) {
        MPI_Testany(n, reqs, &idx, &flag, MPI_STATUS_IGNORE);
        if (flag && idx != MPI_UNDEFINED) { done++; continue; }
        MPI_Waitsome(n, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
        if (outcount != MPI_UNDEFINED) done += outcount;
      }
    }
    int sum = 0, total = 0;
    for (int p = 0; p < size; p++) sum += in[p];
    MPI_Reduce(&sum, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
      printf("round %d: total %d at %.17g\n", round, total, MPI_Wtime());
  }
  if (leak && rank == 1) { /* requests never completed nor freed: SMPI's leak report lists them */
    int v = 0;
    for (int k = 0; k < 4; k++)
      MPI_Irecv(&v, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &reqs[k]);
  }
  free(in);
  free(reqs);
  MPI_Finalize();
  return 0;
}
C
cat > "$work/requests.f90" <<'F90'
! Fortran requests are integer handles: isend/irecv, waitall, waitany, test.
program requests
  use mpi
  implicit none
  integer :: rank, size, ierr, k, idx, peer, n
  integer :: inbox(64), outbox(64), reqs(128), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 64)
  logical :: flag
  double precision :: now
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  n = 0
  do peer = 0, size - 1
    if (peer /= rank) then
      n = n + 1
      outbox(n) = rank * 10 + peer
      call MPI_Irecv(inbox(n), 1, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, reqs(n), ierr)
      call MPI_Isend(outbox(n), 1, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, reqs(size + n), ierr)
    end if
  end do
  do k = 1, n
    call MPI_Waitany(n, reqs, idx, st, ierr)
  end do
  ! statuses given: a stock SimGrid 4.1 mishandles Fortran's MPI_STATUSES_IGNORE (a bug patch 0002 fixes)
  call MPI_Waitall(n, reqs(size + 1), sts, ierr)
  call MPI_Test(reqs(1), flag, st, ierr)
  ! MPI_Wtime before the write: called inside it, it may switch to another rank while this one holds
  ! the output unit's lock (a deadlock)
  now = MPI_Wtime()
  write (*, '(A,I3,A,I6,A,F22.17)') 'rank', rank, ' sum', sum(inbox(1:n)), ' at', now
  call MPI_Finalize(ierr)
end program requests
F90
cat > "$work/emul.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-7" speed="1Gf" core="2" bw="1.25GBps" lat="1.5us" loopback_bw="100GBps" loopback_lat="10ns"/>
</platform>
XML
for ((i = 0; i < 8; i++)); do echo "h$i:2"; done > "$work/emul.hosts"
built=1
for side in stock patched; do
  prefix=$stock; [ "$side" = patched ] && prefix=$patched
  "$prefix/bin/smpicc" -O1 -o "$work/requests-c-$side" "$work/requests.c" > "$work/cc-$side.log" 2>&1 \
    || { fail "C program: the $side smpicc failed: $(tail -1 "$work/cc-$side.log")"; built=0; }
  if [ -x "$prefix/bin/smpif90" ] && command -v gfortran > /dev/null; then
    "$prefix/bin/smpif90" -O1 -o "$work/requests-f-$side" "$work/requests.f90" > "$work/ff-$side.log" 2>&1 \
      || { fail "Fortran program: the $side smpif90 failed: $(tail -1 "$work/ff-$side.log")"; built=0; }
  fi
done
emul=(-np 16 -platform "$work/emul.xml" -hostfile "$work/emul.hosts" --cfg=smpi/simulate-computation:no)
if [ "$built" = 1 ]; then
  # Each side's programs under the same name, in a directory per side (the name is in the output)
  for side in stock patched; do
    mkdir -p "$work/$side.bin"
    cp "$work/requests-c-$side" "$work/$side.bin/requests-c"
    if [ -x "$work/requests-f-$side" ]; then cp "$work/requests-f-$side" "$work/$side.bin/requests-f"; fi
  done
  # $1 = name, $2 = program, then smpirun options; the program's arguments in ${extra[@]}.
  compare_emulation() {
    local name="$1" program="$2"; shift 2
    local side prefix
    for side in stock patched; do
      prefix=$stock; [ "$side" = patched ] && prefix=$patched
      (cd "$work" && timeout 600 "$prefix/bin/smpirun" "${emul[@]}" "$@" "$work/$side.bin/$program" "${extra[@]}" \
        "--log=root.fmt:[%h:%a:(%i)%e%.20r]%e%m%n") > "$work/$side.all" 2>&1 \
        || { fail "$name: the $side SimGrid failed: $(tail -1 "$work/$side.all")"; return; }
      grep -v -E "xbt_cfg/INFO|Configuration change|has been renamed" "$work/$side.all" | sed "s#$prefix#PREFIX#g; s#$work/$side.bin#BIN#g" | sort > "$work/$side.out" || true
    done
    if [ -s "$work/stock.out" ] && cmp -s "$work/stock.out" "$work/patched.out"; then
      echo "ok   $name: $(wc -l < "$work/stock.out") lines identical"
      checked=$((checked + 1))
    else
      fail "$name: outputs differ: $(diff "$work/stock.out" "$work/patched.out" | sed -n 2p | cut -c1-160)"
    fi
  }
  extra=()
  compare_emulation "emulation, C requests (16 ranks)" requests-c
  extra=(leak)
  compare_emulation "emulation, C requests leaked, leak report" requests-c --cfg=smpi/list-leaks:10
  extra=()
  if [ -x "$work/stock.bin/requests-f" ]; then
    compare_emulation "emulation, Fortran requests (16 ranks)" requests-f
  fi
fi

if [ "$failed" -eq 0 ]; then
  echo "patched SimGrid checked against the stock one: $checked of $checked comparisons identical"
else
  echo "patched SimGrid checked against the stock one: $failed of $((checked + failed)) comparisons FAILED"
  exit 1
fi
