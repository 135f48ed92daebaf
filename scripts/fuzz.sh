#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset "fuzz", clang, build-fuzz/) and runs each one.
#   scripts/fuzz.sh [SECONDS_PER_TARGET=60] [TARGET...]
# TARGET names (default: all): fuzz_platform_spec fuzz_platform_json fuzz_mapping_file
# fuzz_traffic_matrix fuzz_ti_trace fuzz_units fuzz_smpi_factors fuzz_link_model fuzz_workloads
# fuzz_resilient_model fuzz_maplib_matrix fuzz_region_records fuzz_campaign_file fuzz_counters
# fuzz_ti_check.
# Each target runs alone (one job) from its seeds (tests/fuzz/corpus/<target>) and the corpus it
# grew in earlier runs (build-fuzz/corpus/<target>, the only directory it writes to).
# Crash reproducers land in build-fuzz/crashes/<target>-crash-* (also leak-, timeout-, oom-);
# the log of each run in build-fuzz/fuzz-logs/<target>.log.
# Prints per target: seconds, executions, crashes, corpus (libFuzzer's active corpus / files in
# build-fuzz/corpus/<target>), exit status. Exit 1 if any run
# failed. FUZZ_NO_BUILD=1 skips configure and build.
# Reproduce a crash: build-fuzz/bin/<target> build-fuzz/crashes/<file>.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
all=(fuzz_platform_spec fuzz_platform_json fuzz_mapping_file fuzz_traffic_matrix fuzz_ti_trace
     fuzz_units fuzz_smpi_factors fuzz_link_model fuzz_workloads fuzz_resilient_model
     fuzz_maplib_matrix fuzz_region_records fuzz_campaign_file fuzz_counters fuzz_ti_check)

seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "fuzz.sh: SECONDS_PER_TARGET '$seconds' is not a positive integer; usage: scripts/fuzz.sh [SECONDS] [TARGET...]" >&2
  exit 2
fi
shift $(( $# > 0 ? 1 : 0 ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
# A pattern match, not `printf | grep -q`: under pipefail, grep -q leaving at the first match can
# kill printf with SIGPIPE and fail the test for a known target (it did, in CI).
for t in "${targets[@]}"; do
  if [[ " ${all[*]} " != *" $t "* ]]; then
    echo "fuzz.sh: unknown target '$t'; targets: ${all[*]}" >&2
    exit 2
  fi
done

cd "$root"
mkdir -p "$build"
if [ -n "${FUZZ_NO_BUILD:-}" ]; then
  : # FUZZ_NO_BUILD=1: use the targets already built (e.g. two fuzz.sh running side by side)
elif ! cmake --preset fuzz >"$build/configure.log" 2>&1; then
  tail -n 30 "$build/configure.log" >&2
  echo "fuzz.sh: configuring the fuzz preset failed (needs clang and libclang-rt-14-dev: scripts/install-deps.sh)" >&2
  exit 2
fi
if [ -z "${FUZZ_NO_BUILD:-}" ] && ! cmake --build "$build" --target "${targets[@]}" -j"${JOBS:-2}" >"$build/build.log" 2>&1; then
  tail -n 50 "$build/build.log" >&2
  echo "fuzz.sh: building the fuzz targets failed (full log: $build/build.log)" >&2
  exit 2
fi

mkdir -p "$build/crashes" "$build/fuzz-logs"
failed=0
printf '%-22s %8s %12s %8s %13s %6s\n' target seconds executions crashes corpus exit
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  mkdir -p "$corpus"
  log=$build/fuzz-logs/$t.log
  before=$(ls "$build/crashes" | grep -c -- "^$t-" || true)
  args=(-max_total_time="$seconds" -timeout=10 -print_final_stats=1 -artifact_prefix="$build/crashes/$t-")
  [ -f "$root/tests/fuzz/dicts/$t.dict" ] && args+=(-dict="$root/tests/fuzz/dicts/$t.dict")
  start=$(date +%s)
  "$build/bin/$t" "${args[@]}" "$corpus" "$root/tests/fuzz/corpus/$t" >"$log" 2>&1
  status=$?
  elapsed=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  if [ -z "$execs" ]; then # a crash ends the run before the final stats: take the last status line
    execs=$(grep -o '^#[0-9]*' "$log" | tail -n 1 | tr -d '#')
  fi
  crashes=$(( $(ls "$build/crashes" | grep -c -- "^$t-" || true) - before ))
  active=$(grep -o 'corp: [0-9]*' "$log" | tail -n 1 | tr -dc '0-9')
  size="${active:-?}/$(ls "$corpus" | wc -l)"
  printf '%-22s %8s %12s %8s %13s %6s\n' "$t" "$elapsed" "${execs:-?}" "$crashes" "$size" "$status"
  if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    failed=1
    grep -m 3 -E 'ERROR: |runtime error|fuzz invariant|uncaught|terminate' "$log" | sed 's/^/    /'
    echo "    log: $log"
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz.sh: findings above; reproducers in $build/crashes/" >&2
  exit 1
fi
echo "fuzz.sh: no crash"
