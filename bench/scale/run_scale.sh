#!/usr/bin/env bash
# Scale benchmark (not a CI test): replays a generated lu_like TI trace with one rank per node of a
# torus (default 16x16x16 = 4096 ranks) through `haec run --link dor`, and the same trace with
# SimGrid alone on the equivalent XML torus cluster, in the same run. Reports wall time, network
# transfers per second of wall time, peak RSS of the simulator, and a valgrind leak check on a
# smaller torus. Targets (issue "quality gates"): peak RSS <= 8 GiB, >= 150,000 transfers/s.
#
#   bench/scale/run_scale.sh BUILD_DIR [DIMS=16x16x16] [ITERATIONS=20]
#
# Environment:
#   BASELINE=0           skip the SimGrid-alone run
#   LEAK=0               skip the leak check; LEAK_DIMS (8x8x4), LEAK_ITERATIONS (2) size it
#   SCALE_CFG="k:v ..."  extra SimGrid settings for every run (e.g. smpi/privatization:no), given to
#                        smpirun directly (through the shim for haec run: `haec run --cfg` rejects
#                        keys that only smpirun knows, such as smpi/privatization)
# The trace is generated once per (ranks, iterations) into BUILD_DIR/bench-scale/traces/ (kept);
# run directories and the report (report-DIMS-ITERATIONS.txt) go to BUILD_DIR/bench-scale/.
# Peak RSS and wall time of the simulator come from /usr/bin/time -v around smpirun (a shim
# first in PATH when haec runs it); ru_maxrss is that of the largest process of the tree.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "${1:?usage: run_scale.sh BUILD_DIR [DIMS] [ITERATIONS]}" && pwd)"
dims="${2:-16x16x16}"
iterations="${3:-20}"
leak_dims="${LEAK_DIMS:-8x8x4}"
leak_iterations="${LEAK_ITERATIONS:-2}"
py=/usr/bin/python3
haec="$build/bin/haec"
[ -x "$haec" ] || { echo "run_scale: $haec missing: cmake --build $build" >&2; exit 2; }
real_smpirun="$(command -v smpirun)" || { echo "run_scale: smpirun not in PATH" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "run_scale: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }

work="$build/bench-scale"
mkdir -p "$work/shim"
read -r -a extra_cfg <<< "${SCALE_CFG:-}"
sg_cfg=()
for kv in "${extra_cfg[@]}"; do sg_cfg+=("--cfg=$kv"); done

ranks_of() { local IFS=x; set -- $1; echo $(($1 * $2 * $3)); }
# time -v fields: wall seconds and max RSS (KiB) of the command timed into $1
wall_of() { awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$1"; }
rss_of() { awk -F': ' '/Maximum resident set size/ { print $2 }' "$1"; }
json() { "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {"d": d}))' "$@"; }

# Trace: generated once per size, regenerated when the generator changes.
trace_for() { # $1 = ranks, $2 = iterations -> prints the list file
  local dir="$work/traces/lu-$1r-$2i-nz8"
  if [ ! -f "$dir/lu.txt" ] || [ "$here/gen_lu_trace.py" -nt "$dir/lu.txt" ]; then
    rm -rf "$dir"; mkdir -p "$work/traces"
    "$py" "$here/gen_lu_trace.py" --ranks "$1" --iterations "$2" --out "$dir" > "$dir.gen.log"
  fi
  echo "$dir/lu.txt"
}

# smpirun shim: haec runs `smpirun` from PATH; time it (append: one record per call) and add
# the SCALE_CFG settings.
cat > "$work/shim/smpirun" <<SH
#!/bin/sh
exec /usr/bin/time -v -a -o "\$SCALE_TIME_OUT" "$real_smpirun" ${sg_cfg[*]} "\$@"
SH
chmod +x "$work/shim/smpirun"

# One haec run under the shim: $1 = dims, $2 = trace, $3 = out dir, $4 = time file of smpirun,
# $5 = time file of haec, then more haec run options.
haec_run() {
  rm -f "$4" "$5"
  SCALE_TIME_OUT="$4" PATH="$work/shim:$PATH" /usr/bin/time -v -o "$5" \
    "$haec" run --platform "torus:$1" --link dor --replay "$2" -np "$(ranks_of "$1")" --out "$3" --force "${@:6}" \
    > "$3.stdout" 2>&1 || { cat "$3.stdout" >&2; echo "run_scale: haec run failed" >&2; exit 1; }
}

ranks=$(ranks_of "$dims")
t0=$(date +%s.%N)
trace=$(trace_for "$ranks" "$iterations")
t1=$(date +%s.%N)
gen_note="$(cat "$work/traces/lu-${ranks}r-${iterations}i-nz8.gen.log")"

# 1. haec run with the DOR link model.
run="$work/run-$dims-$iterations"
haec_run "$dims" "$trace" "$run" "$work/time-smpirun-$dims.txt" "$work/time-haec-$dims.txt"
smpi_wall=$(wall_of "$work/time-smpirun-$dims.txt"); smpi_rss=$(rss_of "$work/time-smpirun-$dims.txt")
haec_wall=$(wall_of "$work/time-haec-$dims.txt"); haec_rss=$(rss_of "$work/time-haec-$dims.txt")
transfers=$(json "$run/summary.json" 'd["messages"]')
makespan=$(json "$run/summary.json" 'd["makespan_s"]')

# 2. SimGrid alone: the same trace, hosts and rank placement on <cluster topology="TORUS">, with the
#    settings haec run gives SimGrid when a link model is active (smpi/host-speed, no crosstraffic,
#    surf/precision 1e-13), without the suite. Host i of the cluster has coordinates
#    (i mod X, i / X mod Y, i / XY), as node-x-y-z of ours.
if [ "${BASELINE:-1}" = 1 ]; then
  IFS=x read -r X Y Z <<< "$dims"
  spec_json="$run/platform.json"
  bw=$(json "$spec_json" 'd["links"]["link"]["bandwidth_Bps"]'); lat=$(json "$spec_json" 'd["links"]["link"]["latency_s"]')
  speed=$(json "$spec_json" 'd["node"]["speeds_flops"][0]'); cores=$(json "$spec_json" 'd["node"]["cores"]')
  lbw=$(json "$spec_json" 'd["loopback"]["bandwidth_Bps"]'); llat=$(json "$spec_json" 'd["loopback"]["latency_s"]')
  base="$work/baseline-$dims-$iterations"
  mkdir -p "$base"
  cat > "$base/torus.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="torus" prefix="node-" suffix="" radical="0-$((ranks - 1))" speed="${speed}f" core="$cores"
           bw="${bw}Bps" lat="${lat}s" loopback_bw="${lbw}Bps" loopback_lat="${llat}s"
           topology="TORUS" topo_parameters="$X,$Y,$Z"/>
</platform>
XML
  awk -F'[-:]' -v X="$X" -v Y="$Y" '{ line = "node-" ($2 + X * $3 + X * Y * $4); if (NF > 4) line = line ":" $5; print line }' \
    "$run/hostfile" > "$base/hostfile"
  /usr/bin/time -v -o "$base/time.txt" "$real_smpirun" -np "$ranks" -platform "$base/torus.xml" -hostfile "$base/hostfile" \
    --cfg=smpi/host-speed:1Gf --cfg=network/crosstraffic:0 --cfg=surf/precision:1e-13 "${sg_cfg[@]}" \
    -replay "$trace" > "$base/stdout.txt" 2> "$base/simgrid.log" \
    || { tail -5 "$base/simgrid.log" >&2; echo "run_scale: SimGrid baseline failed" >&2; exit 1; }
  base_wall=$(wall_of "$base/time.txt"); base_rss=$(rss_of "$base/time.txt")
  base_makespan=$(sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p' "$base/simgrid.log" | tail -1)
fi

# 3. Leak check: valgrind on the simulator of a smaller haec run (its command.txt, valgrind added to
#    the -wrapper), "definitely lost" bytes in all and in records with a frame of ours.
if [ "${LEAK:-1}" = 1 ]; then
  command -v valgrind > /dev/null || { echo "run_scale: valgrind not installed (LEAK=0 skips the check)" >&2; exit 2; }
  leak_ranks=$(ranks_of "$leak_dims")
  leak_trace=$(trace_for "$leak_ranks" "$leak_iterations")
  leak_run="$work/leak-$leak_dims-$leak_iterations"
  # glibc's malloc: memcheck replaces it (a preloaded jemalloc would hide the allocations)
  haec_run "$leak_dims" "$leak_trace" "$leak_run" "$work/time-smpirun-leak.txt" "$work/time-haec-leak.txt" \
    --allocator system
  cmd=$(cat "$leak_run/command.txt")
  leak_out="$work/leak-out"; rm -rf "$leak_out"; mkdir -p "$leak_out"
  vg="valgrind --leak-check=full --show-leak-kinds=definite --num-callers=40 --fullpath-after= --log-file=$work/leak-valgrind.log"
  cmd="${cmd//--cfg=haec\/out:$leak_run/--cfg=haec/out:$leak_out}"
  cmd="smpirun ${sg_cfg[*]} ${cmd#smpirun }"
  cmd="$(echo "$cmd" | sed "s#-wrapper 'env LD_PRELOAD=\([^ ']*\)'#-wrapper 'env LD_PRELOAD=\1 $vg'#")"
  t_leak0=$(date +%s.%N)
  eval "$cmd" > "$work/leak-smpirun.log" 2>&1 || { tail -5 "$work/leak-smpirun.log" >&2; echo "run_scale: leak run failed" >&2; exit 1; }
  t_leak1=$(date +%s.%N)
  ours="$build/|/(plugins|core|pmpi|libs|tools|apps)/|libhaec_"
  read -r lost_all lost_ours <<< "$(awk -v ours="$ours" '
    /are definitely lost in loss record/ { inrec = 1; n = $2; gsub(",", "", n); all += n; mine = 0; next }
    inrec && $0 ~ ours { mine = 1 }
    inrec && /^==[0-9]+== *$/ { if (mine) our += n; inrec = 0 }
    END { if (inrec && mine) our += n; printf "%d %d\n", all, our }' "$work/leak-valgrind.log")"
  errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9,]*\) errors.*/\1/p' "$work/leak-valgrind.log" | tail -1)
  leak_transfers=$(json "$leak_out/summary.json" 'd["messages"]')
fi

report="$work/report-$dims-$iterations.txt"
{
  printf 'scale benchmark: lu_like TI replay, %d ranks, torus:%s, one rank per node (xyz), %d iterations, nz=8\n' \
    "$ranks" "$dims" "$iterations"
  printf 'trace  %s\n       (%s s including the cache check)\n' "$gen_note" "$(echo "$t1 - $t0" | bc -l | xargs printf '%.2f')"
  printf 'extra settings: %s\n\n' "${SCALE_CFG:-none}"
  printf '%-34s %9s %11s %11s %12s %14s\n' run wall_s transfers transfers/s peak_RSS_MiB makespan_s
  printf '%-34s %9.2f %11d %11.0f %12.1f %14.9f\n' "haec run --link dor: smpirun" "$smpi_wall" "$transfers" \
    "$(echo "$transfers / $smpi_wall" | bc -l)" "$(echo "$smpi_rss / 1024" | bc -l)" "$makespan"
  printf '%-34s %9.2f %11s %11s %12.1f\n' "haec run --link dor: whole command" "$haec_wall" "" "" "$(echo "$haec_rss / 1024" | bc -l)"
  if [ "${BASELINE:-1}" = 1 ]; then
    printf '%-34s %9.2f %11d %11.0f %12.1f %14.9f\n' "SimGrid alone (XML torus)" "$base_wall" "$transfers" \
      "$(echo "$transfers / $base_wall" | bc -l)" "$(echo "$base_rss / 1024" | bc -l)" "$base_makespan"
    printf '\nratio haec smpirun / SimGrid alone: wall %.3f, peak RSS %.3f\n' \
      "$(echo "$smpi_wall / $base_wall" | bc -l)" "$(echo "$smpi_rss / $base_rss" | bc -l)"
    echo "(SimGrid alone: same trace, hostfile and settings; its transfer count is taken equal to haec's)"
  fi
  rate_ok=$(echo "$transfers / $smpi_wall >= 150000" | bc -l)
  rss_ok=$(echo "$smpi_rss <= 8 * 1024 * 1024" | bc -l)
  printf '\ntargets: peak RSS <= 8 GiB: %s; >= 150000 transfers/s: %s\n' \
    "$([ "$rss_ok" = 1 ] && echo PASS || echo FAIL)" "$([ "$rate_ok" = 1 ] && echo PASS || echo FAIL)"
  if [ "${LEAK:-1}" = 1 ]; then
    printf 'leak check (valgrind --leak-check=full, torus:%s, %d ranks, %d iterations, %d transfers, %.0f s):\n' \
      "$leak_dims" "$(ranks_of "$leak_dims")" "$leak_iterations" "$leak_transfers" "$(echo "$t_leak1 - $t_leak0" | bc -l)"
    printf '  definitely lost %d bytes, of which in records through our code %d; valgrind errors %s (%s)\n' \
      "$lost_all" "$lost_ours" "$errors" "$work/leak-valgrind.log"
  fi
  printf '\ncommands (SCALE_CFG settings are added to smpirun by the shim):\n  %s\n' "$(cat "$run/command.txt")"
  [ "${BASELINE:-1}" = 1 ] && printf '  smpirun -np %d -platform %s -hostfile %s --cfg=smpi/host-speed:1Gf --cfg=network/crosstraffic:0 --cfg=surf/precision:1e-13 %s -replay %s\n' \
    "$ranks" "$base/torus.xml" "$base/hostfile" "${sg_cfg[*]}" "$trace"
  true
} | tee "$report"
echo "report: $report"
