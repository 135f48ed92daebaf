#!/usr/bin/env bash
# haec run's pre-run trace check is remembered per file identity (tools/haec/trace_check_cache.hpp):
# a second replay of the same trace does not check it again, and any change to a rank file (here a
# corrupt line appended) is checked again and refused; HAEC_TRACE_CHECK_CACHE=off keeps nothing.
source "$(dirname "$0")/common.sh"
export XDG_CACHE_HOME="$work/cache"
cp -r "$source_dir/examples/campaigns/lu_like16" .
fail() { echo "FAIL: $*"; exit 1; }
entries() { ls "$XDG_CACHE_HOME/haec/trace-checks" 2> /dev/null | wc -l; }
replay() { (cd lu_like16 && "$haec" run --quiet --platform cluster:4 --replay trace.txt --out "$work/$1" "${@:2}"); }

replay r1 || fail "first replay"
[ "$(entries)" -eq 1 ] || fail "no cache entry after a checked replay"
grep -q "^haec trace check, 16 ranks" "$XDG_CACHE_HOME"/haec/trace-checks/* || fail "cache entry content"
replay r2 || fail "second replay"
[ "$(entries)" -eq 1 ] || fail "the second replay of the same trace added an entry"
cmp <(grep -v '"trace"' r1/summary.json) <(grep -v '"trace"' r2/summary.json) || fail "replays differ"

# A corrupt line in one rank file: checked again, refused, nothing written.
rank_file="lu_like16/$(sed -n 2p lu_like16/trace.txt)"
cp "$rank_file" saved
echo "1 compute -5" >> "$rank_file"
status=0
replay r3 2> r3.err || status=$?
[ "$status" -eq 2 ] || fail "corrupt trace after a cached check: exit $status, want 2"
grep -q "negative" r3.err || fail "corrupt trace: $(cat r3.err)"
[ ! -e r3 ] || fail "a result directory was written for a corrupt trace"
[ "$(entries)" -eq 1 ] || fail "a refused trace was remembered"

cp saved "$rank_file" # the same content again, a new modification time: checked again, accepted
replay r4 || fail "replay of the restored trace"
[ "$(entries)" -eq 2 ] || fail "the restored trace was not remembered"
touch -d '2001-01-01' "$rank_file" # a new identity: a cache that wrote would add an entry
HAEC_TRACE_CHECK_CACHE=off replay r5 || fail "replay with the cache off"
[ "$(entries)" -eq 2 ] || fail "HAEC_TRACE_CHECK_CACHE=off wrote an entry"
echo "trace check cache: remembered, invalidated by a change, off on request"
