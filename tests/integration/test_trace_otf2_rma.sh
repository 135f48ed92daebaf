#!/usr/bin/env bash
# One-sided communication through OTF2: a recorded trace with windows (dynamic, shared, on a split
# communicator), fences, locks, lock_all, flushes and request-based transfers is replayed with
# --events and exported; the archive holds OTF2 RMA records (otf2-print reads them without
# warning: window definitions, create/destroy, put, get, atomic, fences as RMA collectives, locks,
# syncs, completions), one per transfer of the trace; its import gives back the recorded rank
# files byte for byte and replays to the same makespan. An archive of another tool with RMA
# records is refused with one line.
source "$(dirname "$0")/common.sh"
command -v otf2-print > /dev/null || skip "otf2-print is not installed (Debian: otf2-tools)"
makespan() { $py -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["makespan_s"]))' "$1/summary.json"; }

"$haec" trace record --platform cluster:4 -np 4 --out rma.trace -- "$build/bin/trace_rma_windows" > /dev/null
"$haec" run --platform cluster:4 -np 4 --replay rma.trace --events --out rep --quiet
"$haec" trace export rep --out otf > /dev/null
otf2-print otf/traces.otf2 > print.txt 2> warnings.txt
[ ! -s warnings.txt ] || { cat warnings.txt; fail "otf2-print warns"; }
count() { grep -c "^$1 " print.txt || true; }
in_trace() { cat rma.trace_files/rank-*.txt | grep -cE " $1 " || true; }
[ "$(count RMA_PUT)" -eq "$(($(in_trace haec_put) + $(in_trace haec_rput)))" ] || fail "RMA_PUT: $(count RMA_PUT)"
[ "$(count RMA_GET)" -eq "$(($(in_trace haec_get) + $(in_trace haec_rget)))" ] || fail "RMA_GET: $(count RMA_GET)"
[ "$(count RMA_ATOMIC)" -eq "$(($(in_trace haec_accumulate) + $(in_trace haec_raccumulate) + $(in_trace haec_rget_accumulate)))" ] ||
  fail "RMA_ATOMIC: $(count RMA_ATOMIC)"
[ "$(count RMA_WIN_CREATE)" -eq "$(in_trace 'haec_win_(create|allocate|allocate_shared|create_dynamic)')" ] ||
  fail "RMA_WIN_CREATE: $(count RMA_WIN_CREATE)"
[ "$(count RMA_WIN_DESTROY)" -eq "$(in_trace haec_win_free)" ] || fail "RMA_WIN_DESTROY: $(count RMA_WIN_DESTROY)"
[ "$(count RMA_COLLECTIVE_END)" -eq "$(in_trace haec_win_fence)" ] || fail "fences: $(count RMA_COLLECTIVE_END)"
[ "$(count RMA_RELEASE_LOCK)" -gt 0 ] && [ "$(count RMA_OP_COMPLETE_NON_BLOCKING)" -gt 0 ] && [ "$(count RMA_SYNC)" -gt 0 ] ||
  fail "locks, request completions or flushes missing"
otf2-print -G otf/traces.otf2 > defs.txt 2>&1
grep -q "^RMA_WIN " defs.txt || fail "no RMA window definitions"
! grep -q "warning" defs.txt || { grep warning defs.txt; fail "otf2-print warns about the definitions"; }

"$haec" trace import otf/traces.otf2 --out imported.trace > /dev/null
for r in 0 1 2 3; do
  cmp -s "rma.trace_files/rank-$r.txt" "imported.trace_files/rank-$r.txt" || fail "rank $r differs after the round trip"
done
"$haec" run --platform cluster:4 -np 4 --replay imported.trace --out rep2 --quiet
[ "$(makespan rep)" = "$(makespan rep2)" ] || fail "the imported trace replays to $(makespan rep2) s, not $(makespan rep) s"

# Another tool's archive with RMA records: our export without its TI lines and creator (renamed in
# place, so the import reads the records themselves).
cp -r otf other
$py - other <<'PY'
import sys
for name, old, new in (("traces.def", b"haec::ti", b"haec::xx"), ("traces.otf2", b"haec trace export", b"other tool export")):
    path = sys.argv[1] + "/" + name
    data = open(path, "rb").read()
    assert old in data, name
    open(path, "wb").write(data.replace(old, new))
PY
set +e; "$haec" trace import other/traces.otf2 --out other.trace > /dev/null 2> err; rc=$?; set -e
[ $rc -eq 2 ] && [ "$(grep -c . err)" -eq 1 ] && grep -q "one-sided communication (OTF2 RMA records) cannot be imported" err ||
  { cat err; fail "another tool's RMA records: exit $rc"; }
[ ! -e other.trace ] || fail "a refused import wrote its trace"
echo "PASS: $(count RMA_PUT) puts, $(count RMA_GET) gets, $(count RMA_ATOMIC) atomics; replay $(makespan rep) s after the round trip"
