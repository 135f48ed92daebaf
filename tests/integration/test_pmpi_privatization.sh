#!/usr/bin/env bash
# Checks that an app linked as apps/CMakeLists.txt links it (smpicc ... -lhaec_pmpi before
# -lsimgrid) reaches libhaec_pmpi's wrappers under smpirun's default (dlopen) privatization,
# that the per-rank counts are exact, and that LD_PRELOAD covers -no-privatize.
# Usage: test_pmpi_privatization.sh BUILD_DIR [SOURCE_DIR]
set -euo pipefail
BUILD=${1:?usage: $0 BUILD_DIR [SOURCE_DIR]}
APP=$BUILD/bin/pingpong
LIB=$BUILD/lib/libhaec_pmpi.so
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ -x $APP ]] || fail "$APP missing (build target haec_apps)"
[[ -f $LIB ]] || fail "$LIB missing (build target haec_pmpi)"

# The wrappers only win if libhaec_pmpi precedes libsimgrid among the app's DT_NEEDED entries.
needed=$(readelf -d "$APP" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
[[ $needed == libhaec_pmpi.so\ *libsimgrid.so* ]] || fail "DT_NEEDED order is '$needed'"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cat > "$TMP/platform.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="n" suffix="" radical="0-2" speed="1Gf" bw="1GBps" lat="1us"/>
</platform>
XML
printf 'n0\nn1\nn2\n' > "$TMP/hosts"

# pingpong 64 2: sizes 0,1,2,4,...,64 (8 sizes) x 2 repetitions x 2 peers.
# Rank 0 sends and receives 8*2*2 = 32 messages, ranks 1 and 2 each 8*2 = 16.
expected_counts="rank,function,calls
0,MPI_Init,1
0,MPI_Finalize,1
0,MPI_Send,32
0,MPI_Recv,32
1,MPI_Init,1
1,MPI_Finalize,1
1,MPI_Send,16
1,MPI_Recv,16
2,MPI_Init,1
2,MPI_Finalize,1
2,MPI_Send,16
2,MPI_Recv,16"
# Every size travels 2 peers x 2 directions x 2 repetitions = 8 times.
expected_sizes="bytes,messages
0,8
1,8
2,8
4,8
8,8
16,8
32,8
64,8"

run() { # $1 = tag, rest = extra smpirun options (before the program)
  local tag=$1; shift
  HAEC_PMPI_DEBUG_COUNTS=$TMP/$tag.counts.csv HAEC_PMPI_DEBUG_SIZES=$TMP/$tag.sizes.csv \
    timeout 120 smpirun "$@" -np 3 -platform "$TMP/platform.xml" -hostfile "$TMP/hosts" \
    --cfg=smpi/tmpdir:"$TMP" "$APP" 64 2 > "$TMP/$tag.out" 2> "$TMP/$tag.err" ||
    { cat "$TMP/$tag.err" >&2; fail "$tag: smpirun failed"; }
  [[ $(grep -c '^bytes=[0-9]* samples=4 rtt_mean_us=' "$TMP/$tag.out") == 8 ]] ||
    { cat "$TMP/$tag.out" >&2; fail "$tag: pingpong did not print 8 size lines"; }
  [[ -f $TMP/$tag.counts.csv ]] || fail "$tag: no counts CSV: MPI calls did not reach libhaec_pmpi"
  [[ $(cat "$TMP/$tag.counts.csv") == "$expected_counts" ]] ||
    { diff <(echo "$expected_counts") "$TMP/$tag.counts.csv" >&2; fail "$tag: wrong call counts"; }
  [[ $(cat "$TMP/$tag.sizes.csv") == "$expected_sizes" ]] ||
    { diff <(echo "$expected_sizes") "$TMP/$tag.sizes.csv" >&2; fail "$tag: wrong message sizes"; }
  echo "ok: $tag"
}

run dlopen-linked                       # default privatization, no LD_PRELOAD: linking alone suffices
LD_PRELOAD=$LIB run noprivatize-preload -no-privatize   # without RTLD_DEEPBIND the preload is needed
echo PASS
