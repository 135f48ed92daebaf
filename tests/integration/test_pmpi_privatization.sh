#!/usr/bin/env bash
# The PMPI layer's interception (pmpi/README.md, "Linking"): a program linked as `haec cc` links it
# (apps/CMakeLists.txt) carries the layer's entry points itself, hidden, so its MPI calls reach
# the wrappers under every privatization (dlopen, mmap, none) and on every SimGrid version, and
# SimGrid's own MPI calls never do: the per-rank counts are exactly the program's calls. Also:
# libhaec_pmpi.so exports no MPI function (preloading it wraps nothing), and a C++ program built
# with `haec cxx` is intercepted alike.
# Usage: test_pmpi_privatization.sh BUILD_DIR [SOURCE_DIR]
set -euo pipefail
BUILD=$(cd "${1:?usage: $0 BUILD_DIR [SOURCE_DIR]}" && pwd)
APP=$BUILD/bin/pingpong
LIB=$BUILD/lib/libhaec_pmpi.so
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ -x $APP ]] || fail "$APP missing (build target haec_apps)"
[[ -f $LIB ]] || fail "$LIB missing (build target haec_pmpi)"

# The program defines MPI_Send (hidden: neither exported nor imported) and needs libhaec_pmpi.so.
readelf -d "$APP" | grep -q 'NEEDED.*libhaec_pmpi.so' || fail "the program does not need libhaec_pmpi.so"
dynsyms=$(nm -D "$APP" | awk '{ print $NF }')
! grep -qx 'MPI_Send' <<< "$dynsyms" || fail "the program imports or exports MPI_Send: $(nm -D "$APP" | grep -w MPI_Send)"
symbols=$(nm "$APP")
grep -qE ' t MPI_Send$' <<< "$symbols" || fail "the program has no local MPI_Send entry point"
exported=$(nm -D --defined-only "$LIB" | awk '{ print $3 }' | grep -E '^(MPI|mpi|PMPI|AMPI)_' || true)
[[ -z $exported ]] || fail "libhaec_pmpi.so exports MPI functions: $(head -3 <<< "$exported" | tr '\n' ' ')"

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

run() { # $1 = tag, $2 = program, rest = extra smpirun options (before the program)
  local tag=$1 program=$2; shift 2
  HAEC_PMPI_DEBUG_COUNTS=$TMP/$tag.counts.csv HAEC_PMPI_DEBUG_SIZES=$TMP/$tag.sizes.csv \
    timeout 120 smpirun "$@" -np 3 -platform "$TMP/platform.xml" -hostfile "$TMP/hosts" \
    --cfg=smpi/tmpdir:"$TMP" "$program" 64 2 > "$TMP/$tag.out" 2> "$TMP/$tag.err" ||
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

run dlopen "$APP"                                  # SMPI's default privatization
run mmap "$APP" --cfg=smpi/privatization:mmap
run none "$APP" -no-privatize
# Preloading the library changes nothing (it defines no MPI function SimGrid's calls could reach).
LD_PRELOAD=$LIB run preloaded "$APP" -no-privatize

# A C++ program (the same exchanges, through std::vector buffers) built with haec cxx.
if [[ -x $(dirname "$(command -v smpicc)")/smpicxx ]]; then
  cat > "$TMP/pingpong.cpp" <<'CPP'
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
int main(int argc, char* argv[])
{
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int max = std::atoi(argv[1]), reps = std::atoi(argv[2]);
  std::vector<char> buf(max > 0 ? max : 1);
  for (int bytes = 0; bytes <= max; bytes = bytes ? 2 * bytes : 1) {
    for (int r = 0; r < reps; ++r)
      for (int peer = 1; peer < size; ++peer)
        if (rank == 0) {
          MPI_Send(buf.data(), bytes, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
          MPI_Recv(buf.data(), bytes, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == peer) {
          MPI_Recv(buf.data(), bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(buf.data(), bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        }
    if (rank == 0)
      std::printf("bytes=%d samples=%d rtt_mean_us=0\n", bytes, reps * (size - 1));
  }
  MPI_Finalize();
  return 0;
}
CPP
  (cd "$TMP" && "$BUILD/bin/haec" cxx -O1 -o pingpong_cxx pingpong.cpp) || fail "haec cxx"
  run cxx-dlopen "$TMP/pingpong_cxx"
  run cxx-mmap "$TMP/pingpong_cxx" --cfg=smpi/privatization:mmap
fi
# Linked the old way (libhaec_pmpi.so needed, MPI_Send taken from SimGrid): haec run refuses it,
# one line, exit 2, rather than run it without the layer (SimGrid 4.1 would bind its calls to
# libsimgrid; 3.32 only under dlopen privatization).
smpicc -O1 -o "$TMP/old_style" "$(dirname "$0")/../../apps/pingpong.c" -L"$BUILD/lib" -Wl,--no-as-needed -lhaec_pmpi \
  -Wl,-rpath,"$BUILD/lib" 2> "$TMP/old_style.log" || { cat "$TMP/old_style.log" >&2; fail "smpicc old-style program"; }
set +e
"$BUILD/bin/haec" run --platform cluster:2 -np 2 --out "$TMP/old-out" -- "$TMP/old_style" 8 1 > /dev/null 2> "$TMP/old.err"
status=$?
set -e
[[ $status == 2 ]] || fail "old-style program: exit $status: $(cat "$TMP/old.err")"
[[ $(grep -c . "$TMP/old.err") == 1 ]] && grep -q "its MPI calls would bypass the haec PMPI layer (it takes MPI_" "$TMP/old.err" ||
  fail "old-style program: $(cat "$TMP/old.err")"
[[ ! -e $TMP/old-out ]] || fail "old-style program: results written"
echo "ok: old-style program refused: $(cat "$TMP/old.err")"
echo PASS
