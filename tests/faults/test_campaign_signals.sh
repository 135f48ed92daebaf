#!/usr/bin/env bash
# Every signal that ends `haec campaign run` while its runs are going (SIGHUP, SIGQUIT, SIGUSR1,
# SIGALRM, SIGPIPE, SIGINT, SIGTERM, and SIGKILL, which cannot be caught): the campaign exits
# 128 + the signal with one "interrupted (SIGNAME)" line (SIGKILL: 137, no line), and nothing of its
# runs is left: no process of the session (haec run, its supervisor, smpirun, smpimain), no staging
# directory runs/<id>.tmp-PID. A campaign run again afterwards finishes every run.
source "$(dirname "$0")/common.sh" "$@"

cat > c.json <<EOF
{"app": ["$FAULTS", "long", "300"], "run": {"np": 2, "platform": "cluster:2"}, "axes": {"seed": [1, 2]}}
EOF
DEFAULT_SIGNALS=(env --default-signal=INT,TERM,HUP,QUIT,USR1,ALRM,PIPE)

running_runs() { ls -d "$1"/runs/*.tmp-* 2> /dev/null | wc -l; }

for sig in HUP QUIT USR1 ALRM PIPE INT TERM KILL; do
  out="c-$sig"
  setsid "${DEFAULT_SIGNALS[@]}" "$HAEC" campaign run c.json --out "$out" --jobs 2 > "$out.stdout" 2> "$out.stderr" &
  pid=$!
  for _ in $(seq 1 300); do # both runs inside their simulation (staging directories exist)
    [[ $(running_runs "$out") -ge 2 ]] && break
    sleep 0.1
  done
  [[ $(running_runs "$out") -ge 2 ]] || { cat "$out.stderr" >&2; fail "SIG$sig: the runs did not start"; }
  sleep 0.5
  kill "-$sig" "$pid"
  wait "$pid"
  status=$?
  signo=$(kill -l "$sig")
  [[ $status == $((128 + signo)) ]] || { cat "$out.stderr" >&2; fail "SIG$sig: exit $status, want $((128 + signo))"; }
  if [[ $sig != KILL ]]; then
    last=$(tail -1 "$out.stderr")
    [[ $last == "haec: campaign interrupted (SIG$sig); finished runs are kept"* ]] ||
      { cat "$out.stderr" >&2; fail "SIG$sig: last line '$last'"; }
  fi
  left=""
  for _ in $(seq 1 50); do # SIGKILL: the runs get SIGTERM from the kernel, and 2 s of grace
    left=$(live_in_session "$pid")
    [[ -z $left && $(running_runs "$out") == 0 ]] && break
    sleep 0.1
  done
  [[ -z $left ]] || fail "SIG$sig: processes of the campaign still alive: $left"
  [[ $(running_runs "$out") == 0 ]] || fail "SIG$sig: staging directories left: $(ls "$out/runs")"
  echo "SIG$sig: exit $status, $(tail -1 "$out.stderr" | cut -c1-100), nothing left"
done

# The last interrupted campaign resumes and finishes.
"$HAEC" campaign run c.json --out c-KILL --jobs 2 > /dev/null 2> resume.err || { cat resume.err >&2; fail "resume failed"; }
grep -q "2 runs, 0 already finished" resume.err || fail "resume: $(head -1 resume.err)"
[[ $(grep -c ',done,' c-KILL/results.csv) == 2 ]] || fail "resume: results.csv $(cat c-KILL/results.csv)"
echo PASS
