#!/usr/bin/env bash
# Loading libhaec_suite.so with no haec flag changes nothing, and observing a run (haec/out,
# no link model) does not change it either: identical simulated times, to the last digit.
source "$(dirname "$0")/common.sh"
cat > cluster.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-3" speed="1Gf" bw="125MBps" lat="50us" loopback_bw="1GBps" loopback_lat="1us"/>
</platform>
XML
printf 'h0\nh1\nh2\nh3\n' > hostfile
common=(-np 4 -platform cluster.xml -hostfile hostfile --cfg=smpi/simulate-computation:no --cfg=smpi/display-timing:yes
        "$build/bin/pingpong" 65536 2)
smpirun "${common[@]}" > plain.out 2> plain.err
LD_PRELOAD="$build/lib/libhaec_suite.so" smpirun "${common[@]}" > loaded.out 2> loaded.err
mkdir observed
LD_PRELOAD="$build/lib/libhaec_suite.so" smpirun --cfg=haec/out:observed --cfg=haec/messages:yes "${common[@]}" \
  > observed.out 2> observed.err
grep -h "Simulated time" plain.out plain.err > plain.time || true
grep -h "Simulated time" loaded.out loaded.err > loaded.time || true
grep -h "Simulated time" observed.out observed.err > observed.time || true
[ -s plain.time ] || { echo "no simulated time printed"; cat plain.out plain.err; exit 1; }
diff plain.out loaded.out || { echo "FAIL: preloading the suite changed the program's output"; exit 1; }
diff plain.time loaded.time || { echo "FAIL: preloading the suite changed the simulated time"; exit 1; }
diff plain.out observed.out || { echo "FAIL: observing (haec/out) changed the program's output"; exit 1; }
diff plain.time observed.time || { echo "FAIL: observing changed the simulated time"; exit 1; }
messages=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open("observed/summary.json"))["messages"])')
rows=$(($(wc -l < observed/messages.csv) - 1))
# pingpong 65536 2: sizes 0,1,2,4,...,65536 (18 sizes) x 2 reps x 3 partners x 2 directions.
[ "$messages" -eq 216 ] && [ "$rows" -eq 216 ] || { echo "FAIL: expected 216 transfers, got $messages / $rows rows"; exit 1; }
echo "identical: $(cat plain.time); observed $messages transfers"
