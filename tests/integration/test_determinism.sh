#!/usr/bin/env bash
# Determinism: the demonstration's six configurations (xyz / block-xyz / random with a fixed seed,
# x DOR / PNC), replayed twice from one recorded trace, give byte-identical result files. On a
# difference the test names the file and its first differing line.
source "$(dirname "$0")/common.sh"
"$haec" platform haec-box:3x3x3,preset=ciorba2014 --out box.json > /dev/null
# Record lu_like (81 ranks, 4 iterations) once, on the box itself.
"$haec" map --platform box.json --map block-xyz -np 81 --out map > /dev/null
mkdir trace
LD_PRELOAD="$build/lib/libhaec_suite.so" smpirun -np 81 -platform "$build/lib/libhaec_suite.so" -hostfile map/hostfile \
  --cfg=haec/platform:box.json --cfg=smpi/host-speed:1Gf -trace-ti --cfg=tracing/filename:trace/lu.txt \
  "$build/bin/lu_like" 4 > record.out 2> record.err || { cat record.err | tail -5; exit 1; }
files=(summary.json messages.csv msg_sizes.csv hops.csv traffic_matrix.csv hostfile mapping.txt)
for mapping in xyz block-xyz random; do
  for model in dor pnc; do
    for run in 1 2; do
      "$haec" run --platform box.json --map "$mapping" --seed 7 --link "$model" --messages --replay trace/lu.txt \
        --out "$mapping-$model-$run" --quiet
    done
    for f in "${files[@]}"; do
      if ! cmp -s "$mapping-$model-1/$f" "$mapping-$model-2/$f"; then
        line=$(cmp "$mapping-$model-1/$f" "$mapping-$model-2/$f" | grep -o "line [0-9]*")
        echo "FAIL: $mapping/$model: $f differs between two identical replays, first at $line:"
        diff "$mapping-$model-1/$f" "$mapping-$model-2/$f" | head -4
        exit 1
      fi
    done
    echo "identical: $mapping $model ($(grep -c . "$mapping-$model-1/messages.csv") lines of messages.csv)"
  done
done
