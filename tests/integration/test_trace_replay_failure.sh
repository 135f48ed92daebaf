#!/usr/bin/env bash
# A replay that meets a bad action fails cleanly: one line naming the trace's file and line, exit
# 2, no result directory, no crash report (before, the action's exit inside a simulated rank was
# turned into SIGABRT by SimGrid, exit 3). The check every replay runs first stops bad traces;
# here it is bypassed as a user could: the trace is edited after its check was cached (same size,
# same modification time). The line is the one `haec trace check` gives for the edited trace.
source "$(dirname "$0")/common.sh"
export XDG_CACHE_HOME="$work/cache"
# two_ranks NAME: the list NAME.trace of NAME_0.txt (stdin's lines of rank 0) and NAME_1.txt (rank 1's)
two_ranks() {
  local name=$1
  awk -v n="$name" '{ print > (n "_" $1 ".txt") }'
  printf '%s_0.txt\n%s_1.txt\n' "$name" "$name" > "$name.trace"
}
two_ranks t <<'EOF'
0 init
0 haec_win_create 0 64 8 0
0 haec_win_fence 0 0
0 haec_put 0 1 1 0 0 1 0
0 haec_win_fence 0 0
0 haec_win_free 0
0 finalize
1 init
1 haec_win_create 0 64 8 0
1 haec_win_fence 0 0
1 haec_win_fence 0 0
1 haec_win_free 0
1 finalize
EOF
"$haec" run --platform cluster:2 -np 2 --replay t.trace --out ok --quiet || fail "the good trace does not replay"

# the put now names window 3, never created: same length, same time
cp -p t_0.txt before_0.txt
sed -i 's/^0 haec_put 0 1/0 haec_put 3 1/' t_0.txt
touch -r before_0.txt t_0.txt
set +e
"$haec" trace check t.trace -np 2 > /dev/null 2> check.err
check_rc=$?
"$haec" run --platform cluster:2 -np 2 --replay t.trace --out bad > out.txt 2> err.txt
rc=$?
set -e
[ $check_rc -eq 2 ] || fail "haec trace check: exit $check_rc"
grep -q "t_0.txt:4: haec_put on window 3, which rank 0 never created" check.err || { cat check.err; fail "check's line"; }
[ $rc -eq 2 ] || { cat err.txt; fail "the replay ended with exit $rc, not 2"; }
[ "$(grep -c . err.txt)" -eq 1 ] || { cat err.txt; fail "not one line"; }
grep -q "^haec: .*t_0.txt:4: haec_put on window 3, which rank 0 never created" err.txt || { cat err.txt; fail "not the check's line"; }
grep -qiE "abort|SIGABRT|crash|backtrace" err.txt && fail "a crash was reported"
[ ! -e bad ] || fail "a result directory was written"
[ -z "$(ls -d bad.tmp* 2> /dev/null)" ] || fail "a staging directory was left"

# An action the check accepts but SMPI refuses in replay (a put outside any epoch): its own line.
two_ranks epoch <<'EOF'
0 init
0 haec_win_create 0 64 8 0
0 haec_put 0 1 1 0 0 1 0
0 haec_win_free 0
0 finalize
1 init
1 haec_win_create 0 64 8 0
1 haec_win_free 0
1 finalize
EOF
"$haec" trace check epoch.trace -np 2 > /dev/null || fail "the check refuses a put outside any epoch"
set +e; "$haec" run --platform cluster:2 -np 2 --replay epoch.trace --out bad2 > out2.txt 2> err2.txt; rc=$?; set -e
[ $rc -eq 2 ] && [ "$(grep -c . err2.txt)" -eq 1 ] &&
  grep -q "^haec: .*epoch_0.txt:3: SMPI refused the call (MPI error [0-9]*) (in '0 haec_put 0 1 1 0 0 1 0')" err2.txt ||
  { cat err2.txt; fail "an action SMPI refuses: exit $rc"; }
[ ! -e bad2 ] || fail "a result directory was written"
echo PASS
