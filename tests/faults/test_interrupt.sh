#!/usr/bin/env bash
# SIGINT, SIGTERM and SIGKILL at random points of a run (README "Errors and failures"): haec exits
# 130/143 with "interrupted" (137 for SIGKILL), and in every case nothing is left: no result
# directory, no staging directory, no process of the run (smpirun, smpimain) still alive. The
# points are drawn from a seeded generator and printed, so a failure can be replayed.
source "$(dirname "$0")/common.sh" "$@"
RANDOM=${HAEC_FAULT_SEED:-4242}

# A script's background jobs ignore SIGINT (no job control); a terminal's do not: reset it.
DEFAULT_SIGNALS=(env --default-signal=INT,TERM)

# start_run OUT: haec in a session of its own (its id is the session id), on a run that lasts
# long enough to be interrupted anywhere.
start_run() {
  setsid "${DEFAULT_SIGNALS[@]}" "$HAEC" run --platform cluster:2 -np 2 --out "$1" -- "$FAULTS" long 3000 > "$1.stdout" 2> "$1.stderr" &
  PID=$!
}

check_nothing_left() { # OUT PID
  sleep 0.3 # the kernel delivers the supervisor's SIGKILLs
  local left
  left=$(live_in_session "$2")
  [[ -z $left ]] || fail "$1: processes of the run still alive: $left"
  [[ ! -e $1 ]] || fail "$1: result directory left behind"
  ls -d "$1".tmp-* 2>/dev/null && fail "$1: staging directory left behind"
  [[ ! -e $1.failed.log ]] || fail "$1: a log was kept for an interrupted run"
  rm -f "$1.stdout" "$1.stderr"
}

round=0
for sig in INT TERM KILL INT TERM KILL GROUP-INT GROUP-TERM GROUP-KILL; do
  round=$((round + 1))
  # 0 ms (during validation) up to 2.5 s (inside the simulation)
  delay=$(printf '%d.%03d' $((RANDOM % 3)) $((RANDOM % 1000)))
  [[ $round == 1 ]] && delay=0.02
  out="run$round"
  start_run "$out"
  sleep "$delay"
  case $sig in
    GROUP-*) kill "-${sig#GROUP-}" -- "-$PID" ;; # Ctrl-C on the terminal: the whole foreground group
    *) kill "-$sig" "$PID" ;;
  esac
  wait "$PID"
  status=$?
  echo "round $round: SIG${sig#GROUP-} ${sig%%-*} after ${delay}s: exit $status: $(head -1 "$out.stderr")"
  case ${sig#GROUP-} in
    INT) want=130 ;;
    TERM) want=143 ;;
    KILL) want=137 ;;
  esac
  [[ $status == "$want" ]] || { cat "$out.stderr" >&2; fail "SIG$sig after ${delay}s: exit $status, want $want"; }
  # a signal before haec set its handlers (while it loads) kills it silently: nothing was written
  if [[ ${sig#GROUP-} != KILL && -s $out.stderr ]]; then
    [[ $(cat "$out.stderr") =~ ^"haec: interrupted (SIG${sig#GROUP-})" ]] ||
      { cat "$out.stderr" >&2; fail "SIG$sig: not one 'interrupted' line"; }
    [[ $(wc -l < "$out.stderr") == 1 ]] || { cat "$out.stderr" >&2; fail "SIG$sig: more than one line"; }
  fi
  check_nothing_left "$out" "$PID"
done

# timeout(1) sends SIGTERM: "interrupted", not SimGrid's "exited without calling MPI_Finalize"
setsid "${DEFAULT_SIGNALS[@]}" timeout 2 "$HAEC" run --platform cluster:2 -np 2 --out to -- "$FAULTS" long 3000 > to.stdout 2> to.stderr &
PID=$!
wait "$PID"
status=$?
[[ $status == 124 ]] || { cat to.stderr >&2; fail "timeout: exit $status, want 124"; }
grep -q "^haec: interrupted (SIGTERM)" to.stderr || { cat to.stderr >&2; fail "timeout: no 'interrupted' line"; }
grep -q "MPI_Finalize" to.stderr && fail "timeout: SimGrid's message shown"
check_nothing_left to "$PID"

# trace record: the same, for the trace and its files
setsid "${DEFAULT_SIGNALS[@]}" "$HAEC" trace record --platform cluster:2 -np 2 --out tr.txt -- "$FAULTS" long 3000 > tr.stdout 2> tr.stderr &
PID=$!
sleep 1.5
kill -INT -- "-$PID"
wait "$PID"
status=$?
[[ $status == 130 ]] || { cat tr.stderr >&2; fail "trace record: exit $status, want 130"; }
[[ $(wc -l < tr.stderr) == 1 ]] || { cat tr.stderr >&2; fail "trace record: more than one line"; }
[[ ! -e tr.txt && ! -e tr.txt_files ]] || fail "trace record: trace left behind"
ls -d tr.txt.tmp-* 2>/dev/null && fail "trace record: staging directory left behind"
[[ -z $(live_in_session "$PID") ]] || fail "trace record: processes left: $(live_in_session "$PID")"
echo PASS
