# Shared by the integration tests: tests/integration/test_*.sh BUILD_DIR [SOURCE_DIR]
# (ctest passes both). Sourced at the top of a test: strict mode, the usual paths, a scratch
# directory that is removed on exit and is the working directory, and fail/skip.
set -euo pipefail
build="$(cd "$1" && pwd)"
source_dir="$(cd "${2:-$(dirname "${BASH_SOURCE[0]}")/../..}" && pwd)"
haec="$build/bin/haec"
py="${HAEC_PYTHON:-/usr/bin/python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; } # ctest's SKIP_RETURN_CODE

# record_lu16_trace: an 8-host cluster.xml and its hostfile, and lu_like (16 ranks, 3 iterations)
# recorded there by plain smpirun as a time-independent trace, trace/lu.txt.
record_lu16_trace() {
  cat > cluster.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-7" speed="1Gf" bw="1.25GBps" lat="1.5us" loopback_bw="100GBps" loopback_lat="10ns"/>
</platform>
XML
  for i in 0 1 2 3 4 5 6 7; do echo "h$i"; done > hostfile
  mkdir -p trace
  smpirun -np 16 -platform cluster.xml -hostfile hostfile -trace-ti --cfg=tracing/filename:trace/lu.txt \
    --cfg=smpi/host-speed:1Gf "$build/bin/lu_like" 3 > record.out 2> record.err
  [ -s trace/lu.txt ] || { cat record.err; fail "no trace recorded"; }
}
