#!/usr/bin/env bash
# haec run with the patched SimGrid of scripts/build-simgrid.sh (--simgrid patched) gives the same
# result files as with Debian's library (--simgrid debian), in replay (DOR link model, power) and
# in emulation (lu_like with smpi/simulate-computation:no, so that the run is deterministic), and the
# simulator really loads the patched library. Skipped (exit 77) when no checked build exists.
source "$(dirname "$0")/common.sh"
prefix="$build/simgrid-prefix"
if [ ! -f "$prefix/CHECKED" ]; then
  echo "no checked patched SimGrid in $prefix (scripts/build-simgrid.sh): skipped"
  exit 77
fi
haec="$build/bin/haec"
/usr/bin/python3 "$source_dir/bench/scale/gen_lu_trace.py" --ranks 64 --iterations 2 --out lu > /dev/null

same() { # $1 $2: result directories; every result file equal, summary.json but for simgrid_library
  for f in "$1"/*.csv; do
    cmp -s "$f" "$2/$(basename "$f")" || { echo "FAIL: $(basename "$f") differs ($1 vs $2)"; exit 1; }
  done
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(f"{d}/summary.json")) for d in sys.argv[1:3])
assert a.pop("simgrid_library") == "debian" and b.pop("simgrid_library").startswith("patched"), (a, b)
assert a == b, [k for k in a if a[k] != b.get(k)]
print(f"  identical: makespan {a['makespan_s']!r} s, {a['messages']} transfers")
PY
}

for simgrid in debian patched; do
  "$haec" run --platform torus:4x4x4 --link dor --power --messages --replay lu/lu.txt --simgrid "$simgrid" \
    --out "replay-$simgrid" -q
  "$haec" run --platform torus:4x4x4 --link pnc --messages -np 16 --simgrid "$simgrid" --out "emul-$simgrid" -q \
    --cfg smpi/simulate-computation:no -- "$build/bin/lu_like" 3
done
echo "replay, DOR + power:"; same replay-debian replay-patched
echo "emulation, PNC:"; same emul-debian emul-patched
grep -q "LD_LIBRARY_PATH=$prefix/lib:" replay-patched/command.txt || { echo "FAIL: no LD_LIBRARY_PATH in command.txt"; exit 1; }
! grep -q "LD_LIBRARY_PATH" replay-debian/command.txt || { echo "FAIL: --simgrid debian sets LD_LIBRARY_PATH"; exit 1; }

# The simulator loads the patched library (the dynamic loader says which file it initialises).
cmd=$(sed "s#LD_PRELOAD=#LD_DEBUG=libs LD_PRELOAD=#; s#haec/out:[^ ']*#haec/out:$work/debug#" replay-patched/command.txt)
mkdir debug
eval "$cmd" > debug.log 2>&1
grep -q "calling init: $prefix/lib/libsimgrid.so.3.32" debug.log \
  || { echo "FAIL: the simulator did not load $prefix/lib/libsimgrid.so.3.32"; grep "calling init: .*libsimgrid" debug.log; exit 1; }
echo "the simulator loaded $prefix/lib/libsimgrid.so.3.32"
