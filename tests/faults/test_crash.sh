#!/usr/bin/env bash
# A program that crashes, returns non-zero or calls MPI_Abort is a failed run (exit 3): one line
# naming what happened and the program's last output (escaped), the log kept in <out>.failed.log,
# no result directory; after a crash, a marked block with the program's last lines.
source "$(dirname "$0")/common.sh" "$@"

check_failed() { # NAME: no result directory, no staging directory, the log kept
  [[ ! -e $1 ]] || fail "$1: result directory left behind"
  ls -d "$1".tmp-* 2>/dev/null && fail "$1: staging directory left behind"
  [[ -s $1.failed.log ]] || fail "$1: log not kept in $1.failed.log"
  grep -q "==== the program's standard output" "$1.failed.log" || fail "$1: the kept log lacks the program's output"
}

run_expect 3 "^haec: run failed: the simulation crashed with SIGABRT .*; its last output: rank 1: \\\\x1b\[31mlast words\\\\x1b\[0m; log: .*/ab\.failed\.log$" \
  "$HAEC" run --platform cluster:2 -np 2 --out ab -- "$FAULTS" abort
grep -q $'\x1b' err && fail "abort: raw escape bytes in the error"
sed -n 2p err | grep -q "^haec: last output of the program (stdout, then stderr):$" || { cat err; fail "abort: no marked block"; }
grep -q "^  | rank 1: about to abort$" err || { cat err; fail "abort: the block lacks the program's lines"; }
grep -q "Execution failed\|--cfg=" err && fail "abort: smpirun's own lines shown as the program's output"
check_failed ab

run_expect 3 "^haec: run failed: the simulation crashed with SIGSEGV .*its last output: rank 1: about to dereference a null pointer; log:" \
  "$HAEC" run --platform cluster:2 -np 2 --out sg -- "$FAULTS" segv
check_failed sg

run_expect 3 "^haec: run failed: rank 1 ended with status 3 \(its main returned or called exit\); log:" \
  "$HAEC" run --platform cluster:3 -np 3 --out ex -- "$FAULTS" exit
[[ $(wc -l < err) == 1 ]] || fail "exit: more than one line"
check_failed ex

run_expect 3 "^haec: run failed: rank 1 called MPI_Abort; log:" "$HAEC" run --platform cluster:2 -np 2 --out ma -- "$FAULTS" mpi-abort
check_failed ma

# --keep-failed after a crash: the directory, with a summary.json written by haec saying why
run_expect 3 "^haec: run failed: the simulation crashed with SIGSEGV.*; kept in .*/kept$" \
  "$HAEC" run --platform cluster:2 -np 2 --keep-failed --out kept -- "$FAULTS" segv
"${HAEC_PYTHON:-python3}" -c "
import json; s = json.load(open('kept/summary.json'))
assert s['status'] == 'failed' and s['exit_status'] == 3 and 'SIGSEGV' in s['failure'], s" || fail "kept crash summary"
[[ -f kept/stdout.txt && -f kept/simgrid.log ]] || fail "kept crash directory incomplete"
# an earlier result is never replaced by a failed run: the failed one goes next to it
"$HAEC" run -q --platform cluster:2 -np 2 --out good -- "$BUILD/bin/pingpong" 8 1 || fail "pingpong run"
run_expect 3 "kept in .*/good\.failed$" "$HAEC" run --platform cluster:2 -np 2 --force --keep-failed --out good -- "$FAULTS" abort
grep -q '"status": "failed"' good/summary.json && fail "--force --keep-failed replaced a good result by a failed one"
[[ -f good.failed/summary.json ]] || fail "good.failed not kept"

# trace record of a crashing program: exit 3, the log next to the trace
run_expect 3 "^haec: run failed: the simulation crashed with SIGABRT.*; log: .*/rec\.txt\.failed\.log$" \
  "$HAEC" trace record --platform cluster:2 -np 2 --out rec.txt -- "$FAULTS" abort
[[ ! -e rec.txt && ! -e rec.txt_files && -s rec.txt.failed.log ]] || fail "trace record after a crash: $(listing)"

# -np beyond what the simulator can create: refused before anything runs
run_expect 2 "^haec: -np 100000: more ranks than this machine's simulator can create" \
  "$HAEC" run --platform cluster:2 -np 100000 --out big -- "$FAULTS" long 1
[[ ! -e big && ! -e big.failed.log ]] || fail "-np 100000 left files"
echo PASS
