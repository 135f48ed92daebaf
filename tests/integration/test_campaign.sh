#!/usr/bin/env bash
# haec campaign run: a 4-run sweep (2 cluster sizes x 2 mappings) of the lu_like trace shipped with
# examples/campaigns, 2 at a time. Checks results.csv (one row per run, figures equal to each run's
# summary.json and to a plain haec run of the same options), resuming (a re-run runs nothing; a
# campaign stopped by SIGTERM keeps its finished runs and the next one runs only the rest), and
# failed runs (reported with their log, the others still run, exit 3, empty figures).
source "$(dirname "$0")/common.sh"
cp -r "$source_dir/examples/campaigns/lu_like16" .
cat > small.json <<'EOF'
{
  "trace": "lu_like16/trace.txt",
  "run": {"power": true},
  "axes": {"platform": ["cluster:2,preset=taurus", "cluster:4,preset=taurus"], "map": ["block-xyz", "xyz"]}
}
EOF
fail() { echo "FAIL: $*"; exit 1; }
col() { # col FILE COLUMN ROW(1-based): one cell of a CSV
  /usr/bin/python3 -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(r[int(sys.argv[3])-1][sys.argv[2]])' "$@"
}

start=$(date +%s.%N)
"$haec" campaign run small.json --out c --jobs 2 2> run1.err || { cat run1.err; fail "campaign failed"; }
echo "4 runs: $(echo "$(date +%s.%N) - $start" | bc) s"
[ "$(grep -c '' c/results.csv)" -eq 5 ] || fail "results.csv has not 4 rows: $(cat c/results.csv)"
grep -q "4/4 done, 0 running, 0 failed" run1.err || fail "no final progress line: $(cat run1.err)"
for row in 1 2 3 4; do
  [ "$(col c/results.csv status $row)" = done ] || fail "row $row not done"
  dir=$(col c/results.csv result_dir $row)
  for f in makespan_s energy_j messages; do
    want=$(/usr/bin/python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]]))' "c/$dir/summary.json" $f)
    [ "$(col c/results.csv $f $row)" = "$want" ] || fail "row $row $f: $(col c/results.csv $f $row) vs summary $want"
  done
done
[ "$(col c/results.csv nodes 1)" = 2 ] && [ "$(col c/results.csv nodes 4)" = 4 ] || fail "node counts"
[ "$(col c/results.csv platform 1)" = "cluster:2,preset=taurus" ] || fail "platform axis cell"
# The same run by hand: the same figures, bit for bit (replay is deterministic).
(cd lu_like16 && "$haec" run --quiet --power --platform cluster:4,preset=taurus --map xyz --replay "$PWD/trace.txt" --out "$work/direct")
cmp <(grep -v '"trace"' direct/summary.json) <(grep -v '"trace"' "c/$(col c/results.csv result_dir 4)/summary.json") ||
  fail "campaign run and haec run differ"

# Re-run: everything is finished, nothing runs, the results are the same.
cp c/results.csv results.before
stamp=$(stat -c %Y "c/$(col c/results.csv result_dir 1)/summary.json")
"$haec" campaign run small.json --out c 2> run2.err || fail "re-run failed"
grep -q "4 runs, 4 already finished" run2.err || fail "re-run did not skip: $(cat run2.err)"
cmp results.before c/results.csv || fail "results.csv changed on a re-run"
[ "$(stat -c %Y "c/$(col c/results.csv result_dir 1)/summary.json")" = "$stamp" ] || fail "a finished run was redone"

# A campaign stopped by SIGTERM after its first run keeps it; the next one runs the other three.
"$haec" campaign run small.json --out k --jobs 1 2> kill.err &
pid=$!
finished() { # run directories in place (a staging directory *.tmp-PID may hold summary.json already)
  find k/runs -mindepth 2 -maxdepth 2 -name summary.json 2> /dev/null | grep -vc '\.tmp-' || true
}
for _ in $(seq 1 600); do
  [ "$(finished)" -ge 1 ] && break
  sleep 0.1
done
kill -TERM $pid
status=0
wait $pid || status=$?
[ "$status" -eq 143 ] || fail "stopped campaign exit $status, expected 143"
grep -q "interrupted" kill.err || fail "no interruption line: $(cat kill.err)"
kept=$(finished)
[ "$kept" -ge 1 ] || fail "no finished run kept"
"$haec" campaign run small.json --out k --jobs 2 2> resume.err || fail "resume failed: $(cat resume.err)"
grep -q "4 runs, $kept already finished" resume.err || fail "resume: $(head -1 resume.err), expected $kept finished"
[ "$(ls k/runs | grep -c tmp-)" -eq 0 ] || fail "staging directories left: $(ls k/runs)"
cmp c/results.csv k/results.csv || fail "resumed campaign differs"

# Bundles: an axis of objects varies several options together; the runs equal the product's.
cat > bundle.json <<'EOF'
{
  "trace": "lu_like16/trace.txt",
  "run": {"power": true},
  "axes": {"machine": [{"platform": "cluster:2,preset=taurus", "map": "xyz"},
                       {"platform": "cluster:4,preset=taurus", "map": "block-xyz"}]}
}
EOF
"$haec" campaign run bundle.json --out b --jobs 2 2> bundle.err || fail "bundle campaign: $(cat bundle.err)"
[ "$(grep -c '' b/results.csv)" -eq 3 ] || fail "bundle: results.csv has not 2 rows"
[ "$(col b/results.csv machine 1)" = "platform=cluster:2,preset=taurus map=xyz" ] ||
  fail "bundle cell: $(col b/results.csv machine 1)"
[ "$(col b/results.csv makespan_s 1)" = "$(col c/results.csv makespan_s 2)" ] || fail "bundle row 1 differs from product row 2"
[ "$(col b/results.csv makespan_s 2)" = "$(col c/results.csv makespan_s 3)" ] || fail "bundle row 2 differs from product row 3"

# Failed runs: each one is reported with its log, none stops the others, the campaign exits 3.
cat > failing.json <<EOF
{"app": ["$build/bin/pingpong", "-5"], "run": {"np": 2}, "axes": {"platform": ["cluster:2", "cluster:3"]}}
EOF
status=0
"$haec" campaign run failing.json --out f --jobs 2 2> fail.err || status=$?
[ "$status" -eq 3 ] || fail "failing campaign exit $status, expected 3"
[ "$(grep -Ec 'failed \(exit [0-9]+\); see .*/logs/.*\.log' fail.err)" -eq 2 ] || fail "failed runs not reported: $(cat fail.err)"
grep -q "2 of 2 runs failed" fail.err || fail "no summary line: $(cat fail.err)"
[ "$(col f/results.csv status 2)" = failed ] && [ -z "$(col f/results.csv makespan_s 2)" ] || fail "failed row"
[ -s "f/$(col f/results.csv log 2)" ] || fail "the failed run's log is empty"
echo "campaign ok: 4 runs, re-run skips all, resume after SIGTERM runs $((4 - kept)), failed runs reported"
