#!/usr/bin/env bash
# What haec-simgrid-probe reports about an XML platform is remembered per file identity
# (tools/haec/disk_cache.hpp): a second run on the same platform reuses it; a changed platform is
# probed again (a removed power profile is then refused, a broken file reported by SimGrid); a
# damaged entry is a miss, not a wrong platform; HAEC_CACHE=off keeps nothing.
source "$(dirname "$0")/common.sh"
export XDG_CACHE_HOME="$work/cache"
cp -r "$source_dir/examples/campaigns/lu_like16" .
fail() { echo "FAIL: $*"; exit 1; }
entries() { ls "$XDG_CACHE_HOME/haec/platform-probes" 2> /dev/null | wc -l; }
platform() { # $1: the hosts' extra property line
  cat > cluster.xml << XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-15" speed="2Gf,1Gf" core="4" bw="1.25GBps" lat="1.5us">
    $1
  </cluster>
</platform>
XML
}
run() { (cd lu_like16 && "$haec" run --quiet --platform ../cluster.xml --power --replay trace.txt --out "$work/$1" "${@:2}"); }

platform '<prop id="wattage_per_state" value="90:100:150,80:90:110"/>'
run r1 || fail "first run"
[ "$(entries)" -eq 1 ] || fail "no cache entry after a probed platform"
grep -q "^haec XML platform probe" "$XDG_CACHE_HOME"/haec/platform-probes/* || fail "cache entry content"
run r2 || fail "second run"
[ "$(entries)" -eq 1 ] || fail "the second run on the same platform added an entry"
cmp r1/summary.json r2/summary.json || fail "runs differ"

# The same file without power profiles: probed again, and --power refused naming a host.
platform '<prop id="haec:unused" value="1"/>'
status=0
run r3 2> r3.err || status=$?
[ "$status" -eq 2 ] || fail "platform without power after a cached probe: exit $status, want 2"
grep -q "has no power profile" r3.err || fail "no power: $(cat r3.err)"
[ ! -e r3 ] || fail "a result directory was written for a refused platform"

# A broken file: SimGrid's word, nothing remembered.
before=$(entries)
echo "<broken" > cluster.xml
status=0
run r4 2> r4.err || status=$?
[ "$status" -eq 2 ] || fail "broken XML: exit $status, want 2"
grep -q "SimGrid cannot load it" r4.err || fail "broken XML: $(cat r4.err)"
[ "$(entries)" -eq "$before" ] || fail "a platform SimGrid refused was remembered"

# A damaged entry (its end lost) is a miss: the platform is probed again and the run is right.
platform '<prop id="wattage_per_state" value="90:100:150,80:90:110"/>'
run r5 || fail "run on the restored platform"
entry=$(ls -t "$XDG_CACHE_HOME"/haec/platform-probes/* | head -1)
head -c 200 "$entry" > damaged && mv damaged "$entry"
run r6 || fail "run after a damaged cache entry"
cmp r5/summary.json r6/summary.json || fail "a damaged entry changed the result"

touch -d '2001-01-01' cluster.xml # a new identity: a cache that wrote would add an entry
before=$(entries)
HAEC_CACHE=off run r7 || fail "run with the cache off"
[ "$(entries)" -eq "$before" ] || fail "HAEC_CACHE=off wrote an entry"
echo "platform probe cache: remembered, invalidated by a change, robust to damage, off on request"
