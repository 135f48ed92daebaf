#!/usr/bin/env bash
# The performance patches of third_party_patches/simgrid-4.1 (0020-0049) change no result: a SimGrid
# 4.1 built with them simulates exactly as a stock 4.1 (scripts/check-simgrid-patches.sh: replays,
# SimGrid's replay examples, C and Fortran emulations, every simulated time to 20 decimals).
#   patched prefix: $HAEC_SIMGRID41_PATCHED, else the build's simgrid-prefix (scripts/build-simgrid.sh)
#   stock prefix:   $HAEC_SIMGRID41_STOCK (a SimGrid 4.1 built from the release without patches)
# Skipped (exit 77), saying why, when either prefix is missing or the patched one carries none of
# the performance patches.
source "$(dirname "$0")/common.sh"
patched="${HAEC_SIMGRID41_PATCHED:-$build/simgrid-prefix}"
stock="${HAEC_SIMGRID41_STOCK:-}"
[ -e "$patched/lib/libsimgrid.so.4.1" ] \
  || skip "no patched SimGrid 4.1 in $patched (scripts/build-simgrid.sh builds it; or set HAEC_SIMGRID41_PATCHED)"
[ -n "$stock" ] || skip "no stock SimGrid 4.1 to compare with: set HAEC_SIMGRID41_STOCK to its prefix"
[ -e "$stock/lib/libsimgrid.so.4.1" ] || skip "HAEC_SIMGRID41_STOCK=$stock holds no SimGrid 4.1 library"
info="$patched/share/haec-simgrid/build-info.txt" # written by scripts/build-simgrid.sh
if [ -f "$info" ] && ! grep -q '^patch 00[2-4][0-9]-' "$info"; then
  skip "the SimGrid in $patched was built without the performance patches (0020-0049)"
fi
src_dir="${HAEC_SIMGRID41_SOURCE:-}" # optional: adds SimGrid's own replay examples
bash "$source_dir/scripts/check-simgrid-patches.sh" "$patched" "$stock" $src_dir | tee check.log
tail -1 check.log | grep -q "comparisons identical" || fail "the patched SimGrid does not simulate as the stock one"
