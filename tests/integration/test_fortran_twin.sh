#!/usr/bin/env bash
# Fortran programs are seen by the suite as C programs are (pmpi/README.md): apps/ring_allreduce.c
# and its twin apps/ring_allreduce_f.F90 (`use mpi`, built with haec fc), run with the link model,
# the energy model, a DVFS governor and events, give the same traffic matrix, regions and events
# (call sites named by order of appearance), iterations, makespan, energy and output; their recorded
# TI traces are identical (call sites normalized) and replay to the emulated makespan. Also: every wrapped function has the
# three Fortran manglings; a fixed-form program with include 'mpif.h' and one buffer argument of two
# types builds with haec f77 (gfortran >= 10 flags) and is seen; a Fortran program built without
# libhaec_pmpi is refused by haec trace record with advice naming haec f77 / fc.
source "$(dirname "$0")/common.sh"
[[ -x $build/bin/ring_allreduce_f ]] || fail "$build/bin/ring_allreduce_f missing (needs gfortran/smpiff)"

# Sites "MPI_Send@object+0x1a2" named "MPI_Send#k", k their order of first appearance in the file.
normalize() {
  $py - "$1" <<'EOF'
import re, sys
names = {}
def name(m):
    key = m.group(0)
    if key not in names:
        names[key] = "%s#%d" % (m.group(1), len(names))
    return names[key]
print(re.sub(r"(MPI_\w+)@[^,>\"]+\+0x[0-9a-f]+", name, open(sys.argv[1]).read()), end="")
EOF
}
field() { $py -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))[sys.argv[2]]))' "$1/summary.json" "$2"; }
opts=(--platform cluster:6,preset=taurus -np 6 --governor mix --cfg smpi/simulate-computation:no)

for app in ring_allreduce ring_allreduce_f; do
  "$haec" run "${opts[@]}" --events --out "run_$app" --quiet -- "$build/bin/$app" 12
done
c=run_ring_allreduce f=run_ring_allreduce_f
cmp -s $c/traffic_matrix.csv $f/traffic_matrix.csv || fail "traffic matrices differ"
[ "$(grep -c . $f/traffic_matrix.csv)" -gt 1 ] || fail "the Fortran run has an empty traffic matrix"
for csv in regions.csv events.csv iterations.csv; do
  [ -s $f/$csv ] || fail "the Fortran run wrote no $csv"
  normalize $c/$csv > c.csv
  normalize $f/$csv > f.csv
  cmp -s c.csv f.csv || { diff c.csv f.csv | head >&2; fail "$csv differ"; }
done
for key in makespan_s app_messages iterations energy_j; do
  [ "$(field $c $key)" = "$(field $f $key)" ] || fail "$key: C $(field $c $key), Fortran $(field $f $key)"
done
[ "$(field $f iterations)" -gt 0 ] || fail "no iteration detected in the Fortran run"
cmp -s $c/stdout.txt $f/stdout.txt || fail "outputs differ: $(cat $c/stdout.txt) / $(cat $f/stdout.txt)"
echo "twin runs agree: makespan $(field $f makespan_s) s, $(field $f app_messages) messages," \
  "$(field $f iterations) iterations"

# Traces: identical files, replayed to the emulated makespan.
for app in ring_allreduce ring_allreduce_f; do
  "$haec" trace record --platform haec-box:2x2x2 -np 6 --link dor --cfg smpi/simulate-computation:no \
    --out "t/$app.txt" --keep-run "em_$app" -- "$build/bin/$app" 12 > /dev/null
  "$haec" run --platform haec-box:2x2x2 -np 6 --link dor --replay "t/$app.txt" --out "rep_$app" --quiet
done
# (the call annotations' sites normalized as above: the objects and offsets differ)
for f in t/ring_allreduce.txt_files/*.txt; do
  normalize "$f" > c.txt
  normalize "t/ring_allreduce_f.txt_files/$(basename "$f")" > f.txt
  cmp -s c.txt f.txt || { diff c.txt f.txt | head >&2; fail "the recorded traces differ ($(basename "$f"))"; }
done
e=$(field em_ring_allreduce_f makespan_s)
r=$(field rep_ring_allreduce_f makespan_s)
rc=$(field rep_ring_allreduce makespan_s)
$py -c 'import sys; e,r,c=map(float,sys.argv[1:]); sys.exit(0 if abs(e-r) <= 1e-9*e and r == c else 1)' \
  "$e" "$r" "$rc" ||
  fail "replay: Fortran emulation $e s, Fortran replay $r s, C replay $rc s"
echo "traces identical; replay $r s, emulation $e s"

# Every Fortran entry point in three manglings, in the program (local: linked in by haec fc).
syms=$(nm --defined-only "$build/bin/ring_allreduce_f" | awk '$2 == "t" {print $3}')
n=0
for s in $(grep -E '^mpi_[a-z_]+[a-z]_$' <<< "$syms"); do
  base=${s%_}
  grep -qx "${base}__" <<< "$syms" && grep -qx "${base^^}" <<< "$syms" || fail "$s lacks ${base}__ or ${base^^}"
  n=$((n + 1))
done
[ $n -ge 80 ] || fail "only $n Fortran entry points"
for s in mpi_send_ mpi_isend_ mpi_waitall_ mpi_allreduce_ mpi_put_ mpi_win_fence_ mpi_init_ mpi_finalize_; do
  grep -qx $s <<< "$syms" || fail "no $s"
done
echo "$n Fortran entry points, each as mpi_x_, mpi_x__ and MPI_X"

# Fixed form, include 'mpif.h', one buffer of two types (gfortran >= 10 refuses it without the flag).
cat > ping.f <<'EOF'
      program ping
      include 'mpif.h'
      integer ierr, rank, n, status(MPI_STATUS_SIZE)
      double precision x
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      n = 7
      x = 2.5d0
      if (rank .eq. 0) then
        call MPI_SEND(n, 1, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, ierr)
        call MPI_SEND(x, 1, MPI_DOUBLE_PRECISION, 1, 2, MPI_COMM_WORLD,
     &                ierr)
      else if (rank .eq. 1) then
        call MPI_RECV(n, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, status,
     &                ierr)
        call MPI_RECV(x, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 2,
     &                MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        print *, 'received', n, x
      end if
      call MPI_FINALIZE(ierr)
      end
EOF
"$haec" f77 -O1 ping.f -o ping 2> f77.err || { cat f77.err >&2; fail "haec f77 could not build a legacy program"; }
"$haec" run --platform cluster:2 -np 2 --out run_ping --quiet -- ./ping
grep -q "received *7 *2.5" run_ping/stdout.txt || fail "ping output: $(cat run_ping/stdout.txt)"
[ "$(field run_ping app_messages)" = "2" ] || fail "ping: app_messages $(field run_ping app_messages)"
grep -q "^0,1,2,12$" run_ping/traffic_matrix.csv || fail "ping traffic: $(cat run_ping/traffic_matrix.csv)"

# Without libhaec_pmpi: haec trace record says how to build it. (A sanitizer build's haec run
# preloads libhaec_pmpi, docs/SANITIZERS.md, so there every program reaches it.)
if grep -q '^HAEC_SANITIZE:STRING=.' "$build/CMakeCache.txt" 2> /dev/null; then
  echo "skipped under the sanitizers: the plain program (haec run preloads libhaec_pmpi)"
else
  # Its second receive takes a status: this program goes to SimGrid's own Fortran bindings, and a
  # stock SimGrid 4.0/4.1 crashes on MPI_STATUS_IGNORE there (third_party_patches/simgrid-4.1/0002).
  sed 's/MPI_STATUS_IGNORE/status/' ping.f > ping_plain.f
  smpiff -fallow-argument-mismatch ping_plain.f -o ping_plain 2> /dev/null
  set +e
  "$haec" trace record --platform cluster:2 -np 2 --out t/plain.txt -- ./ping_plain > /dev/null 2> plain.err
  rc=$?
  set -e
  [ $rc -eq 2 ] && grep -q "haec cc, cxx, f77 or fc" plain.err || fail "plain program: exit $rc, $(cat plain.err)"
fi
echo PASS
