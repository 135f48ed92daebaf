#!/usr/bin/env bash
# A campaign run is keyed by what defines its result, not by the paths naming it: two campaign
# files A/c.json and B/c.json naming the same relative trace path (different traces) run into one
# --out report each its own makespan; a trace or platform file changed in place is run again; the
# same inputs elsewhere (the whole tree moved) are recognised as finished.
source "$(dirname "$0")/common.sh"

trace_set() { # DIR FLOPS: a 2-rank trace t/trace.txt under DIR (relative rank files)
  mkdir -p "$1/t"
  printf '0 init\n0 compute %s\n0 send 1 0 4096\n0 recv 1 1 4096\n0 finalize\n' "$2" > "$1/t/r0.txt"
  printf '1 init\n1 recv 0 0 4096\n1 compute %s\n1 send 0 1 4096\n1 finalize\n' "$2" > "$1/t/r1.txt"
  printf 'r0.txt\nr1.txt\n' > "$1/t/trace.txt"
  printf '{"trace": "t/trace.txt", "axes": {"platform": ["cluster:2"]}}\n' > "$1/c.json"
}
makespan() { # CAMPAIGN_DIR: the makespan of its one run
  "$py" -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); assert len(r)==1, r; print(r[0]["makespan_s"])' "$1/results.csv"
}
direct() { # DIR: the makespan of a plain haec run of DIR's trace
  (cd "$1/t" && "$haec" run --quiet --platform cluster:2 --replay trace.txt --out "$work/direct-$2" > /dev/null)
  "$py" -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["makespan_s"]))' "$work/direct-$2/summary.json"
}

trace_set A 4.35e5
trace_set B 4.35e9
"$haec" campaign run A/c.json --out out 2> a.err || { cat a.err; fail "campaign A"; }
a=$(makespan out)
"$haec" campaign run B/c.json --out out 2> b.err || { cat b.err; fail "campaign B"; }
grep -q "1 runs, 0 already finished" b.err || fail "B was taken for A's finished run: $(head -1 b.err)"
b=$(makespan out)
[ "$a" = "$(direct A a)" ] || fail "A: campaign $a, haec run $(direct A a2)"
[ "$b" = "$(direct B b)" ] || fail "B reports $b, its own trace gives $(direct B b2) (A gave $a)"
echo "A $a s, B $b s: each campaign reports its own trace"

# A rank file changed in place: the run is not finished any more.
printf '0 init\n0 compute 1e7\n0 send 1 0 4096\n0 recv 1 1 4096\n0 finalize\n' > A/t/r0.txt
"$haec" campaign run A/c.json --out out 2> a2.err || fail "campaign A again"
grep -q "1 runs, 0 already finished" a2.err || fail "a changed rank file was not run again: $(head -1 a2.err)"
[ "$(makespan out)" = "$(direct A a3)" ] || fail "A after the change: $(makespan out) vs $(direct A a4)"
"$haec" campaign run A/c.json --out out 2> a3.err || fail "campaign A a third time"
grep -q "1 runs, 1 already finished" a3.err || fail "unchanged inputs were run again: $(head -1 a3.err)"

# A platform file changed in place (same name, another bandwidth).
"$haec" platform 'cluster:2,link-bw=1Gbps' --out A/p.json > /dev/null
printf '{"trace": "t/trace.txt", "axes": {"platform": ["p.json"]}}\n' > A/p_c.json
"$haec" campaign run A/p_c.json --out pout 2> p1.err || { cat p1.err; fail "platform campaign"; }
p1=$(makespan pout)
"$haec" platform 'cluster:2,link-bw=1Mbps' --out A/p.json > /dev/null
"$haec" campaign run A/p_c.json --out pout 2> p2.err || fail "platform campaign again"
grep -q "1 runs, 0 already finished" p2.err || fail "a changed platform file was not run again: $(head -1 p2.err)"
[ "$p1" != "$(makespan pout)" ] || fail "the slower platform gave the same makespan $p1"

# The same inputs elsewhere: the whole tree moved, the run is found finished.
mkdir moved && cp -r B out moved/
(cd moved && "$haec" campaign run B/c.json --out out 2> moved.err) || fail "moved campaign"
grep -q "1 runs, 1 already finished" moved/moved.err || fail "a moved campaign ran again: $(head -1 moved/moved.err)"
echo "campaign inputs ok: keyed by content (trace, rank files, platform file), not by path"
