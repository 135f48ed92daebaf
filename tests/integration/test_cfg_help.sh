#!/usr/bin/env bash
# Every --cfg=haec/... flag of the suite is listed, with a description, by SimGrid's help
# (3.32 spells it --cfg-help), and the haec CLI knows exactly the same set of keys (it rejects
# misspelled ones before a run). Also: every haec subcommand has a --help that names its options.
source "$(dirname "$0")/common.sh"
printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1"><cluster id="c" prefix="h" suffix="" radical="0-0" speed="1Gf" bw="1GBps" lat="1us"/></platform>\n' > p.xml
echo h0 > hostfile
LD_PRELOAD="$build/lib/libhaec_suite.so" smpirun -np 1 -platform p.xml -hostfile hostfile "$build/bin/pingpong" --cfg-help > help.txt 2>&1 || true
grep -oE '^ +haec/[a-z/-]+: .+' help.txt | sed -E 's/^ +//' > described.txt
cut -d: -f1 described.txt | sort > simgrid_keys.txt
# The CLI's keys come from the settings table it validates with (`haec settings`).
"$build/bin/haec" settings --keys | sort > cli_keys.txt
[ -s simgrid_keys.txt ] || { echo "FAIL: no haec flag in --cfg-help"; head help.txt; exit 1; }
diff simgrid_keys.txt cli_keys.txt || { echo "FAIL: the CLI's key list differs from the suite's flags"; exit 1; }
awk -F': ' 'length($2) < 10 { print "FAIL: flag without a real description: " $0; bad = 1 } END { exit bad }' described.txt
for sub in "" run platform map cc settings; do
  "$build/bin/haec" $sub --help > h.txt
  grep -q -- "--help" h.txt || { echo "FAIL: haec $sub --help"; exit 1; }
done
grep -q -- "--link" <("$build/bin/haec" run --help) && grep -q -- "--replay" <("$build/bin/haec" run --help)
echo "$(wc -l < simgrid_keys.txt) haec flags described; CLI agrees"
