#!/usr/bin/env bash
# The default suite on SimGrid 4.1: builds SimGrid 4.1 with our patches into build/simgrid-prefix
# (scripts/build-simgrid.sh: about 20 minutes on 2 cores the first time, skipped when up to date),
# the suite against it into build-simgrid41/, and runs its ctest there. With a prefix as argument
# (a SimGrid >= 4.0 installed there, e.g. a stock 4.1), the suite is built against that one instead,
# into build-simgrid-<name of the prefix>/.
#   scripts/test-simgrid41.sh [PREFIX] [-- CTEST ARGUMENTS]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
simgrid=4.1
build="$here/build-simgrid41"
if [ $# -gt 0 ] && [ "$1" != -- ]; then
  simgrid="$(cd "$1" && pwd)"
  build="$here/build-simgrid-$(basename "$simgrid")"
  shift
fi
[ "${1:-}" = -- ] && shift
HAEC_SIMGRID="$simgrid" HAEC_BUILD_DIR="$build" "$here/scripts/build.sh"
cd "$build" && ctest --output-on-failure -j2 "$@"
