#!/usr/bin/env bash
# A Fortran program that prints and then calls MPI_Abort keeps its output: libgfortran buffers its
# units itself, and the simulator ends a failed run without running the program's exit handlers,
# so the suite flushes them first (core/run_context.cpp, flush_program_output). The lines are in
# OUT.failed.log and the last one under the error line, as for a C program.
source "$(dirname "$0")/common.sh"
cp "$source_dir/tests/integration/abort_f.F90" .
"$haec" fc -o abort_f abort_f.F90 > /dev/null
set +e
"$haec" run --platform cluster:2 -np 2 --out out -- ./abort_f > run.out 2> run.err
rc=$?
set -e
[ $rc -ne 0 ] || fail "a run whose rank called MPI_Abort exited 0"
[ ! -e out ] || fail "a failed run left its result directory"
grep -q "rank 0 called MPI_Abort" run.err || fail "error line: $(cat run.err)"
grep -q "says goodbye before the abort" run.err || fail "the program's last output is not under the error line: $(cat run.err)"
for r in 0 1; do
  grep -qE "fortran rank +$r says goodbye before the abort" out.failed.log || fail "rank $r's line is not in out.failed.log"
done
echo "ok: a Fortran program's output survives MPI_Abort (exit $rc)"
