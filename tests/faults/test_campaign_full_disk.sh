#!/usr/bin/env bash
# `haec campaign run` on a full disk: the campaign directory is on a small tmpfs filled up to leave
# 0, 1, 2, ... free pages, so that the write that fails moves through campaign.json, the logs, the
# runs' result files and results.csv. Every campaign either succeeds with the reference results or
# fails (exit 3, its last line one "haec: " line) leaving either nothing (no campaign directory a
# later campaign would take for progress), or a directory whose finished runs a campaign run again
# on a free disk keeps and completes to the reference results, or one whose runs all failed, said
# in the last line ("runs failed; see their logs"), that a second campaign runs again whole. The tmpfs is
# mounted in a user namespace (unshare -rm); where that is not allowed the test skips (full_disk.sh).
source "$(dirname "$0")/full_disk.sh" "$@"

write_small_trace
cat > c.json <<EOF
{"trace": "$TMP/t.trace", "run": {"power": true, "messages": true}, "axes": {"platform": ["cluster:2", "cluster:3"]}}
EOF
CAMPAIGN=("$HAEC" campaign run c.json --jobs 1)
figures() { cat "$1"; } # results.csv: ids, figures and relative paths, the same on every disk

mount_small_disk
"${CAMPAIGN[@]}" --out disk/ref > /dev/null 2> ref.err || { cat ref.err >&2; fail "reference campaign on an empty tmpfs"; }
figures disk/ref/results.csv > ref.csv
rm -rf disk/ref

total=$(free_pages)
successes=0 failures=0 kept=0
for keep in $(seq 0 80); do
  fill_disk_to "$keep" "$total"
  "${CAMPAIGN[@]}" --out disk/c > out 2> err
  status=$?
  if [[ $status == 0 ]]; then
    successes=$((successes + 1))
    cmp -s ref.csv <(figures disk/c/results.csv) || fail "$keep free pages: results differ from the reference"
  else
    failures=$((failures + 1))
    [[ $status == 3 ]] || { cat err >&2; fail "$keep free pages: exit $status, want 3"; }
    tail -1 err | grep -q "^haec: " || { cat err >&2; fail "$keep free pages: the last line is not 'haec: ...'"; }
    if [[ -e disk/c ]]; then # kept: real progress, or failed runs with their logs, completed by a second campaign
      finished=$(find disk/c/runs -mindepth 2 -maxdepth 2 -name summary.json 2> /dev/null | grep -vc '\.tmp-' || true)
      if [[ $finished -eq 0 ]]; then # the line says what was kept and why; nothing passes for a finished run
        tail -1 err | grep -q "runs failed; see their logs in" ||
          fail "$keep free pages: a campaign directory without a finished run was left: $(ls -A disk/c); $(tail -1 err)"
        grep -q ',done,' disk/c/results.csv 2> /dev/null && fail "$keep free pages: results.csv lists a run done"
      fi
      ls -d disk/c/runs/*.tmp-* 2> /dev/null && fail "$keep free pages: a staging directory was left"
      kept=$((kept + 1))
      rm -f disk/filler
      "${CAMPAIGN[@]}" --out disk/c > /dev/null 2> resume.err || { cat resume.err >&2; fail "$keep free pages: resume failed"; }
      grep -q "2 runs, $finished already finished" resume.err || fail "resume after $finished finished: $(head -1 resume.err)"
      cmp -s ref.csv <(figures disk/c/results.csv) || fail "$keep free pages: resumed results differ from the reference"
    fi
  fi
  echo "$keep free pages: exit $status $(tail -1 err | cut -c1-150)"
  rm -rf disk/c disk/filler
  (( successes >= 3 )) && break
done
(( failures >= 5 && successes >= 1 )) || fail "the sweep did not cross from failing to succeeding campaigns ($failures, $successes)"
umount disk
echo "PASS ($failures failed campaigns, $kept of them with finished runs completed by a second campaign)"
