#!/usr/bin/env bash
# The demonstration script (README command 1) works end to end on a short run: record, six
# replays, table, and every message checked by the independent implementation.
source "$(dirname "$0")/common.sh"
/usr/bin/python3 "$source_dir/scripts/demo_ciorba2014.py" --build "$build" --out "$work/demo" --iterations 3 > "$work/log" 2>&1 \
  || { tail -20 "$work/log"; exit 1; }
grep -q "0 over tolerance 1e-12 s, 0 offenders" "$work/log"
[ "$(grep -c . "$work/demo/demo_table.csv")" -eq 7 ] || { echo "FAIL: table has not 6 rows"; exit 1; }
# block-xyz keeps a third of lu_like's messages on the node; xyz none (seed 004 Table 1's ordering).
grep -q "^xyz,dor,.*,0,6912$" "$work/demo/demo_table.csv" || { cat "$work/demo/demo_table.csv"; exit 1; }
grep -q "^block-xyz,dor,.*,2592,4320$" "$work/demo/demo_table.csv" || { cat "$work/demo/demo_table.csv"; exit 1; }
tail -9 "$work/log"
