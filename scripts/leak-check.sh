#!/usr/bin/env bash
# Leak check with valgrind on a normal (uninstrumented) build: a small `haec run` replay and a
# small emulation, with valgrind --leak-check=full on both the haec tool and the simulator that
# smpirun starts with our suite preloaded (the exact command of the run's command.txt, with
# valgrind added to its -wrapper). Prints the "definitely lost" bytes in all, and in records whose
# stack passes through our code; fails if the latter is not 0.
# Usage: scripts/leak-check.sh [BUILD_DIR]   (default build/; `cmake --build` it first)
# The ASan build checks leaks too (LeakSanitizer, scripts/test-asan.sh); see docs/SANITIZERS.md.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$here/build}" && pwd)"
haec="$build/bin/haec"
for f in "$haec" "$build/bin/lu_like" "$build/bin/pingpong" "$build/lib/libhaec_suite.so"; do
  [ -e "$f" ] || { echo "leak-check: $f missing: cmake --build $build" >&2; exit 2; }
done
command -v valgrind > /dev/null || { echo "leak-check: valgrind not installed (apt-get install valgrind)" >&2; exit 2; }
work="$(mktemp -d)"
trap '[ -n "${LEAK_CHECK_KEEP:-}" ] && echo "kept $work" || rm -rf "$work"' EXIT
cd "$work"

vg=(valgrind --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite
    --num-callers=40 --child-silent-after-fork=yes --fullpath-after=)
# Our code: a frame in one of our source files (full paths: --fullpath-after=), or in the build's
# libraries and programs when a frame has no line information.
ours="$build/|$here/(plugins|core|pmpi|libs|tools|apps)/|libhaec_"

# "definitely lost" bytes in a valgrind log: all of them, and those of records with a frame of ours.
definitely_lost() { # $1 = log
  awk -v ours="$ours" '
    /are definitely lost in loss record/ { inrec = 1; n = $2; gsub(",", "", n); all += n; mine = 0; next }
    inrec && $0 ~ ours { mine = 1 }
    inrec && /^==[0-9]+== *$/ { if (mine) our += n; inrec = 0 }
    END { if (inrec && mine) our += n; printf "%d %d\n", all, our }' "$1"
}

cat > cluster.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-3" speed="1Gf" bw="1.25GBps" lat="1.5us"/>
</platform>
XML
printf 'h0\nh1\nh2\nh3\n' > hostfile
mkdir trace
smpirun -np 4 -platform cluster.xml -hostfile hostfile -trace-ti --cfg=tracing/filename:trace/lu.txt \
  --cfg=smpi/host-speed:1Gf "$build/bin/lu_like" 2 > record.out 2>&1 \
  || { cat record.out; echo "leak-check: recording the trace failed" >&2; exit 1; }

total_ours=0
check() { # $1 = name, rest = haec run arguments
  local name="$1"; shift
  # 1. The haec tool itself (the SimGrid engine it forks to check settings _exits: not followed).
  "${vg[@]}" --log-file="$name.haec.vg" "$haec" run --out "$name" --quiet "$@"
  # 2. The simulator: the run's own command, valgrind inside smpirun's -wrapper.
  local cmd
  cmd=$(sed -e "s|-wrapper '\(env [^']*LD_PRELOAD=[^']*\)'|-wrapper '\1 ${vg[*]} --log-file=$work/$name.sim.vg'|" \
            -e "s|haec/out:[^ ]*|haec/out:$work/$name-vg|" "$name/command.txt")
  mkdir "$name-vg"
  eval "$cmd" > "$name.sim.out" 2>&1 || { cat "$name.sim.out"; echo "leak-check: $name under valgrind failed" >&2; exit 1; }
  [ -s "$name-vg/summary.json" ] || { echo "leak-check: $name under valgrind wrote no results" >&2; exit 1; }
  for part in haec sim; do
    grep -q "HEAP SUMMARY" "$name.$part.vg" || { echo "leak-check: no valgrind summary in $name.$part.vg" >&2; exit 1; }
    read -r all mine < <(definitely_lost "$name.$part.vg")
    printf '%-9s %-4s definitely lost: %d bytes, %d of them through our code; memcheck errors: %s; in use at exit: %s\n' \
      "$name" "$part" "$all" "$mine" "$(grep -m1 -oP 'ERROR SUMMARY: \K[0-9,]+' "$name.$part.vg")" \
      "$(grep -m1 -oP 'in use at exit: \K.*' "$name.$part.vg")"
    total_ours=$((total_ours + mine))
    if [ "$mine" -ne 0 ]; then
      awk -v ours="$ours" '/are definitely lost/ { p = 1 } p { print } /^==[0-9]+== *$/ { p = 0 }' "$name.$part.vg"
    fi
  done
}
# glibc's malloc in the replay: memcheck replaces it (a preloaded jemalloc would hide the allocations)
check replay --platform haec-box:2x2x1 --map block-xyz --link pnc --messages --replay trace/lu.txt --allocator system
check emulation --platform torus:2x2x1 --link dor --messages -np 4 -- "$build/bin/pingpong" 4096 2
[ "$total_ours" -eq 0 ] || { echo "leak-check: FAILED: $total_ours bytes definitely lost through our code"; exit 1; }
echo "leak-check: passed (0 bytes definitely lost through our code)"
