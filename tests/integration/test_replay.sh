#!/usr/bin/env bash
# `haec run --replay`: a SimGrid time-independent trace replays with the suite, gives the same
# simulated time as plain `smpirun -replay` when no model is active, and the same result files,
# byte for byte, when replayed twice with a link model.
source "$(dirname "$0")/common.sh"
record_lu16_trace

# No model: the suite only observes, and the replay's simulated time is SimGrid's own (with the
# precision haec run sets in every mode, surf/precision 1e-13).
smpirun -np 16 -platform cluster.xml -hostfile hostfile --cfg=smpi/display-timing:yes --cfg=surf/precision:1e-13 \
  -replay trace/lu.txt \
  > plain.out 2> plain.err
plain=$(grep -o "Simulated time: [0-9.e+-]*" plain.err)
"$haec" run --platform cluster.xml --hostfile hostfile --oversubscribe --replay trace/lu.txt --out none --quiet
suite=$(/usr/bin/python3 -c 'import json; print("Simulated time: %g" % json.load(open("none/summary.json"))["makespan_s"])')
[ "$plain" = "$suite" ] || { echo "FAIL: $plain (smpirun) vs $suite (haec run)"; exit 1; }
ranks=$(/usr/bin/python3 -c 'import json; print(json.load(open("none/summary.json"))["ranks"])')
[ "$ranks" -eq 16 ] || { echo "FAIL: ranks $ranks, expected 16 (from the trace's list file)"; exit 1; }
[ -s none/traffic_matrix.csv ] || { echo "FAIL: replay wrote no traffic matrix"; exit 1; }

# A link model, twice: identical files; every message checked against the independent model.
for run in a b; do
  "$haec" run --platform haec-box:2x2x2 --map block-xyz --link pnc --messages --replay trace/lu.txt --out "$run" --quiet
done
for f in summary.json messages.csv msg_sizes.csv hops.csv traffic_matrix.csv hostfile mapping.txt platform.json; do
  cmp "a/$f" "b/$f" || { echo "FAIL: $f differs between two replays"; diff "a/$f" "b/$f" | head -3; exit 1; }
done
/usr/bin/python3 "$source_dir/tests/verify/verify_messages.py" a
echo "replay ok: $plain; replays identical; messages verified"
